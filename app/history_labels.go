package app

import "git.rickub.com/bots-garden/sidekicks/i18n"

// hmsg is a text of the offer made at start when the history is damaged, in English and
// French; a catalogue of its own so that the application's stays as it is.
type hmsg int

const (
	hmsgDamagedTitle hmsg = iota
	hmsgDamagedHeading
	hmsgDamagedDetail
	hmsgNewHistory
	hmsgQuit
	hmsgCount // not a message: the number of keys
)

var historyTextsEN = [hmsgCount]string{
	hmsgDamagedTitle:   "Damaged history",
	hmsgDamagedHeading: "The history is damaged: Sidekicks cannot open it.",
	hmsgDamagedDetail:  "%s (%s). A new history keeps the damaged file beside it, as %s, for sqlite3 FILE .recover to get back what it held.",
	hmsgNewHistory:     "Start with a new history",
	hmsgQuit:           "Quit without changing anything",
}

var historyTextsFR = [hmsgCount]string{
	hmsgDamagedTitle:   "Historique endommagé",
	hmsgDamagedHeading: "L'historique est endommagé : Sidekicks ne peut pas l'ouvrir.",
	hmsgDamagedDetail:  "%s (%s). Un historique neuf garde le fichier endommagé à côté, sous le nom %s, pour que sqlite3 FICHIER .recover récupère ce qu'il contenait.",
	hmsgNewHistory:     "Repartir d'un historique neuf",
	hmsgQuit:           "Quitter sans rien changer",
}

// historyCatalogue holds the texts of the damaged history's offer in every language.
var historyCatalogue = i18n.NewCatalogue[hmsg](historyTextsEN[:], historyTextsFR[:])
