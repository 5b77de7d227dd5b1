package app

import (
	"os"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// tmsg is a text about the ACP trace (SIDEKICKS_ACP_TRACE), in English and French, as msg
// is for the rest; a catalogue of its own so that the application's stays as it is.
type tmsg int

const (
	tmsgCannotWrite tmsg = iota
	tmsgStopped
	tmsgDropped
	tmsgCount // not a message: the number of keys
)

var traceTextsEN = [tmsgCount]string{
	tmsgCannotWrite: "No ACP trace: cannot write %s (%s)",
	tmsgStopped:     "The ACP trace stopped: cannot write %s (%s)",
	tmsgDropped:     "The ACP trace dropped %d lines: %s could not keep up",
}

var traceTextsFR = [tmsgCount]string{
	tmsgCannotWrite: "Pas de trace ACP : impossible d'écrire %s (%s)",
	tmsgStopped:     "La trace ACP s'est arrêtée : impossible d'écrire %s (%s)",
	tmsgDropped:     "La trace ACP a perdu %d lignes : %s n'a pas pu suivre",
}

var traceCatalogue = i18n.NewCatalogue[tmsg](traceTextsEN[:], traceTextsFR[:])

// traceState is the application's ACP trace: the file every connection of every agent
// window and channel appends to, and what the status bar says about it at start.
type traceState struct {
	trace *acp.Trace
	// problem is what start shows on the status bar ("" when nothing is wrong).
	problem string
}

// openTrace opens the trace file SIDEKICKS_ACP_TRACE names, if any. Its lines are queued
// and written by a goroutine of their own, so that tracing never slows the screen or the
// agents; when the file cannot keep up, lines are dropped and counted (the trace file and
// the log say how many). A path that cannot be written is said in the log and, once the
// screen runs, on the status bar: the application runs as without a trace. A write error
// later stops the trace, and is said the same way.
func (ap *application) openTrace() *acp.Trace {
	path := os.Getenv(acp.TraceEnv)
	if path == "" {
		return nil
	}
	// The callbacks run on the trace's goroutine: they read no state of the screen's.
	shown, lang := safetext.Line(path), ap.lang
	tr, err := acp.OpenTraceWith(path, acp.TraceOptions{
		Dropped: func(n int64) {
			ap.log.Printf("%s", traceCatalogue.Text(lang, tmsgDropped, n, shown))
		},
		Failed: func(err error) {
			text := traceCatalogue.Text(lang, tmsgStopped, shown, fileProblem(lang, err))
			ap.log.Printf("%s", text)
			ap.app.Post(func() { ap.app.Flash(text) })
		},
		Go: ap.app.GoNamed,
	})
	if err != nil {
		ap.trace.problem = traceCatalogue.Text(ap.lang, tmsgCannotWrite, shown, fileProblem(ap.lang, err))
		ap.log.Printf("%s", ap.trace.problem)
		return nil
	}
	ap.trace.trace = tr
	return tr
}

// withTraceProblem returns the status message start shows: why there is no trace, before
// the message start would show without it ("" for none).
func (ap *application) withTraceProblem(notice string) string {
	switch {
	case ap.trace.problem == "":
		return notice
	case notice == "":
		return ap.trace.problem
	default:
		return ap.trace.problem + " · " + notice
	}
}

// closeTrace writes the trace's last lines and closes it, once every agent has stopped.
func (ap *application) closeTrace() {
	if err := ap.trace.trace.Close(); err != nil {
		ap.log.Printf("closing the ACP trace: %v", err)
	}
}
