package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// A terminal login hands the real terminal to the agent's program (the screen suspended):
// the user types into it, its zero exit signs in, and the screen comes back; the next
// message opens a session.
func TestTerminalSignIn(t *testing.T) {
	env := isolate(t)
	dir := t.TempDir()
	ws := t.TempDir()
	cfg := filepath.Join(dir, "sidekicks.yaml")
	if err := os.WriteFile(cfg, []byte("version: 1\nagents:\n"+testagents.ModeEntry(t, "gate", "signin", ws)), 0o600); err != nil {
		t.Fatal(err)
	}
	term := startTerminal(t, env, dir, 120, 36, binary, "--config", cfg)
	term.waitFor("Sidekicks   Channels   Agent   Window   Help", appWait)
	term.keys("M-a")
	term.waitFor("Agent status", appWait)
	term.keys("Enter") // the first agent: gate's window
	term.waitFor("Enter Send", appWait)
	term.typeText("hello")
	term.keys("Enter")
	term.waitFor(testagents.SignInMessage, appWait)
	term.waitFor("Sign in to gate", appWait) // offered at once
	term.typeText("Log in in a")
	term.keys("Enter")
	term.waitFor(testagents.SignInCodePrompt, appWait) // the agent's program has the terminal
	term.typeText(testagents.SignInCode)
	term.keys("Enter")
	term.waitFor(`Signed in to gate with "Log in in a terminal"`, appWait)
	if _, err := os.Stat(testagents.SignInMarkerIn(ws)); err != nil {
		t.Fatalf("the login did not run in the workspace: %v", err)
	}
	term.typeText("again")
	term.keys("Enter")
	term.waitFor("signed in by terminal", appWait)
	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Fatalf("exit status %d; the screen shows:\n%s", code, term.screen())
	}
}
