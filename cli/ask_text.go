package cli

import "git.rickub.com/bots-garden/sidekicks/i18n"

// askMsg names a message `sidekicks ask` prints, in every language.
type askMsg int

const (
	askNeedArgs askMsg = iota
	askUnknownAgent
	askNoAgents
	askTraceFailed
	askCancelling
	askForced
	askCancelled
	askRefusal
	askMaxTokens
	askMaxTurnRequests
	askOtherStop
	askPermissionAsked
	askPermissionAllowed
	askPermissionRefused
	askPermissionNoOption
	askPermissionCancelled
	askWriteRefused
	askWriteOwnFile
	askProjectIgnored
	askProjectAgent
	askSeeTrace
	askSeeTraceHow
	askToolUnfinished
	askMsgCount // not a message
)

var askTextsEN = [askMsgCount]string{
	askNeedArgs:            "an agent and a prompt are needed",
	askUnknownAgent:        "unknown agent %q; the agents of %s are: %s",
	askNoAgents:            "unknown agent %q; %s has no agents",
	askTraceFailed:         "cannot write the trace file %s; going on without a trace",
	askCancelling:          "cancelling the turn (Ctrl-C again stops the agent)",
	askForced:              "the agent did not end its turn after Ctrl-C; it was stopped",
	askCancelled:           "the turn was cancelled",
	askRefusal:             "the agent refused to continue",
	askMaxTokens:           "the agent stopped: it reached its token limit",
	askMaxTurnRequests:     "the agent stopped: it reached its limit of requests in one turn",
	askOtherStop:           "the agent ended its turn: %s",
	askPermissionAsked:     "[permission] %s asks: %s (%s)",
	askPermissionAllowed:   "[permission] answered %q (%s, --yes)",
	askPermissionRefused:   "[permission] answered %q (refused; --yes allows)",
	askPermissionNoOption:  "[permission] no answer (refused; --yes allows)",
	askPermissionCancelled: "[permission] the request was withdrawn",
	askWriteRefused:        "[write] %s may not write %s: writes are refused without --yes",
	askWriteOwnFile:        "[write] %s may not write %s: it is one of Sidekicks' own files (%s), which no agent may write",
	askProjectIgnored:      "the project's agents file is not used",
	askProjectAgent:        "[project] @%s is an agent of the project, defined in %s",
	askToolUnfinished:      "not finished",
	askSeeTrace:            "every message exchanged with the agent is in %s",
	askSeeTraceHow:         "to see every message exchanged with the agent, run again with --trace FILE",
}

var askTextsFR = [askMsgCount]string{
	askNeedArgs:            "il faut un agent et un message",
	askUnknownAgent:        "agent inconnu : « %s » ; les agents de %s sont : %s",
	askNoAgents:            "agent inconnu : « %s » ; %s n'a aucun agent",
	askTraceFailed:         "impossible d'écrire le fichier de trace %s ; on continue sans trace",
	askCancelling:          "annulation du tour (Ctrl-C à nouveau arrête l'agent)",
	askForced:              "l'agent n'a pas terminé son tour après Ctrl-C ; il a été arrêté",
	askCancelled:           "le tour a été annulé",
	askRefusal:             "l'agent a refusé de continuer",
	askMaxTokens:           "l'agent s'est arrêté : limite de jetons atteinte",
	askMaxTurnRequests:     "l'agent s'est arrêté : limite de requêtes par tour atteinte",
	askOtherStop:           "l'agent a terminé son tour : %s",
	askPermissionAsked:     "[permission] %s demande : %s (%s)",
	askPermissionAllowed:   "[permission] réponse « %s » (%s, --yes)",
	askPermissionRefused:   "[permission] réponse « %s » (refusé ; --yes autorise)",
	askPermissionNoOption:  "[permission] pas de réponse (refusé ; --yes autorise)",
	askPermissionCancelled: "[permission] la demande a été retirée",
	askWriteRefused:        "[écriture] %s ne peut pas écrire %s : les écritures sont refusées sans --yes",
	askWriteOwnFile:        "[écriture] %s ne peut pas écrire %s : c'est un des fichiers de Sidekicks (%s), qu'aucun agent ne peut écrire",
	askProjectIgnored:      "le fichier d'agents du projet n'est pas utilisé",
	askProjectAgent:        "[projet] @%s est un agent du projet, défini dans %s",
	askToolUnfinished:      "non terminé",
	askSeeTrace:            "chaque message échangé avec l'agent est dans %s",
	askSeeTraceHow:         "pour voir chaque message échangé avec l'agent, relancez avec --trace FICHIER",
}

// askCatalogue holds the messages of `sidekicks ask` in every language.
var askCatalogue = i18n.NewCatalogue[askMsg](askTextsEN[:], askTextsFR[:])
