package cli

import "git.rickub.com/bots-garden/sidekicks/i18n"

// manMsg names a text of the manual page that the help does not have, in every language.
type manMsg int

const (
	manSecName manMsg = iota
	manWhat
	manSecSynopsis
	manSecDescription
	manSecOptions
	manSecCommands
	manSecEnvironment
	manSecFiles
	manSecExitStatus
	manExitOK
	manExitError
	manExitUsage
	manExitMore
	manSecSeeAlso
	manSeeAlsoText
	manMsgCount // not a message
)

var manTextsEN = [manMsgCount]string{
	manSecName:        "NAME",
	manWhat:           "work with AI agents in the terminal, over the Agent Client Protocol (ACP)",
	manSecSynopsis:    "SYNOPSIS",
	manSecDescription: "DESCRIPTION",
	manSecOptions:     "OPTIONS",
	manSecCommands:    "COMMANDS",
	manSecEnvironment: "ENVIRONMENT",
	manSecFiles:       "FILES",
	manSecExitStatus:  "EXIT STATUS",
	manExitOK:         "success",
	manExitError:      "an error (the configuration has one, a file cannot be read, an agent failed)",
	manExitUsage:      "a mistaken command line",
	manExitMore:       "ask and the application have more; docs/reference/cli.md lists them.",
	manSecSeeAlso:     "SEE ALSO",
	manSeeAlsoText:    "The documentation in the source's docs/ folder: docs/reference/cli.md (the command line), docs/reference/configuration.md (the configuration file).",
}

var manTextsFR = [manMsgCount]string{
	manSecName:        "NOM",
	manWhat:           "travailler avec des agents d'IA dans le terminal, par l'Agent Client Protocol (ACP)",
	manSecSynopsis:    "SYNOPSIS",
	manSecDescription: "DESCRIPTION",
	manSecOptions:     "OPTIONS",
	manSecCommands:    "COMMANDES",
	manSecEnvironment: "ENVIRONNEMENT",
	manSecFiles:       "FICHIERS",
	manSecExitStatus:  "CODE DE RETOUR",
	manExitOK:         "succès",
	manExitError:      "une erreur (la configuration en a une, un fichier est illisible, un agent a échoué)",
	manExitUsage:      "une ligne de commande erronée",
	manExitMore:       "ask et l'application en ont d'autres ; docs/reference/cli.md les liste.",
	manSecSeeAlso:     "VOIR AUSSI",
	manSeeAlsoText:    "La documentation dans le dossier docs/ des sources : docs/reference/cli.md (la ligne de commande), docs/reference/configuration.md (le fichier de configuration).",
}

// manCatalogue holds the texts of the manual page in every language.
var manCatalogue = i18n.NewCatalogue[manMsg](manTextsEN[:], manTextsFR[:])
