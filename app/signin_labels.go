package app

import "git.rickub.com/bots-garden/sidekicks/i18n"

// imsg is a text of signing in, of the agents' secrets and of the session options, in
// English and French.
type imsg int

const (
	imsgNone imsg = iota
	imsgItemSignIn
	imsgItemSecrets
	imsgItemSessionOptions
	imsgPickAgent
	imsgNoAgent
	imsgSignInTitle
	imsgNoMethods
	imsgMarkTerminal
	imsgSetKey
	imsgSignOut
	imsgSigningIn
	imsgSignedIn
	imsgSignInFailed
	imsgTerminalHeader
	imsgTerminalFailed
	imsgSignedOut
	imsgSignOutFailed
	imsgSecretsTitle
	imsgSecretName
	imsgSecretNameKnown
	imsgSecretValue
	imsgBadName
	imsgBadValue
	imsgReservedName
	imsgSignInHollow
	imsgSignInHollowKey
	imsgMarkKey
	imsgSecretSaved
	imsgSecretRemoved
	imsgSecretRestart
	imsgSecretFailed
	imsgOptionsTitle
	imsgNoSession
	imsgNoOptions
	imsgMode
	imsgOn
	imsgOff
	imsgCurrent
	imsgOptionSet
	imsgOptionFailed
	imsgStartFailed
	imsgCount // not a message
)

var signInTextsEN = [imsgCount]string{
	imsgItemSignIn:         "Sign ~i~n…",
	imsgItemSecrets:        "Secre~t~s…",
	imsgItemSessionOptions: "Session ~o~ptions…",
	imsgPickAgent:          "Which agent?",
	imsgNoAgent:            "No agent to act on: open an agent's window first",
	imsgSignInTitle:        "Sign in to %s",
	imsgNoMethods:          "%s lists no login method",
	imsgMarkTerminal:       "in a terminal",
	imsgSetKey:             "Set a key it reads (Secrets…)",
	imsgSignOut:            "Sign out",
	imsgSigningIn:          "Signing in to %s with %q… follow what the agent asks (a browser page may open)",
	imsgSignedIn:           "Signed in to %s with %q: send your message again",
	imsgSignInFailed:       "Signing in to %s failed: %s",
	imsgTerminalHeader:     "Sidekicks: signing in to %s with %q. The screen comes back when this program ends.",
	imsgTerminalFailed:     "The terminal login of %s did not succeed: %s",
	imsgSignedOut:          "Signed out of %s",
	imsgSignOutFailed:      "Signing out of %s failed: %s",
	imsgSecretsTitle:       "Secrets of %s",
	imsgSecretName:         "Environment variable (e.g. GEMINI_API_KEY):",
	imsgSecretNameKnown:    "Environment variable (set: %s):",
	imsgSecretValue:        "Value of %s (hidden; empty removes it):",
	imsgBadName:            "A variable's name is letters, digits and _, not starting with a digit",
	imsgBadValue:           "The value is one line of at most 16 KiB",
	imsgSignInHollow:       "Signing in to %s with %q did not sign it in: it still asks for a login. Set the key it reads with Agent ▸ Secrets…",
	imsgSignInHollowKey:    "Signing in to %s with %q did not sign it in: it still asks for a login. Set %s with Agent ▸ Secrets…",
	imsgMarkKey:            "key: Secrets…",
	imsgReservedName:       "PATH, HOME, LD_* and DYLD_* cannot be secrets: the agent's process needs them as they are (set them in the agent's env in the configuration if you must)",
	imsgSecretSaved:        "Secret %s of %s saved; it is passed at the agent's next start",
	imsgSecretRemoved:      "Secret %s of %s removed; the agent goes without it from its next start",
	imsgSecretRestart:      "%s was stopped so that its next start has it",
	imsgSecretFailed:       "The secret was not saved: %s",
	imsgOptionsTitle:       "Session options of %s",
	imsgNoSession:          "%s has no session in this window yet: send a message first",
	imsgNoOptions:          "%s offers no mode and no option in this session",
	imsgMode:               "Mode",
	imsgOn:                 "on",
	imsgOff:                "off",
	imsgCurrent:            "current",
	imsgOptionSet:          "%s: %s is now %s",
	imsgOptionFailed:       "%s did not change %s: %s",
	imsgStartFailed:        "%s could not start: %s",
}

var signInTextsFR = [imsgCount]string{
	imsgItemSignIn:         "Se ~c~onnecter…",
	imsgItemSecrets:        "S~e~crets…",
	imsgItemSessionOptions: "~O~ptions de session…",
	imsgPickAgent:          "Quel agent ?",
	imsgNoAgent:            "Aucun agent concerné : ouvrez d'abord la fenêtre d'un agent",
	imsgSignInTitle:        "Se connecter à %s",
	imsgNoMethods:          "%s n'indique aucune méthode de connexion",
	imsgMarkTerminal:       "dans un terminal",
	imsgSetKey:             "Donner une clé qu'il lit (Secrets…)",
	imsgSignOut:            "Se déconnecter",
	imsgSigningIn:          "Connexion à %s avec %q… suivez ce que demande l'agent (une page du navigateur peut s'ouvrir)",
	imsgSignedIn:           "Connecté à %s avec %q : renvoyez votre message",
	imsgSignInFailed:       "La connexion à %s a échoué : %s",
	imsgTerminalHeader:     "Sidekicks : connexion à %s avec %q. L'écran revient quand ce programme se termine.",
	imsgTerminalFailed:     "La connexion de %s dans le terminal n'a pas réussi : %s",
	imsgSignedOut:          "Déconnecté de %s",
	imsgSignOutFailed:      "La déconnexion de %s a échoué : %s",
	imsgSecretsTitle:       "Secrets de %s",
	imsgSecretName:         "Variable d'environnement (par ex. GEMINI_API_KEY) :",
	imsgSecretNameKnown:    "Variable d'environnement (déjà données : %s) :",
	imsgSecretValue:        "Valeur de %s (masquée ; vide la retire) :",
	imsgBadName:            "Le nom d'une variable est fait de lettres, chiffres et _, sans chiffre au début",
	imsgBadValue:           "La valeur tient sur une ligne d'au plus 16 Kio",
	imsgSignInHollow:       "La connexion à %s avec %q ne l'a pas connecté : il demande toujours une connexion. Réglez la clé qu'il lit avec Agent ▸ Secrets…",
	imsgSignInHollowKey:    "La connexion à %s avec %q ne l'a pas connecté : il demande toujours une connexion. Réglez %s avec Agent ▸ Secrets…",
	imsgMarkKey:            "clé : Secrets…",
	imsgReservedName:       "PATH, HOME, LD_* et DYLD_* ne peuvent pas être des secrets : le processus de l'agent en a besoin tels quels (réglez-les dans l'env de l'agent dans la configuration s'il le faut)",
	imsgSecretSaved:        "Secret %s de %s enregistré ; il est donné à l'agent à son prochain démarrage",
	imsgSecretRemoved:      "Secret %s de %s retiré ; l'agent s'en passe dès son prochain démarrage",
	imsgSecretRestart:      "%s a été arrêté pour l'avoir à son prochain démarrage",
	imsgSecretFailed:       "Le secret n'a pas été enregistré : %s",
	imsgOptionsTitle:       "Options de session de %s",
	imsgNoSession:          "%s n'a pas encore de session dans cette fenêtre : envoyez d'abord un message",
	imsgNoOptions:          "%s ne propose ni mode ni option dans cette session",
	imsgMode:               "Mode",
	imsgOn:                 "oui",
	imsgOff:                "non",
	imsgCurrent:            "actuel",
	imsgOptionSet:          "%s : %s vaut maintenant %s",
	imsgOptionFailed:       "%s n'a pas changé %s : %s",
	imsgStartFailed:        "%s n'a pas pu démarrer : %s",
}

// signInCatalogue holds these texts in every language.
var signInCatalogue = i18n.NewCatalogue[imsg](signInTextsEN[:], signInTextsFR[:])
