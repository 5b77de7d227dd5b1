package app

import (
	"fmt"
	"time"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/safetext"
	"git.rickub.com/bots-garden/sidekicks/store"
)

// lmsg is a text about the log folder, in English and French; a catalogue of its own so
// that the application's stays as it is.
type lmsg int

const (
	lmsgAgentLogFailed lmsg = iota
	lmsgAgentLogResumed
	lmsgAppLogFailed
	lmsgAppLogResumed
	lmsgCount // not a message: the number of keys
)

var logTextsEN = [lmsgCount]string{
	lmsgAgentLogFailed:  "The log of %s is not written to %s: %s — its last lines stay in memory (Agent ▸ Log)",
	lmsgAgentLogResumed: "The log of %s is written again",
	lmsgAppLogFailed:    "Sidekicks' log is not written to %s: %s",
	lmsgAppLogResumed:   "Sidekicks' log is written again",
}

var logTextsFR = [lmsgCount]string{
	lmsgAgentLogFailed:  "Le journal de %s n'est pas écrit dans %s : %s — ses dernières lignes restent en mémoire (Agent ▸ Journal)",
	lmsgAgentLogResumed: "Le journal de %s est de nouveau écrit",
	lmsgAppLogFailed:    "Le journal de Sidekicks n'est pas écrit dans %s : %s",
	lmsgAppLogResumed:   "Le journal de Sidekicks est de nouveau écrit",
}

var logCatalogue = i18n.NewCatalogue[lmsg](logTextsEN[:], logTextsFR[:])

// agentLogProblem is the agents' logs' Problem: the status bar says when an agent's log
// file cannot be written, and when it is again. It runs on the log's writer goroutine.
func (ap *application) agentLogProblem(agent, path string, err error) {
	ap.log.Printf("the log of %s (%s): %v", agent, path, err)
	name, shown := safetext.Line(agent), safetext.Line(path)
	ap.app.Post(func() {
		if err != nil {
			ap.app.Flash(logCatalogue.Text(ap.lang, lmsgAgentLogFailed, name, shown, store.FileProblem(ap.lang, err)))
		} else {
			ap.app.Flash(logCatalogue.Text(ap.lang, lmsgAgentLogResumed, name))
		}
	})
}

// appLogProblem is Sidekicks' own log's problem: the status bar says it, since the log
// cannot. It runs on the log's writing goroutine.
func (ap *application) appLogProblem(err error) {
	shown := safetext.Line(ap.log.Path())
	ap.app.Post(func() {
		if err != nil {
			ap.app.Flash(logCatalogue.Text(ap.lang, lmsgAppLogFailed, shown, store.FileProblem(ap.lang, err)))
		} else {
			ap.app.Flash(logCatalogue.Text(ap.lang, lmsgAppLogResumed))
		}
	})
}

// setProblem sets who is told when the file cannot be written, and when it is again.
func (l *appLog) setProblem(f func(error)) {
	if l == nil {
		return
	}
	l.mu.Lock()
	l.problem = f
	l.mu.Unlock()
}

// wrote records how writing a record went (writing goroutine): the first failure and
// writing again are told to problem, and the file then says how many records it misses.
func (l *appLog) wrote(err error) {
	switch {
	case err != nil:
		l.missing++
		if l.failed != nil {
			return
		}
		l.failed = err
		if l.f != nil { // opened again for the next record
			l.f.Close()
			l.f = nil
		}
	case l.failed != nil:
		note := fmt.Sprintf("%s (%d records missing before this one: the file could not be written: %v)\n",
			l.now().Format(time.RFC3339), l.missing, l.failed)
		l.failed, l.missing = nil, 0
		if l.tryLine(safetext.Text(note)) != nil {
			return
		}
	default:
		return
	}
	l.mu.Lock()
	problem := l.problem
	l.mu.Unlock()
	if problem != nil {
		problem(l.failed)
	}
}
