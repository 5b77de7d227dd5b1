package chatwin

import (
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// emsg is a text of an empty agent window; a catalogue of its own, beside the window's.
type emsg int

const (
	emsgType emsg = iota
	emsgCommands
	emsgFiles
	emsgCount // not a message: the number of keys
)

var emptyTextsEN = [emsgCount]string{
	emsgType:     "Type a message; Enter sends it, Alt-Enter starts a new line.",
	emsgCommands: "/ at the start lists the agent's commands.",
	emsgFiles:    "@ mentions a file of its workspace: typing more of the name finds it.",
}

var emptyTextsFR = [emsgCount]string{
	emsgType:     "Tapez un message ; Entrée l'envoie, Alt-Entrée commence une nouvelle ligne.",
	emsgCommands: "/ au début liste les commandes de l'agent.",
	emsgFiles:    "@ mentionne un fichier de son espace de travail : tapez la suite du nom pour le trouver.",
}

// emptyCatalogue holds the texts of an empty agent window in every language.
var emptyCatalogue = i18n.NewCatalogue[emsg](emptyTextsEN[:], emptyTextsFR[:])

// drawAgentEmpty says, at the top of an agent window whose conversation has no entry yet,
// how to talk: what Enter does, that / lists the commands and @ mentions files (when the
// window can list them), wrapped at the window's width.
func (w *Widget) drawAgentEmpty(r window.Region) {
	if w.conv == nil || w.conv.Len() > 0 {
		return
	}
	lang := w.app.Language()
	lines := []string{emptyCatalogue.Text(lang, emsgType), emptyCatalogue.Text(lang, emsgCommands)}
	if w.agent.Files != nil {
		lines = append(lines, emptyCatalogue.Text(lang, emsgFiles))
	}
	W, H := r.Size()
	y := 0
	for _, l := range lines {
		for _, part := range window.Wrap(l, max(W-2, 1)) {
			if y >= H {
				return
			}
			r.Line(y, " "+part, window.ClassComment)
			y++
		}
	}
}
