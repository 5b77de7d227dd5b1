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
	mDamaged
	mDamagedHelp
	mProblemFull
	mProblemQuota
	mProblemReadOnlyFS
	mProblemImmutable
	mProblemDenied
	mProblemReadOnly
	mProblemIO
	mProblemClosed
	messageCount // not a message: the number of keys
)

var messagesEN = [messageCount]string{
	mLockedBy:          "the history %s is in use by another Sidekicks (process %d)",
	mLocked:            "the history %s is in use by another Sidekicks",
	mNewerSchema:       "the history %s was written by a newer Sidekicks (schema version %d, this one knows up to version %d): update Sidekicks; the file was not changed",
	mDamaged:           "the history %s is damaged (%s): Sidekicks cannot open it; the file was not changed.",
	mDamagedHelp:       "To start with a new history and keep the damaged one, start Sidekicks again and accept its offer, or, Sidekicks not running, move the file aside (with its -wal and -shm files if they are there).\nTo get back what it held: sqlite3 MOVED-FILE .recover | sqlite3 recovered.db, then, Sidekicks not running, put recovered.db in place of the history.",
	mProblemFull:       "disk is full",
	mProblemQuota:      "disk quota exceeded",
	mProblemReadOnlyFS: "the file system is read-only",
	mProblemImmutable:  "the file cannot be changed (immutable or append-only)",
	mProblemDenied:     "permission denied",
	mProblemReadOnly:   "the database is read-only",
	mProblemIO:         "input/output error",
	mProblemClosed:     "the history is closed",
}

var messagesFR = [messageCount]string{
	mLockedBy:          "l'historique %s est utilisé par un autre Sidekicks (processus %d)",
	mLocked:            "l'historique %s est utilisé par un autre Sidekicks",
	mNewerSchema:       "l'historique %s vient d'un Sidekicks plus récent (schéma version %d, celui-ci connaît jusqu'à la version %d) : mettez Sidekicks à jour ; le fichier n'a pas été modifié",
	mDamaged:           "l'historique %s est endommagé (%s) : Sidekicks ne peut pas l'ouvrir ; le fichier n'a pas été modifié.",
	mDamagedHelp:       "Pour repartir d'un historique neuf en gardant l'endommagé, relancez Sidekicks et acceptez sa proposition, ou, Sidekicks arrêté, mettez le fichier de côté (avec ses fichiers -wal et -shm s'ils existent).\nPour récupérer ce qu'il contenait : sqlite3 FICHIER-DÉPLACÉ .recover | sqlite3 recupere.db, puis, Sidekicks arrêté, mettez recupere.db à la place de l'historique.",
	mProblemFull:       "le disque est plein",
	mProblemQuota:      "quota disque dépassé",
	mProblemReadOnlyFS: "le système de fichiers est en lecture seule",
	mProblemImmutable:  "le fichier ne peut pas être modifié (immuable ou ajout seul)",
	mProblemDenied:     "permission refusée",
	mProblemReadOnly:   "la base est en lecture seule",
	mProblemIO:         "erreur d'entrée-sortie",
	mProblemClosed:     "l'historique est fermé",
}

// catalogue holds the messages in every language.
var catalogue = i18n.NewCatalogue[message](messagesEN[:], messagesFR[:])
