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
	mRecover
	messageCount // not a message: the number of keys
)

var messagesEN = [messageCount]string{
	mLockedBy:    "the history %s is in use by another Sidekicks (process %d)",
	mLocked:      "the history %s is in use by another Sidekicks",
	mNewerSchema: "the history %s was written by a newer Sidekicks (schema version %d, this one knows up to version %d): update Sidekicks; the file was not changed",
	mDamaged:     "the history %s is damaged (%s): Sidekicks cannot open it; the file was not changed.",
	mDamagedHelp: "To start with a new history and keep the damaged file, start Sidekicks again and accept its offer, or move the file aside yourself (%[1]s, and %[1]s-wal and %[1]s-shm if they are there) while Sidekicks is not running. To get back what it holds: sqlite3 MOVED-FILE .recover | sqlite3 recovered.db, then, Sidekicks not running, put recovered.db in place of %[1]s.",
	mRecover:     "To get back what it holds, later: sqlite3 %s .recover | sqlite3 recovered.db, then, Sidekicks not running, put recovered.db in place of %s.",
}

var messagesFR = [messageCount]string{
	mLockedBy:    "l'historique %s est utilisé par un autre Sidekicks (processus %d)",
	mLocked:      "l'historique %s est utilisé par un autre Sidekicks",
	mNewerSchema: "l'historique %s vient d'un Sidekicks plus récent (schéma version %d, celui-ci connaît jusqu'à la version %d) : mettez Sidekicks à jour ; le fichier n'a pas été modifié",
	mDamaged:     "l'historique %s est endommagé (%s) : Sidekicks ne peut pas l'ouvrir ; le fichier n'a pas été modifié.",
	mDamagedHelp: "Pour repartir d'un historique neuf en gardant le fichier endommagé, relancez Sidekicks et acceptez sa proposition, ou mettez vous-même le fichier de côté (%[1]s, et %[1]s-wal et %[1]s-shm s'ils existent) pendant que Sidekicks ne tourne pas. Pour récupérer ce qu'il contient : sqlite3 FICHIER-DÉPLACÉ .recover | sqlite3 recupere.db, puis, Sidekicks arrêté, mettez recupere.db à la place de %[1]s.",
	mRecover:     "Pour récupérer plus tard ce qu'il contient : sqlite3 %s .recover | sqlite3 recupere.db, puis, Sidekicks arrêté, mettez recupere.db à la place de %s.",
}

// catalogue holds the messages in every language.
var catalogue = i18n.NewCatalogue[message](messagesEN[:], messagesFR[:])
