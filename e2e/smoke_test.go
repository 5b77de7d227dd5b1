package e2e

import (
	"strings"
	"testing"
	"time"
)

// TestTerminalHarness checks the tmux harness itself on a trivial program, so that a broken
// harness is not mistaken for a broken application.
func TestTerminalHarness(t *testing.T) {
	term := startTerminal(t, isolate(t), t.TempDir(), 80, 24, "sh", "-c", "printf 'ready\\n'; read line; echo \"got $line\"; exit 3")
	term.waitFor("ready", 10*time.Second)
	term.typeText("hello")
	term.keys("Enter")
	term.waitFor("got hello", 10*time.Second)
	if code := term.waitExit(10 * time.Second); code != 3 {
		t.Fatalf("exit status %d, want 3", code)
	}
}

func TestVersionAndUsage(t *testing.T) {
	env := isolate(t)
	r := runBinary(t, env, t.TempDir(), 20*time.Second, "version")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "sidekicks ") {
		t.Fatalf("version: code %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	r = runBinary(t, env, t.TempDir(), 20*time.Second, "no-such-command")
	if r.code != 2 || !strings.Contains(r.stderr, `unknown command "no-such-command"`) {
		t.Fatalf("unknown command: code %d, stderr %q", r.code, r.stderr)
	}
	r = runBinary(t, env, t.TempDir(), 20*time.Second, "version", "--bogus")
	if r.code != 2 {
		t.Fatalf("unknown flag: code %d, stderr %q", r.code, r.stderr)
	}
}
