package e2e

import (
	"path/filepath"
	goruntime "runtime"
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
	for _, args := range [][]string{{"version"}, {"--version"}, {"-v"}} {
		r := runBinary(t, env, t.TempDir(), 20*time.Second, args...)
		if r.code != 0 || !strings.HasPrefix(r.stdout, "sidekicks ") || r.stderr != "" {
			t.Fatalf("%q: code %d, stdout %q, stderr %q", args, r.code, r.stdout, r.stderr)
		}
		// The binary is built by the same toolchain as this test.
		for _, w := range []string{"\ncommit: ", "\ndate:   ", "\ngo:     " + goruntime.Version() + "\n"} {
			if !strings.Contains(r.stdout, w) {
				t.Errorf("%q: %q missing from %q", args, w, r.stdout)
			}
		}
	}
	home := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok {
			home = v
		}
	}
	for _, args := range [][]string{{"help"}, {"--help"}, {"-h"}} {
		r := runBinary(t, env, t.TempDir(), 20*time.Second, args...)
		if r.code != 0 || r.stderr != "" {
			t.Fatalf("%q: code %d, stderr %q", args, r.code, r.stderr)
		}
		for _, w := range []string{
			"usage: sidekicks", "\n  check ", "\n  version ", "\n  help ",
			"\n  SIDEKICKS_CONFIG ", "\n  SIDEKICKS_DATA_DIR ", "\n  SIDEKICKS_STATE_DIR ", "\n  SIDEKICKS_ACP_TRACE ",
			"\n  configuration        " + filepath.Join(home, "config", "sidekicks", "config.yaml") + "\n",
			"\n  history              " + filepath.Join(home, "data", "sidekicks", "history") + "\n",
			"\n  logs                 " + filepath.Join(home, "state", "sidekicks", "logs") + "\n",
		} {
			if !strings.Contains(r.stdout, w) {
				t.Errorf("%q: %q missing from\n%s", args, w, r.stdout)
			}
		}
	}
	r := runBinary(t, env, t.TempDir(), 20*time.Second, "no-such-command")
	if r.code != 2 || !strings.Contains(r.stderr, `unknown command "no-such-command"`) {
		t.Fatalf("unknown command: code %d, stderr %q", r.code, r.stderr)
	}
	for _, args := range [][]string{{"version", "--bogus"}, {"--bogus"}} {
		r = runBinary(t, env, t.TempDir(), 20*time.Second, args...)
		if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, "usage:") {
			t.Fatalf("%q: code %d, stdout %q, stderr %q", args, r.code, r.stdout, r.stderr)
		}
	}
}
