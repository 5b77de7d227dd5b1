package e2e

import (
	"strings"
	"testing"
)

// An agent window that opens says how to talk, and opens the agent's session with it: / lists
// the agent's commands before the first message.
func TestEmptyAgentWindowInTerminal(t *testing.T) {
	env := append(isolate(t), "SIDEKICKS_DEMO_STATE="+t.TempDir())
	dir := t.TempDir()
	cfg, _ := agentWinConfig(t, dir)

	term := startTerminal(t, env, dir, 120, 30, binary, "--config", cfg)
	term.waitFor("No window open", appWait)
	term.keys("M-a")
	term.waitFor("Agent status", appWait)
	term.keys("Enter")
	waitFocus(t, term, "A Alice")
	s := term.waitFor("Type a message; Enter sends it, Alt-Enter starts a new line.", appWait)
	for _, want := range []string{"/ at the start lists the agent's commands.", "@ mentions a file of its workspace"} {
		if !strings.Contains(s, want) {
			t.Errorf("the empty window does not say %q:\n%s", want, s)
		}
	}

	// No message sent: the session opened with the window announced the commands.
	term.typeText("/")
	s = term.waitFor("Show every block of this prompt, verbatim", appWait)
	if !strings.Contains(s, "/help") || !strings.Contains(s, "List my commands") {
		t.Fatalf("/ does not list the agent's commands:\n%s", s)
	}
	if strings.Contains(s, "You") {
		t.Errorf("a message was sent:\n%s", s)
	}
	term.keys("Escape")
	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Fatalf("exit status %d, want 0; the screen shows:\n%s", code, term.screen())
	}
}
