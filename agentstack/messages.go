package agentstack

import "git.rickub.com/bots-garden/sidekicks/i18n"

// message is a text of this package's descriptions of errors: each has an English and a
// French version in messagesEN and messagesFR.
type message int

// The messages. Where the English text is only %s, the error's own message already says
// it in English; French puts its words in front.
const (
	mExitSignal message = iota
	mExitCode
	mProgramNotFound
	mUnknownAgent
	mShuttingDown
	mWorkspaceMissing
	messageCount // not a message: the number of keys
)

var messagesEN = [messageCount]string{
	mExitSignal:       "killed by signal: %s",
	mExitCode:         "exit status %d",
	mProgramNotFound:  "%s",
	mUnknownAgent:     "%s",
	mShuttingDown:     "sidekicks is shutting down",
	mWorkspaceMissing: "the agent's workspace %s does not exist (or is not a folder), so it cannot start there; create the folder, or change the agent's workspace",
}

var messagesFR = [messageCount]string{
	mExitSignal:       "tué par le signal : %s",
	mExitCode:         "code de sortie %d",
	mProgramNotFound:  "programme introuvable : %s",
	mUnknownAgent:     "agent inconnu : %s",
	mShuttingDown:     "Sidekicks est en train de s'arrêter",
	mWorkspaceMissing: "le dossier de travail de l'agent, %s, n'existe pas (ou n'est pas un dossier), l'agent ne peut donc pas y démarrer ; créez ce dossier, ou changez le workspace de l'agent",
}

// catalogue holds the messages in every language.
var catalogue = i18n.NewCatalogue[message](messagesEN[:], messagesFR[:])
