package chat

import "git.rickub.com/bots-garden/sidekicks/i18n"

// msgKey names a text the conversation writes itself (notices, placeholders), in every
// language of the catalogue.
type msgKey int

const (
	msgTurnCancelled msgKey = iota
	msgTurnError
	msgTurnRestarted
	msgTurnStopped
	msgStopMaxTokens
	msgStopMaxTurnRequests
	msgStopRefusal
	msgStopOther
	msgSessionRestarted
	msgSessionForgotten
	msgTooManyEntries
	msgPermissionWaiting
	msgPermissionAnswered
	msgPermissionCancelled
	msgPermissionWaitingMany
	msgPermissionAnsweredMany
	msgPermissionNoAnswer
	msgImage
	msgAudio
	msgLink
	msgResource
	msgUnsupported
	msgCount // not a message: the number of keys
)

// messagesEN and messagesFR hold every message; a %s stands for a value given by the code
// (an agent's name, a title), already sanitized.
var messagesEN = [msgCount]string{
	msgTurnCancelled:       "%s: turn cancelled",
	msgTurnError:           "%s: error: %s",
	msgTurnRestarted:       "%s: turn interrupted: the agent was restarted",
	msgTurnStopped:         "%s: turn interrupted: the agent was stopped",
	msgStopMaxTokens:       "%s stopped: it reached its token limit",
	msgStopMaxTurnRequests: "%s stopped: it reached its limit of requests in one turn",
	msgStopRefusal:         "%s refused to continue",
	msgStopOther:           "%s ended its turn: %s",
	msgSessionRestarted:    "%s: a new session starts here (the previous one could not be resumed)",
	msgSessionForgotten:    "%s: a new session started; the agent does not remember earlier messages",
	msgTooManyEntries:      "%s: too many entries in this turn; the rest is not shown",
	msgPermissionWaiting:   "%s asks permission: %s (waiting for an answer)",
	msgPermissionAnswered:  "%s asked permission: %s — answer: %s",
	msgPermissionCancelled: "%s asked permission: %s — no answer (cancelled)",
	msgImage:               "[image]",
	msgAudio:               "[audio]",
	msgLink:                "[link: %s]",
	msgResource:            "[resource: %s]",
	msgUnsupported:         "[unsupported content]",

	// A flood of permission requests: one notice.
	msgPermissionWaitingMany:  "%s asks permission: %s, and %s more requests (waiting for an answer)",
	msgPermissionAnsweredMany: "%s asked permission %s times, first: %s — answers: %s",
	msgPermissionNoAnswer:     "no answer",
}

var messagesFR = [msgCount]string{
	msgTurnCancelled:       "%s : tour annulé",
	msgTurnError:           "%s : erreur : %s",
	msgTurnRestarted:       "%s : tour interrompu : l'agent a été redémarré",
	msgTurnStopped:         "%s : tour interrompu : l'agent a été arrêté",
	msgStopMaxTokens:       "%s s'est arrêté : limite de jetons atteinte",
	msgStopMaxTurnRequests: "%s s'est arrêté : limite de requêtes par tour atteinte",
	msgStopRefusal:         "%s a refusé de continuer",
	msgStopOther:           "%s a terminé son tour : %s",
	msgSessionRestarted:    "%s : une nouvelle session commence ici (la précédente n'a pas pu être reprise)",
	msgSessionForgotten:    "%s : une nouvelle session a commencé ; l'agent ne se souvient pas des messages précédents",
	msgTooManyEntries:      "%s : trop d'entrées dans ce tour ; la suite n'est pas affichée",
	msgPermissionWaiting:   "%s demande la permission : %s (en attente d'une réponse)",
	msgPermissionAnswered:  "%s a demandé la permission : %s — réponse : %s",
	msgPermissionCancelled: "%s a demandé la permission : %s — pas de réponse (annulée)",
	msgImage:               "[image]",
	msgAudio:               "[audio]",
	msgLink:                "[lien : %s]",
	msgResource:            "[ressource : %s]",
	msgUnsupported:         "[contenu non pris en charge]",

	// A flood of permission requests: one notice.
	msgPermissionWaitingMany:  "%s demande la permission : %s, et %s autres demandes (en attente d'une réponse)",
	msgPermissionAnsweredMany: "%s a demandé la permission %s fois, d'abord : %s — réponses : %s",
	msgPermissionNoAnswer:     "pas de réponse",
}

// catalogue holds the conversation's messages in every language.
var catalogue = i18n.NewCatalogue[msgKey](messagesEN[:], messagesFR[:])
