package chat

import (
	"testing"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

func TestTerminalTextsComplete(t *testing.T) {
	for _, p := range terminalText.Problems(0) {
		t.Error(p)
	}
}

// TestTerminalEnding: how a command ended, in each language.
func TestTerminalEnding(t *testing.T) {
	cases := []struct {
		out    TerminalOutput
		en, fr string
	}{
		{TerminalOutput{}, "", ""},
		{TerminalOutput{Truncated: true}, "earlier output dropped", "début de la sortie perdu"},
		{TerminalOutput{Exited: true, ExitCode: 3}, "exit 3", "code de sortie 3"},
		{TerminalOutput{Exited: true, Killed: true, Signal: "SIGTERM"}, "killed (SIGTERM)", "arrêté (SIGTERM)"},
		{TerminalOutput{Exited: true, Killed: true}, "killed (SIGKILL)", "arrêté (SIGKILL)"},
		{TerminalOutput{Exited: true, Signal: "SIGSEGV", Truncated: true}, "ended by SIGSEGV, earlier output dropped", "terminé par SIGSEGV, début de la sortie perdu"},
	}
	for _, c := range cases {
		if got := c.out.Ending(i18n.English); got != c.en {
			t.Errorf("%+v: %q, want %q", c.out, got, c.en)
		}
		if got := c.out.Ending(i18n.French); got != c.fr {
			t.Errorf("%+v: %q, want %q", c.out, got, c.fr)
		}
	}
}
