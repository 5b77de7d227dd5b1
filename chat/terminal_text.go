package chat

import "git.rickub.com/bots-garden/sidekicks/i18n"

// tmsgKey names a text that says how a terminal's command ended, in English and French.
type tmsgKey int

const (
	tmsgExit tmsgKey = iota
	tmsgKilled
	tmsgSignal
	tmsgDropped
	tmsgCount // not a message: the number of keys
)

var terminalTextsEN = [tmsgCount]string{
	tmsgExit:    "exit %d",
	tmsgKilled:  "killed (%s)",
	tmsgSignal:  "ended by %s",
	tmsgDropped: "earlier output dropped",
}

var terminalTextsFR = [tmsgCount]string{
	tmsgExit:    "code de sortie %d",
	tmsgKilled:  "arrêté (%s)",
	tmsgSignal:  "terminé par %s",
	tmsgDropped: "début de la sortie perdu",
}

var terminalText = i18n.NewCatalogue[tmsgKey](terminalTextsEN[:], terminalTextsFR[:])

// Ending says how the command ended ("exit 3", "killed (SIGKILL)", "ended by SIGTERM"),
// "" while it runs, then, when older output was dropped, that it was.
func (t TerminalOutput) Ending(lang i18n.Lang) string {
	var s string
	switch {
	case !t.Exited:
	case t.Killed:
		sig := t.Signal
		if sig == "" {
			sig = "SIGKILL"
		}
		s = terminalText.Text(lang, tmsgKilled, sig)
	case t.Signal != "":
		s = terminalText.Text(lang, tmsgSignal, t.Signal)
	default:
		s = terminalText.Text(lang, tmsgExit, t.ExitCode)
	}
	if t.Truncated {
		if s != "" {
			s += ", "
		}
		s += terminalText.Text(lang, tmsgDropped)
	}
	return s
}
