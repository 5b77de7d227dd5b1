package store

import "git.rickub.com/bots-garden/sidekicks/i18n"

// message is a text of the history's errors that the user reads: each has an English and
// a French version in messagesEN and messagesFR.
type message int

// The messages.
const (
	mLockedBy message = iota
	mLocked
	mNewerSchema
	messageCount // not a message: the number of keys
)

var messagesEN = [messageCount]string{
	mLockedBy:    "the history %s is in use by another Sidekicks (process %d)",
	mLocked:      "the history %s is in use by another Sidekicks",
	mNewerSchema: "the history %s was written by a newer Sidekicks (schema version %d, this one knows up to version %d): update Sidekicks; the file was not changed",
}

var messagesFR = [messageCount]string{
	mLockedBy:    "l'historique %s est utilisé par un autre Sidekicks (processus %d)",
	mLocked:      "l'historique %s est utilisé par un autre Sidekicks",
	mNewerSchema: "l'historique %s vient d'un Sidekicks plus récent (schéma version %d, celui-ci connaît jusqu'à la version %d) : mettez Sidekicks à jour ; le fichier n'a pas été modifié",
}

// catalogue holds the messages in every language.
var catalogue = i18n.NewCatalogue[message](messagesEN[:], messagesFR[:])
