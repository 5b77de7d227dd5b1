package config

import (
	"fmt"
	"strconv"

	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// projectMessages are the messages about a project agents file, in English and French.
// The four refusals of the Turbo Python specification come out to the letter in English.
var projectMessages = map[string][2]string{
	"reading":       {"reading %s: ", "lecture de %s : "},
	"agentNumber":   {"agent %d", "l'agent %d"},
	"agentNamed":    {"agent %s", "l'agent %s"},
	"noName":        {"%s has no name", "%s n'a pas de nom"},
	"noCommand":     {"%s has no command", "%s n'a pas de commande"},
	"sameName":      {"two agents are called %s", "deux agents s'appellent %s"},
	"unknownKey":    {"%s is not a key this file has", "%s n'est pas une clé de ce fichier"},
	"sameDerived":   {"agents %s and %s both get the name %s, used with @: make their names differ by a letter or a digit", "les agents %s et %s reçoivent tous deux le nom %s, utilisé avec @ : faites-les différer d'une lettre ou d'un chiffre"},
	"syntax":        {"line %d: this is not valid TOML (%s)", "ligne %d : ce n'est pas du TOML valide (%s)"},
	"unreadable":    {"the file cannot be read (%s)", "le fichier ne peut pas être lu (%s)"},
	"permission":    {"the file cannot be read: permission denied", "le fichier ne peut pas être lu : permission refusée"},
	"isFolder":      {"this is a folder, not a file", "c'est un dossier, pas un fichier"},
	"tooLarge":      {"the file is too large for an agents file (%d KiB at most)", "le fichier est trop grand pour un fichier d'agents (%d Kio au plus)"},
	"agentNotList":  {"agent must be a list of [[agent]] blocks", "agent doit être une liste de blocs [[agent]]"},
	"wantText":      {"%s: %s must be text, in quotes", "%s : %s doit être un texte entre guillemets"},
	"wantList":      {`%s: %s must be a list of texts, such as ["serve", "acp"]`, `%s : %s doit être une liste de textes, comme ["serve", "acp"]`},
	"wantTable":     {`%s: %s must be a table of texts, such as { LOG_LEVEL = "debug" }`, `%s : %s doit être une table de textes, comme { LOG_LEVEL = "debug" }`},
	"notInPath":     {"%s: the command %s is not in PATH; install it, or give its path", "%s : la commande %s est introuvable dans le PATH ; installez-la, ou indiquez son chemin"},
	"noSuchCommand": {"%s: the command %s does not exist", "%s : la commande %s n'existe pas"},
}

// projectMessage formats the message id in lang, after "reading <path>: " when path is
// not empty. Arguments that come from the file are quoted by the caller (quoteIn); every
// other string argument has its control characters escaped here.
func projectMessage(lang, path, id string, args ...any) string {
	i := 0
	if lang == "fr" {
		i = 1
	}
	for k, a := range args {
		switch a := a.(type) {
		case error:
			args[k] = safetext.Escaped(a.Error())
		case string:
			args[k] = safetext.Escaped(a)
		}
	}
	msg := fmt.Sprintf(projectMessages[id][i], args...)
	if path == "" {
		return msg
	}
	return fmt.Sprintf(projectMessages["reading"][i], safetext.Escaped(path)) + msg
}

// quoteIn quotes a name taken from a file the way lang does: "Bob" in English, « Bob » in
// French, with control characters escaped either way (safetext.Escaped in French).
func quoteIn(lang, s string) string {
	if lang == "fr" {
		return "« " + safetext.Escaped(s) + " »"
	}
	return strconv.Quote(s)
}

// ProjectStarterFile is the commented .sidekicks/acp.toml that "Create agents file"
// writes, in English.
func ProjectStarterFile() []byte {
	return ProjectStarterFileIn("en")
}

// ProjectStarterFileIn is the starter project agents file with its comments in lang ("en"
// or "fr"). Its one agent is Sidekicks' own demo agent, found in PATH as "sidekicks".
func ProjectStarterFileIn(lang string) []byte {
	if lang == "fr" {
		return []byte(projectStarterFR)
	}
	return []byte(projectStarterEN)
}

const projectStarterEN = `# Agents of this project.
#
# When Sidekicks starts in this folder, it adds these agents to those of its
# configuration; one whose @name is the name of a configuration agent replaces it.
#
# One [[agent]] block per agent:
#   name     (required) shown in the interface; its @name is derived from it:
#            lower case, letters and digits, other characters become "-", so that
#            "Demo (offline)" is @demo-offline. Two agents may not share a name.
#   command  (required) the program that speaks ACP on its standard input and output;
#            looked up in PATH, unless it contains a "/": then it is relative to this
#            project's folder (the one that holds .sidekicks/).
#   args     its arguments, passed as they are: no shell, so no quotes, no wildcards.
#   env      extra environment variables: env = { LOG_LEVEL = "debug" }
#   cwd      where the agent starts, relative to the project's folder (default: the
#            project's folder).
# Any other key is an error, so that a misspelt key is never silently ignored.

[[agent]]
name    = "Demo"
command = "sidekicks"
args    = ["demo-agent"]

# An agent served by docker agent, with its configuration kept in this project:
#
# [[agent]]
# name    = "Bob (docker agent)"
# command = "docker"
# args    = ["agent", "serve", "acp", ".sidekicks/agent.yaml"]
# env     = { TELEMETRY_ENABLED = "false" }
`

const projectStarterFR = `# Les agents de ce projet.
#
# Quand Sidekicks démarre dans ce dossier, il ajoute ces agents à ceux de sa
# configuration ; celui dont le @nom est celui d'un agent de la configuration le remplace.
#
# Un bloc [[agent]] par agent :
#   name     (obligatoire) affiché dans l'interface ; son @nom en est tiré : minuscules,
#            lettres et chiffres, les autres caractères deviennent « - », si bien que
#            « Démo (hors ligne) » donne @demo-hors-ligne. Deux agents ne peuvent pas
#            porter le même nom.
#   command  (obligatoire) le programme qui parle ACP sur son entrée et sa sortie
#            standard ; cherché dans le PATH, sauf s'il contient un « / » : il est alors
#            relatif au dossier du projet (celui qui contient .sidekicks/).
#   args     ses arguments, passés tels quels : pas de shell, donc ni guillemets ni jokers.
#   env      des variables d'environnement en plus : env = { LOG_LEVEL = "debug" }
#   cwd      où l'agent démarre, relatif au dossier du projet (par défaut : le dossier
#            du projet).
# Toute autre clé est une erreur, pour qu'une faute de frappe ne soit jamais ignorée.

[[agent]]
name    = "Démo"
command = "sidekicks"
args    = ["demo-agent"]

# Un agent servi par docker agent, dont la configuration est gardée dans ce projet :
#
# [[agent]]
# name    = "Bob (docker agent)"
# command = "docker"
# args    = ["agent", "serve", "acp", ".sidekicks/agent.yaml"]
# env     = { TELEMETRY_ENABLED = "false" }
`
