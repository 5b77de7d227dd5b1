package workbench

import (
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/runtime"
)

// filesText is a text of the Files window about Sidekicks' own files: each has an English
// and a French version in filesTextsEN and filesTextsFR.
type filesText int

const (
	fOwnLocked filesText = iota
	fOwnFile
	filesTextCount // not a text: the number of keys
)

var filesTextsEN = [filesTextCount]string{
	fOwnLocked: "“%s” is locked: it is one of Sidekicks' own files (%s), which neither the agents nor this window change.",
	fOwnFile:   "Sidekicks' own file: %s",
}

var filesTextsFR = [filesTextCount]string{
	fOwnLocked: "« %s » est verrouillé : c'est un des fichiers de Sidekicks (%s), que ni les agents ni cette fenêtre ne modifient.",
	fOwnFile:   "fichier de Sidekicks : %s",
}

// filesCatalogue holds the Files window's texts about Sidekicks' own files.
var filesCatalogue = i18n.NewCatalogue[filesText](filesTextsEN[:], filesTextsFR[:])

// ownLockedText says, in lang, that p is one of Sidekicks' own files and which.
func ownLockedText(lang i18n.Lang, p string, k runtime.OwnKind) string {
	return filesCatalogue.Text(lang, fOwnLocked, p, k.Reason(lang))
}
