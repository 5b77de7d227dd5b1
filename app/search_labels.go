package app

import (
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// fmsg is a text of Search history and of Export, in English and French; a catalogue of
// its own so that the application's stays as it is.
type fmsg int

const (
	fmsgItemSearch fmsg = iota
	fmsgItemExport
	fmsgSearchTitle
	fmsgSearchField
	fmsgSearchHint
	fmsgSearching
	fmsgSearchNone
	fmsgSearchCount
	fmsgSearchMax
	fmsgSearchFailed
	fmsgYou
	fmsgEntryGone
	fmsgChannelGone
	fmsgHintOpen
	fmsgExportTitle
	fmsgExportNothing
	fmsgExporting
	fmsgExported
	fmsgExportFailed
	fmsgExportAgain
	fmsgExportHeader
	fmsgThought
	fmsgToolCall
	fmsgPlan
	fmsgNotice
	fmsgInterrupted
	fmsgLost
	fmsgInProgress
	fmsgTerminal
	fmsgNewFile
	fmsgKeysSearch
	fmsgKeySearchType
	fmsgKeySearchMove
	fmsgKeySearchOpen
	fmsgKeySearchEsc
	fmsgCount // not a message: the number of keys
)

var searchTextsEN = [fmsgCount]string{
	fmsgItemSearch:    "~S~earch history…",
	fmsgItemExport:    "E~x~port conversation…",
	fmsgSearchTitle:   "Search history",
	fmsgSearchField:   "Words:",
	fmsgSearchHint:    "Type words to find them in every conversation.",
	fmsgSearching:     "Searching…",
	fmsgSearchNone:    "Nothing found.",
	fmsgSearchCount:   "%d found, newest first.",
	fmsgSearchMax:     "The %d newest are listed: add a word to narrow the search.",
	fmsgSearchFailed:  "The history could not be searched (the log says why).",
	fmsgYou:           "You",
	fmsgEntryGone:     "This entry is no longer in the history.",
	fmsgChannelGone:   "This channel no longer exists.",
	fmsgHintOpen:      "Open",
	fmsgExportTitle:   "Export the conversation to Markdown",
	fmsgExportNothing: "Export: bring a channel or agent window to the front first.",
	fmsgExporting:     "Exporting to %s…",
	fmsgExported:      "%d entries exported to %s",
	fmsgExportFailed:  "%s could not be written: %s.",
	fmsgExportAgain:   "Choose another place?",
	fmsgExportHeader:  "Exported from Sidekicks on %s.",
	fmsgThought:       "thought",
	fmsgToolCall:      "tool call",
	fmsgPlan:          "plan",
	fmsgNotice:        "notice",
	fmsgInterrupted:   "(interrupted: Sidekicks stopped while this was written)",
	fmsgLost:          "(%d bytes were cut)",
	fmsgInProgress:    "(in progress)",
	fmsgTerminal:      "(output of terminal %s)",
	fmsgNewFile:       "(new file)",
	fmsgKeysSearch:    "In Search history",
	fmsgKeySearchType: "Search every conversation for the words typed",
	fmsgKeySearchMove: "Move in the hits",
	fmsgKeySearchOpen: "Open the hit's window at its entry",
	fmsgKeySearchEsc:  "Close",
}

var searchTextsFR = [fmsgCount]string{
	fmsgItemSearch:    "Rec~h~ercher dans l'historique…",
	fmsgItemExport:    "E~x~porter la conversation…",
	fmsgSearchTitle:   "Recherche dans l'historique",
	fmsgSearchField:   "Mots :",
	fmsgSearchHint:    "Tapez des mots pour les trouver dans toutes les conversations.",
	fmsgSearching:     "Recherche…",
	fmsgSearchNone:    "Rien trouvé.",
	fmsgSearchCount:   "%d trouvés, les plus récents d'abord.",
	fmsgSearchMax:     "Les %d plus récents sont listés : ajoutez un mot pour préciser.",
	fmsgSearchFailed:  "L'historique n'a pas pu être parcouru (le journal dit pourquoi).",
	fmsgYou:           "Vous",
	fmsgEntryGone:     "Cette entrée n'est plus dans l'historique.",
	fmsgChannelGone:   "Ce canal n'existe plus.",
	fmsgHintOpen:      "Ouvrir",
	fmsgExportTitle:   "Exporter la conversation en Markdown",
	fmsgExportNothing: "Exporter : mettez d'abord une fenêtre de canal ou d'agent au premier plan.",
	fmsgExporting:     "Export vers %s…",
	fmsgExported:      "%d entrées exportées dans %s",
	fmsgExportFailed:  "%s n'a pas pu être écrit : %s.",
	fmsgExportAgain:   "Choisir un autre endroit ?",
	fmsgExportHeader:  "Exporté de Sidekicks le %s.",
	fmsgThought:       "réflexion",
	fmsgToolCall:      "appel d'outil",
	fmsgPlan:          "plan",
	fmsgNotice:        "avis",
	fmsgInterrupted:   "(interrompu : Sidekicks s'est arrêté pendant l'écriture)",
	fmsgLost:          "(%d octets ont été coupés)",
	fmsgInProgress:    "(en cours)",
	fmsgTerminal:      "(sortie du terminal %s)",
	fmsgNewFile:       "(nouveau fichier)",
	fmsgKeysSearch:    "Dans la recherche dans l'historique",
	fmsgKeySearchType: "Chercher les mots tapés dans toutes les conversations",
	fmsgKeySearchMove: "Se déplacer dans les résultats",
	fmsgKeySearchOpen: "Ouvrir la fenêtre du résultat à son entrée",
	fmsgKeySearchEsc:  "Fermer",
}

// searchCatalogue holds the texts of Search history and Export in every language.
var searchCatalogue = i18n.NewCatalogue[fmsg](searchTextsEN[:], searchTextsFR[:])

// searchKeys is the group of Help ▸ Keys for Search history.
func searchKeys(lang i18n.Lang) window.KeyGroup {
	t := func(k fmsg) string { return searchCatalogue.Text(lang, k) }
	return window.KeyGroup{Title: t(fmsgKeysSearch), Rows: []window.KeyRow{
		{Keys: "abc", Effect: t(fmsgKeySearchType)},
		{Keys: "↑ ↓ PgUp PgDn", Effect: t(fmsgKeySearchMove)},
		{Keys: "Enter", Effect: t(fmsgKeySearchOpen)},
		{Keys: "Esc", Effect: t(fmsgKeySearchEsc)},
	}}
}
