package e2e

import (
	"strings"
	"testing"
)

// TestConfirmArrowsStopAtTheEnds: in a Yes/No question, → on No (the first focus) stays
// on No, so → then Enter keeps the channel; ← reaches Yes and stays there.
func TestConfirmArrowsStopAtTheEnds(t *testing.T) {
	env := append(isolate(t), "SIDEKICKS_DEMO_STATE="+t.TempDir())
	dir := t.TempDir()
	cfg := channelConfig(t, dir)
	const ask = `Delete the channel "général" and its history?`

	term := startTerminal(t, env, dir, 140, 40, binary, "--config", cfg)
	waitFocus(t, term, "#général")
	term.keys("M-c")
	term.waitFor("Delete channel…", appWait)
	term.typeText("d")
	term.waitFor(ask, appWait)
	term.keys("Right", "Enter")
	waitGone(t, term, ask)
	if s := term.screen(); strings.Contains(s, "Channel #général deleted") {
		t.Fatalf("→ then Enter on No deleted the channel:\n%s", s)
	}

	// The channel is still there: asked again, ← ← reaches Yes and stays on it.
	term.keys("M-c")
	term.waitFor("Delete channel…", appWait)
	term.typeText("d")
	s := term.waitFor(ask, appWait)
	if strings.Contains(s, "Channel #général deleted") {
		t.Fatalf("the channel was deleted by the first question:\n%s", s)
	}
	term.keys("Left", "Left", "Enter")
	term.waitFor("Channel #général deleted", appWait)
	// The file declares it: the application offers to remove it from the file too; No.
	term.waitFor("Declared in sidekicks.yaml", appWait)
	term.keys("Escape")
	term.waitFor("stays declared in sidekicks.yaml", appWait)
	quitApp(term, "after the deletion")
}
