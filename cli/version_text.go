package cli

import "git.rickub.com/bots-garden/sidekicks/i18n"

// helpMsg names a text of `sidekicks help` (and of the usage a mistaken command line
// prints), in every language.
type helpMsg int

const (
	helpWithoutCommand helpMsg = iota
	helpCommands
	helpCommandOptions
	helpVersionAliases
	helpEnvironment
	helpFiles
	helpUnknown
	helpCheck
	helpSchema
	helpAsk
	helpAllow
	helpDemoAgent
	helpCompletion
	helpMan
	helpVersion
	helpHelp
	helpEnvConfig
	helpEnvDataDir
	helpEnvStateDir
	helpEnvTrace
	helpFileConfig
	helpFilePreferences
	helpFileHistory
	helpFileLogs
	helpMsgCount // not a message
)

var helpTextsEN = [helpMsgCount]string{
	helpWithoutCommand:  "Without a command, sidekicks opens the application on the screen.",
	helpCommands:        "commands:",
	helpCommandOptions:  "'sidekicks COMMAND --help' describes a command's options;",
	helpVersionAliases:  "'sidekicks --version' and 'sidekicks -v' are 'sidekicks version'.",
	helpEnvironment:     "environment:",
	helpFiles:           "files:",
	helpUnknown:         "unknown (%s)",
	helpCheck:           "validate the configuration and print its errors and warnings",
	helpSchema:          "print the configuration's JSON Schema",
	helpAsk:             "run one turn with an agent, without the screen",
	helpAllow:           "review the folder's .sidekicks/acp.toml and allow its agents to run",
	helpDemoAgent:       "run the built-in ACP demo agent on stdin and stdout",
	helpCompletion:      "print a script that completes sidekicks' commands in bash, zsh or fish",
	helpMan:             "print the manual page (roff), made from this help",
	helpVersion:         "print the version, commit, commit date and Go version",
	helpHelp:            "print this help",
	helpEnvConfig:       "the configuration file, when --config is not given",
	helpEnvDataDir:      "the folder of the history, instead of the one below",
	helpEnvStateDir:     "the folder of the logs and of the allowed project agents files",
	helpEnvTrace:        "a file where every ACP message is written",
	helpFileConfig:      "configuration",
	helpFilePreferences: "preferences",
	helpFileHistory:     "history",
	helpFileLogs:        "logs",
}

var helpTextsFR = [helpMsgCount]string{
	helpWithoutCommand:  "Sans commande, sidekicks ouvre l'application à l'écran.",
	helpCommands:        "commandes :",
	helpCommandOptions:  "'sidekicks COMMANDE --help' décrit les options d'une commande ;",
	helpVersionAliases:  "'sidekicks --version' et 'sidekicks -v' sont 'sidekicks version'.",
	helpEnvironment:     "environnement :",
	helpFiles:           "fichiers :",
	helpUnknown:         "inconnu (%s)",
	helpCheck:           "valider la configuration et afficher ses erreurs et avertissements",
	helpSchema:          "afficher le schéma JSON de la configuration",
	helpAsk:             "faire un tour avec un agent, sans l'écran",
	helpAllow:           "relire le .sidekicks/acp.toml du dossier et autoriser ses agents",
	helpDemoAgent:       "lancer l'agent ACP de démonstration intégré sur stdin et stdout",
	helpCompletion:      "afficher un script qui complète les commandes de sidekicks dans bash, zsh ou fish",
	helpMan:             "afficher la page de manuel (roff), faite de cette aide",
	helpVersion:         "afficher la version, le commit, sa date et la version de Go",
	helpHelp:            "afficher cette aide",
	helpEnvConfig:       "le fichier de configuration, quand --config n'est pas donné",
	helpEnvDataDir:      "le dossier de l'historique, au lieu de celui ci-dessous",
	helpEnvStateDir:     "le dossier des journaux et des fichiers d'agents de projet autorisés",
	helpEnvTrace:        "un fichier où chaque message ACP est écrit",
	helpFileConfig:      "configuration",
	helpFilePreferences: "préférences",
	helpFileHistory:     "historique",
	helpFileLogs:        "journaux",
}

// helpCatalogue holds the texts of `sidekicks help` in every language.
var helpCatalogue = i18n.NewCatalogue[helpMsg](helpTextsEN[:], helpTextsFR[:])
