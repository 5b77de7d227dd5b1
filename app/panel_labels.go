package app

import (
	"fmt"

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

var panelTexts = map[i18n.Lang]*[pmsgCount]string{
	i18n.English: {
		pmsgUnchanged:         "%s unchanged",
		pmsgEditorFailed:      "The editor (%s) failed: %s",
		pmsgAgentsFileCreated: "Agents file created: %s",
		pmsgAgentsFileExists:  "%s already exists: it is read as it is",
		pmsgAgentsFileFailed:  "%s could not be written: %s",
		pmsgDenied:            "permission denied",
	},
	i18n.French: {
		pmsgUnchanged:         "%s inchangé",
		pmsgEditorFailed:      "L'éditeur (%s) a échoué : %s",
		pmsgAgentsFileCreated: "Fichier d'agents créé : %s",
		pmsgAgentsFileExists:  "%s existe déjà : il est lu tel quel",
		pmsgAgentsFileFailed:  "%s n'a pas pu être écrit : %s",
		pmsgDenied:            "permission refusée",
	},
}

// pt returns a text of the configuration edited from the screen in the application's
// language, formatted with args.
func (x texts) pt(m pmsg, args ...any) string {
	msgs, ok := panelTexts[x.lang]
	if !ok {
		msgs = panelTexts[i18n.English]
	}
	if len(args) == 0 {
		return msgs[m]
	}
	return fmt.Sprintf(msgs[m], args...)
}
