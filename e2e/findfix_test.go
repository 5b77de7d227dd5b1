package e2e

import (
	"strings"
	"testing"
	"time"
)

// Find after a restart, in a window read back from the history that holds 400,000 lines:
// Enter at once, while the field still says searching…, shows the match, on screen.
func TestFindAfterRestartShowsTheMatch(t *testing.T) {
	env := append(isolate(t), "SIDEKICKS_DEMO_STATE="+t.TempDir())
	dir := t.TempDir()
	cfg, _ := agentWinConfig(t, dir)
	term := startTerminal(t, env, dir, 120, 36, binary, "--config", cfg)
	term.waitFor("No window open", appWait)
	term.keys("M-a")
	term.waitFor("Agent status", appWait)
	term.keys("Enter")
	waitFocus(t, term, "A Alice")
	term.typeText("/floodlines 400000")
	term.keys("Enter")
	term.waitFor("flood line 0400000", 2*time.Minute)
	waitUntil(t, term, "the turn over", turnOver)
	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Fatalf("exit status %d", code)
	}

	// Started again, the window opens again on its history.
	term = startTerminal(t, env, dir, 120, 36, binary, "--config", cfg)
	term.waitFor("flood line 0400000", appWait)
	term.keys("C-f")
	term.typeText("line 0000005")
	term.keys("Enter")
	term.waitFor("match 1 of 1", appWait)
	waitUntil(t, term, "the match on screen", func(s string) bool { return strings.Contains(s, "flood line 0000005") })
}
