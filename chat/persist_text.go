package chat

import "git.rickub.com/bots-garden/sidekicks/i18n"

// pmsgKey names a text of the history's own (persist.go), in English and French; a
// catalogue of its own so that the conversation's stays as it is.
type pmsgKey int

const (
	pmsgTurnInterrupted pmsgKey = iota
	pmsgCount                   // not a message: the number of keys
)

var persistTextsEN = [pmsgCount]string{
	pmsgTurnInterrupted: "%s: turn interrupted: Sidekicks stopped before it ended",
}

var persistTextsFR = [pmsgCount]string{
	pmsgTurnInterrupted: "%s : tour interrompu : Sidekicks s'est arrêté avant sa fin",
}

// persistText holds the history's texts in every language.
var persistText = i18n.NewCatalogue[pmsgKey](persistTextsEN[:], persistTextsFR[:])
