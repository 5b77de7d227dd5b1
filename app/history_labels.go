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
	hmsgNewHistoryMark
	hmsgQuit
	hmsgQuitMark
	hmsgCount // not a message: the number of keys
)

var historyTextsEN = [hmsgCount]string{
	hmsgDamagedTitle:   "Damaged history",
	hmsgDamagedHeading: "The history of this configuration is damaged: Sidekicks cannot open it.",
	hmsgDamagedDetail:  "%s: %s. %s",
	hmsgNewHistory:     "Start with a new history",
	hmsgNewHistoryMark: "the damaged file is kept as %s",
	hmsgQuit:           "Quit",
	hmsgQuitMark:       "nothing is changed",
}

var historyTextsFR = [hmsgCount]string{
	hmsgDamagedTitle:   "Historique endommagé",
	hmsgDamagedHeading: "L'historique de cette configuration est endommagé : Sidekicks ne peut pas l'ouvrir.",
	hmsgDamagedDetail:  "%s : %s. %s",
	hmsgNewHistory:     "Repartir d'un historique neuf",
	hmsgNewHistoryMark: "le fichier endommagé est gardé sous le nom %s",
	hmsgQuit:           "Quitter",
	hmsgQuitMark:       "rien n'est modifié",
}

// historyCatalogue holds the texts of the damaged history's offer in every language.
var historyCatalogue = i18n.NewCatalogue[hmsg](historyTextsEN[:], historyTextsFR[:])
