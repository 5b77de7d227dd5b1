package chat

import "git.rickub.com/bots-garden/sidekicks/i18n"

// pmsgKey names a text of the history's own (persist.go), in English and French; a
// catalogue of its own so that the conversation's stays as it is.
type pmsgKey int

const (
	pmsgTurnInterrupted pmsgKey = iota
	pmsgNotSaved
	pmsgResumed
	pmsgResumedLost
	pmsgCount // not a message: the number of keys
)

var persistTextsEN = [pmsgCount]string{
	pmsgTurnInterrupted: "%s: turn interrupted: Sidekicks stopped before it ended",
	pmsgNotSaved:        "History not saved: %s. What is said from here on is kept in memory and written as soon as it can be; quitting now loses it.",
	pmsgResumed:         "History saving resumed: what was kept in memory is written.",
	pmsgResumedLost:     "History saving resumed, but %d entries could not be kept in memory meanwhile and are not in the history.",
}

var persistTextsFR = [pmsgCount]string{
	pmsgTurnInterrupted: "%s : tour interrompu : Sidekicks s'est arrêté avant sa fin",
	pmsgNotSaved:        "Historique non enregistré : %s. Ce qui est dit à partir d'ici est gardé en mémoire et écrit dès que possible ; quitter maintenant le perd.",
	pmsgResumed:         "Enregistrement de l'historique repris : ce qui était gardé en mémoire est écrit.",
	pmsgResumedLost:     "Enregistrement de l'historique repris, mais %d entrées n'ont pas pu être gardées en mémoire entre-temps et ne sont pas dans l'historique.",
}

// persistText holds the history's texts in every language.
var persistText = i18n.NewCatalogue[pmsgKey](persistTextsEN[:], persistTextsFR[:])
