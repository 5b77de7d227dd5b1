package app

import (
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// pmsg is a text of the configuration edited from the screen (Edit configuration, Create
// agents file), in English and French, as msg is for the rest of the application; a
// catalogue of its own so that the application's stays as it is.
type pmsg int

const (
	pmsgUnchanged pmsg = iota
	pmsgEditorFailed
	pmsgAgentsFileCreated
	pmsgAgentsFileExists
	pmsgAgentsFileFailed
	pmsgDenied
	pmsgCount // not a message: the number of keys
)

var panelTextsEN = [pmsgCount]string{
	pmsgUnchanged:         "%s unchanged",
	pmsgEditorFailed:      "The editor (%s) failed: %s",
	pmsgAgentsFileCreated: "Agents file created: %s",
	pmsgAgentsFileExists:  "%s already exists: it is read as it is",
	pmsgAgentsFileFailed:  "%s could not be written: %s",
	pmsgDenied:            "permission denied",
}

var panelTextsFR = [pmsgCount]string{
	pmsgUnchanged:         "%s inchangé",
	pmsgEditorFailed:      "L'éditeur (%s) a échoué : %s",
	pmsgAgentsFileCreated: "Fichier d'agents créé : %s",
	pmsgAgentsFileExists:  "%s existe déjà : il est lu tel quel",
	pmsgAgentsFileFailed:  "%s n'a pas pu être écrit : %s",
	pmsgDenied:            "permission refusée",
}

// panelCatalogue holds the texts of the configuration edited from the screen in every
// language.
var panelCatalogue = i18n.NewCatalogue[pmsg](panelTextsEN[:], panelTextsFR[:])
