package app

import (
	"errors"
	"fmt"

	"git.rickub.com/bots-garden/sidekicks/agentstack"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/safetext"
	"git.rickub.com/bots-garden/sidekicks/store"
)

// ExitUnsaved is the exit status when Sidekicks quit with history entries it could not
// write (the disk was full, the file could not be changed…): they are lost, and the
// terminal says how many once the screen is restored. A status that says the application
// failed (1) comes first; it comes before the status of a quitting signal.
const ExitUnsaved = 3

// smsg is a text about saving the history, in English and French; a catalogue of its own
// so that the application's stays as it is.
type smsg int

const (
	smsgNotSaved smsg = iota
	smsgResumed
	smsgResumedLost
	smsgUnsavedAtQuit
	smsgCount // not a message: the number of keys
)

var saveTextsEN = [smsgCount]string{
	smsgNotSaved:      "History not saved: %s — %d entries kept in memory, trying again",
	smsgResumed:       "History saving resumed",
	smsgResumedLost:   "History saving resumed; %d entries could not be kept in memory and are not saved",
	smsgUnsavedAtQuit: "sidekicks: %d history entries were not saved (%s) and are lost; the history is %s",
}

var saveTextsFR = [smsgCount]string{
	smsgNotSaved:      "Historique non enregistré : %s — %d entrées gardées en mémoire, nouvel essai en cours",
	smsgResumed:       "Enregistrement de l'historique repris",
	smsgResumedLost:   "Enregistrement de l'historique repris ; %d entrées n'ont pas pu être gardées en mémoire et ne sont pas enregistrées",
	smsgUnsavedAtQuit: "sidekicks : %d entrées de l'historique n'ont pas été enregistrées (%s) et sont perdues ; l'historique est %s",
}

var saveCatalogue = i18n.NewCatalogue[smsg](saveTextsEN[:], saveTextsFR[:])

// historyStatus is the stack's HistoryStatus: the status bar says when saving stops and
// when it resumes (each conversation concerned says it too, in its window). It runs on
// the history writer's goroutine: the screen's part is posted.
func (ap *application) historyStatus(hs agentstack.HistoryStatus) {
	switch {
	case hs.Failing:
		ap.log.Printf("the history cannot be written (%d entries waiting, %d not kept): %v", hs.Pending, hs.Lost, hs.Err)
	default:
		ap.log.Printf("the history is written again (%d entries not kept)", hs.Lost)
	}
	ap.app.Post(func() { ap.app.Flash(saveStatusText(ap.lang, hs)) })
}

// saveStatusText is what the status bar says of hs.
func saveStatusText(lang i18n.Lang, hs agentstack.HistoryStatus) string {
	switch {
	case hs.Failing:
		return saveCatalogue.Text(lang, smsgNotSaved, hs.Reason, hs.Pending)
	case hs.Lost > 0:
		return saveCatalogue.Text(lang, smsgResumedLost, hs.Lost)
	default:
		return saveCatalogue.Text(lang, smsgResumed)
	}
}

// noteUnsaved keeps what the agents' shutdown could not write to the history, for run to
// say once the screen is restored.
func (ap *application) noteUnsaved(err error) {
	var u *store.UnsavedError
	if errors.As(err, &u) {
		ap.unsaved.Store(u)
	}
}

// reportUnsaved says on the terminal how many entries were lost, and returns the exit
// status (code unless it was 0).
func (ap *application) reportUnsaved(code int) int {
	u := ap.unsaved.Load()
	if u == nil {
		return code
	}
	text := saveCatalogue.Text(ap.lang, smsgUnsavedAtQuit, u.Entries, ap.st.Problem(ap.lang, u.Err), safetext.Line(ap.st.Path()))
	fmt.Fprintln(ap.o.stderr, text)
	ap.log.Printf("%s", text)
	if code == 0 {
		code = ExitUnsaved
	}
	return code
}
