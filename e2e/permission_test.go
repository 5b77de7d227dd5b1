package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// askerConfig writes a configuration with the demo agent alice and the asker bob (a test
// agent that asks permission to run a command; its options are named "allow it once",
// "quick, always allow", "no" and "every time, reject"), and returns its path.
func askerConfig(t *testing.T, dir string) string {
	t.Helper()
	cfg := fmt.Sprintf("version: 1\nagents:\n  - name: alice\n    title: Alice\n    icon: A\n    command: %q\n"+
		"    args: [demo-agent, --name, Alice, --delay, \"0\"]\n", binary) +
		testagents.ModeEntry(t, "bob", "requester", t.TempDir())
	path := filepath.Join(dir, "sidekicks.yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// openFromAgentMenu opens the agent window of the Agent menu's entry at index i (0 for the
// first) and waits until it is in front.
func openFromAgentMenu(t *testing.T, term *terminal, i int, title string) {
	t.Helper()
	term.keys("M-a")
	term.waitFor("Agent status", appWait)
	for ; i > 0; i-- {
		term.keys("Down")
	}
	term.keys("Enter")
	waitFocus(t, term, title)
}

// Window 2's agent asks permission while the user types "a quick note" in window 1: the
// text lands in window 1, the request waits in window 2 (marked, and said on the status
// bar), and it is answered from window 2, with Sidekicks' own key. Then a flood of 10,000
// requests shows as one, and X rejects them all.
func TestPermissionWaitsForItsWindowInTerminal(t *testing.T) {
	env := append(isolate(t), "SIDEKICKS_DEMO_STATE="+t.TempDir())
	dir := t.TempDir()
	term := startTerminal(t, env, dir, 140, 45, binary, "--config", askerConfig(t, dir))
	term.waitFor("No window open", appWait)

	// Window 1: alice; window 2: bob, who asks a second after his prompt.
	openFromAgentMenu(t, term, 0, "A Alice")
	openFromAgentMenu(t, term, 1, "bob")
	term.typeText("ask later")
	term.keys("Enter")
	term.keys("M-1")
	waitFocus(t, term, "A Alice")

	// The request comes while window 1 is in front: said on the status bar, window 2
	// marked.
	term.waitFor("bob asks permission — Alt-2", appWait)
	term.waitFor("2!", appWait)

	// What is typed lands in window 1; the request still waits.
	term.typeText("a quick note")
	waitRow(t, term, "a quick note")
	s := term.screen()
	if strings.Contains(s, "answers:") || !strings.Contains(s, "! bob asks permission") {
		t.Fatalf("typing in window 1 answered window 2's request:\n%s", s)
	}

	// Answered from window 2, once its keys answer.
	term.keys("M-2")
	waitFocus(t, term, "bob")
	term.waitFor("$ "+testagents.RequesterCommand, appWait)
	term.waitFor("1…4: answer", appWait)
	term.keys("1")
	term.waitFor("answers: once", appWait)
	waitGone(t, term, "2!")

	// A flood of 10,000 requests is one request with its count; X rejects them all.
	term.typeText("flood 10000")
	term.keys("Enter")
	term.waitFor("more waiting", appWait)
	term.waitFor("X: reject all", appWait)
	if n := strings.Count(term.screen(), "! bob asks permission"); n != 1 {
		t.Fatalf("the flood shows %d requests:\n%s", n, term.screen())
	}
	term.keys("X")
	term.waitFor("answers: reject×10000", appWait)
	waitGone(t, term, "2!")

	// Window 1 kept the note.
	term.keys("M-1")
	waitFocus(t, term, "A Alice")
	waitRow(t, term, "a quick note")
	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Fatalf("exit status %d, want 0; the screen shows:\n%s", code, term.screen())
	}
}
