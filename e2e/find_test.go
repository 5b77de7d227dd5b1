package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// Ctrl-F finds a word said long ago, in a page of history the window had not loaded, and
// brings it back on screen; a 3,000-line paste shows folded, and Find unfolds it to show a
// line it hides.
func TestFindInTerminal(t *testing.T) {
	env := historyEnv(t)
	dir := t.TempDir()
	cfg := channelConfig(t, dir)
	n := 2*chat.DefaultPageSize + 50
	fillChannel(t, cfg, "général", "Both demo agents", n) // the channel the configuration declares

	term := startTerminal(t, env, dir, 120, 40, binary, "--config", cfg)
	waitFocus(t, term, "#général")
	term.waitFor(fmt.Sprintf("fmt.Println(%d)", n-1), appWait)

	term.keys("C-f")
	term.waitFor("Enter older · Shift-F3 newer · Esc closes", appWait)
	term.typeText("Zanzibar") // a capital: case counts
	term.waitFor("no match in what is loaded", appWait)
	term.keys("BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace")
	term.typeText("zanzibar") // no capital: case ignored
	term.waitFor("no match in what is loaded — Enter searches older history", appWait)
	term.keys("Enter")
	s := term.waitFor("The old port of zanzibar is the answer.", appWait)
	if !strings.Contains(s, "match 1 of 1") {
		t.Fatalf("the count is not shown:\n%s", s)
	}
	term.keys("Escape")
	waitUntil(t, term, "the find field closed", func(s string) bool { return !strings.Contains(s, "match 1 of 1") })
	if s := term.screen(); !strings.Contains(s, "The old port of zanzibar is the answer.") {
		t.Fatalf("closing the find field lost the match:\n%s", s)
	}

	// A paste of 3,000 lines, sent: it shows its first lines and says how many more.
	var b strings.Builder
	for i := 1; i <= 3000; i++ {
		fmt.Fprintf(&b, "pasted line %d\n", i)
	}
	paste := filepath.Join(t.TempDir(), "paste.txt")
	if err := os.WriteFile(paste, []byte(strings.TrimSuffix(b.String(), "\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	term.keys("Tab") // back to the input
	term.tmux("load-buffer", paste)
	term.tmux("paste-buffer", "-p", "-t", "0")
	term.waitFor("pasted line 3000", appWait) // in the input
	term.keys("Enter")
	s = term.waitFor("… 2,990 more lines — Enter unfolds", appWait)
	if !strings.Contains(s, "pasted line 10 ") || strings.Contains(s, "pasted line 11 ") || strings.Contains(s, "pasted line 2500 ") {
		t.Fatalf("the paste does not show folded:\n%s", s)
	}
	waitUntil(t, term, "the agents' turns over", idle)

	term.keys("C-f")
	term.typeText("pasted line 2500")
	term.waitFor("match 1 of 1", appWait) // the search went on from "zanzibar", now the paste's line
	s = term.screen()
	if !strings.Contains(s, "pasted line 2500 ") {
		t.Fatalf("Find did not unfold the paste at the line:\n%s", s)
	}

	// Esc leaves the cursor on the match, in the paste: Enter folds it again, and unfolds it.
	term.keys("Escape")
	term.waitFor("Enter Fold", appWait)
	term.keys("Enter")
	s = term.waitFor("… 2,990 more lines — Enter unfolds", appWait)
	if strings.Contains(s, "pasted line 2500 ") {
		t.Fatalf("Enter did not fold the paste:\n%s", s)
	}
	term.waitFor("Enter Unfold", appWait)
	term.keys("Enter")
	waitUntil(t, term, "the paste unfolded at the cursor", func(s string) bool {
		return strings.Contains(s, "pasted line 2500 ") && !strings.Contains(s, "more lines — Enter unfolds")
	})

	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Fatalf("exit status %d, want 0; the screen shows:\n%s", code, term.screen())
	}
}
