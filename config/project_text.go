package config

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// projectMessage is a message about a project agents file: each has an English and a
// French version in projectMessagesEN and projectMessagesFR. The four refusals of the
// Turbo Python specification come out to the letter in English.
type projectMessage int

// The messages about a project agents file.
const (
	pReading projectMessage = iota
	pAgentNumber
	pAgentNamed
	pNoName
	pNoCommand
	pSameName
	pUnknownKey
	pSameDerived
	pSyntax
	pUnreadable
	pPermission
	pIsFolder
	pTooLarge
	pAgentNotList
	pWantText
	pWantList
	pWantTable
	pNotInPath
	pNoSuchCommand
	pCollides
	pNotAllowed
	pNotAllowedOne
	pDescCommand
	pDescWorkspace
	pDescEnv
	pMark
	projectMessageCount // not a message: the number of keys
)

var projectMessagesEN = [projectMessageCount]string{
	pReading:       "reading %s: ",
	pAgentNumber:   "agent %d",
	pAgentNamed:    "agent %s",
	pNoName:        "%s has no name",
	pNoCommand:     "%s has no command",
	pSameName:      "two agents are called %s",
	pUnknownKey:    "%s is not a key this file has",
	pSameDerived:   "agents %s and %s both get the name %s, used with @: make their names differ by a letter or a digit",
	pSyntax:        "line %d: this is not valid TOML (%s)",
	pUnreadable:    "the file cannot be read (%s)",
	pPermission:    "the file cannot be read: permission denied",
	pIsFolder:      "this is a folder, not a file",
	pTooLarge:      "the file is too large for an agents file (%d KiB at most)",
	pAgentNotList:  "agent must be a list of [[agent]] blocks",
	pWantText:      "%s: %s must be text, in quotes",
	pWantList:      `%s: %s must be a list of texts, such as ["serve", "acp"]`,
	pWantTable:     `%s: %s must be a table of texts, such as { LOG_LEVEL = "debug" }`,
	pNotInPath:     "%s: the command %s is not in PATH; install it, or give its path",
	pNoSuchCommand: "%s: the command %s does not exist",
	pCollides:      "agent %s is not added: the configuration already has an agent named @%s (%s), which is kept; rename one of them",
	pNotAllowed:    "this folder defines %d agents in .sidekicks/acp.toml — not allowed; review and allow it in Sidekicks (or `sidekicks allow`)",
	pDescCommand:   "command:   %s",
	pDescWorkspace: "workspace: %s",
	pDescEnv:       "env:       %s",
	pNotAllowedOne: "this folder defines 1 agent in .sidekicks/acp.toml — not allowed; review and allow it in Sidekicks (or `sidekicks allow`)",
	pMark:          "[project]",
}

var projectMessagesFR = [projectMessageCount]string{
	pReading:       "lecture de %s : ",
	pAgentNumber:   "l'agent %d",
	pAgentNamed:    "l'agent %s",
	pNoName:        "%s n'a pas de nom",
	pNoCommand:     "%s n'a pas de commande",
	pSameName:      "deux agents s'appellent %s",
	pUnknownKey:    "%s n'est pas une clé de ce fichier",
	pSameDerived:   "les agents %s et %s reçoivent tous deux le nom %s, utilisé avec @ : faites-les différer d'une lettre ou d'un chiffre",
	pSyntax:        "ligne %d : ce n'est pas du TOML valide (%s)",
	pUnreadable:    "le fichier ne peut pas être lu (%s)",
	pPermission:    "le fichier ne peut pas être lu : permission refusée",
	pIsFolder:      "c'est un dossier, pas un fichier",
	pTooLarge:      "le fichier est trop grand pour un fichier d'agents (%d Kio au plus)",
	pAgentNotList:  "agent doit être une liste de blocs [[agent]]",
	pWantText:      "%s : %s doit être un texte entre guillemets",
	pWantList:      `%s : %s doit être une liste de textes, comme ["serve", "acp"]`,
	pWantTable:     `%s : %s doit être une table de textes, comme { LOG_LEVEL = "debug" }`,
	pNotInPath:     "%s : la commande %s est introuvable dans le PATH ; installez-la, ou indiquez son chemin",
	pNoSuchCommand: "%s : la commande %s n'existe pas",
	pCollides:      "l'agent %s n'est pas ajouté : la configuration a déjà un agent nommé @%s (%s), qui est gardé ; renommez l'un des deux",
	pNotAllowed:    "ce dossier définit %d agents dans .sidekicks/acp.toml — non autorisé ; examinez-le et autorisez-le dans Sidekicks (ou `sidekicks allow`)",
	pDescCommand:   "commande :  %s",
	pDescWorkspace: "dossier :   %s",
	pDescEnv:       "env :       %s",
	pNotAllowedOne: "ce dossier définit 1 agent dans .sidekicks/acp.toml — non autorisé ; examinez-le et autorisez-le dans Sidekicks (ou `sidekicks allow`)",
	pMark:          "[projet]",
}

// projectCatalogue holds the messages about a project agents file in every language.
var projectCatalogue = i18n.NewCatalogue[projectMessage](projectMessagesEN[:], projectMessagesFR[:])

// projectText formats the message m in lang, after "reading <path>: " when path is not
// empty. Arguments that come from the file are quoted by the caller (quoteIn); every
// other string argument has its control characters escaped here.
func projectText(lang i18n.Lang, path string, m projectMessage, args ...any) string {
	for k, a := range args {
		switch a := a.(type) {
		case error:
			args[k] = safetext.Escaped(a.Error())
		case string:
			args[k] = safetext.Escaped(a)
		}
	}
	text := projectCatalogue.Text(lang, m, args...)
	if path == "" {
		return text
	}
	return projectCatalogue.Text(lang, pReading, safetext.Escaped(path)) + text
}

// quoteIn quotes a name taken from a file the way lang does: "Bob" in English, « Bob » in
// French, with control characters escaped either way (safetext.Escaped in French).
func quoteIn(lang i18n.Lang, s string) string {
	if lang == i18n.French {
		return "« " + safetext.Escaped(s) + " »"
	}
	return strconv.Quote(s)
}

// ProjectStarterFile is the commented .sidekicks/acp.toml that "Create agents file"
// writes, in English; executable is as for ProjectStarterFileIn.
func ProjectStarterFile(executable string) []byte {
	return ProjectStarterFileIn(i18n.English, executable)
}

// ProjectStarterFileIn is the starter project agents file with its comments in lang. Its
// one agent is Sidekicks' own demo agent: executable (the absolute path of the running
// Sidekicks, so that it works whatever PATH holds) with the argument demo-agent; a path
// TOML cannot hold (not UTF-8), or "", leaves it to be found in PATH as "sidekicks".
func ProjectStarterFileIn(lang i18n.Lang, executable string) []byte {
	command := "sidekicks"
	if executable != "" && utf8.ValidString(executable) {
		command = executable
	}
	return []byte(strings.Replace(starters.Text(lang, starterProject), executablePlaceholder, tomlBasicString(command), 1))
}

// tomlBasicString writes s as a TOML basic string: between double quotes, with the
// backslash, the double quote and the control characters escaped.
func tomlBasicString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '\\' || r == '"':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

const projectStarterEN = `# Agents of this project.
#
# When Sidekicks starts in this folder, it adds these agents to those of its
# configuration. One whose @name is already a configuration agent's is left out: the
# configuration's agent is kept, and a warning says so. (The demo agent below is
# @demo-project, so that it never takes the place of a configuration's @demo.)
#
# One [[agent]] block per agent:
#   name     (required) shown in the interface; its @name is derived from it:
#            lower case, letters and digits, other characters become "-", so that
#            "Demo (offline)" is @demo-offline. Two agents may not share a name.
#   command  (required) the program that speaks ACP on its standard input and output
#            (below: the Sidekicks that wrote this file, as its demo agent);
#            looked up in PATH, unless it contains a "/": then it is relative to this
#            project's folder (the one that holds .sidekicks/).
#   args     its arguments, passed as they are: no shell, so no quotes, no wildcards.
#   env      extra environment variables: env = { LOG_LEVEL = "debug" }
#   cwd      where the agent starts, relative to the project's folder (default: the
#            project's folder).
# Any other key is an error, so that a misspelt key is never silently ignored.

[[agent]]
name    = "Demo (project)"
command = {{executable}}
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
# configuration. Celui dont le @nom est déjà celui d'un agent de la configuration est
# laissé de côté : l'agent de la configuration est gardé, et un avertissement le dit.
# (L'agent de démonstration ci-dessous est @demo-projet, pour qu'il ne prenne jamais la
# place d'un @demo de la configuration.)
#
# Un bloc [[agent]] par agent :
#   name     (obligatoire) affiché dans l'interface ; son @nom en est tiré : minuscules,
#            lettres et chiffres, les autres caractères deviennent « - », si bien que
#            « Démo (hors ligne) » donne @demo-hors-ligne. Deux agents ne peuvent pas
#            porter le même nom.
#   command  (obligatoire) le programme qui parle ACP sur son entrée et sa sortie
#            standard (ci-dessous : le Sidekicks qui a écrit ce fichier, comme agent de
#            démonstration) ; cherché dans le PATH, sauf s'il contient un « / » : il
#            est alors relatif au dossier du projet (celui qui contient .sidekicks/).
#   args     ses arguments, passés tels quels : pas de shell, donc ni guillemets ni jokers.
#   env      des variables d'environnement en plus : env = { LOG_LEVEL = "debug" }
#   cwd      où l'agent démarre, relatif au dossier du projet (par défaut : le dossier
#            du projet).
# Toute autre clé est une erreur, pour qu'une faute de frappe ne soit jamais ignorée.

[[agent]]
name    = "Démo (projet)"
command = {{executable}}
args    = ["demo-agent"]

# Un agent servi par docker agent, dont la configuration est gardée dans ce projet :
#
# [[agent]]
# name    = "Bob (docker agent)"
# command = "docker"
# args    = ["agent", "serve", "acp", ".sidekicks/agent.yaml"]
# env     = { TELEMETRY_ENABLED = "false" }
`
