package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A start with --config uses that file for that run only: the next plain `check` finds (and
// creates) the default file, and the preferences name no file.
func TestConfigFlagIsForOneRunOnly(t *testing.T) {
	env := isolate(t)
	dir := t.TempDir()
	given := filepath.Join(dir, "team.yaml")
	if err := os.WriteFile(given, []byte("version: 1\nagents: []\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	term := startTerminal(t, env, dir, 120, 40, binary, "--config", given)
	term.waitFor("No window open", appWait)
	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Fatalf("exit status %d; the screen shows:\n%s", code, term.screen())
	}
	r := runBinary(t, env, dir, appWait, "check")
	def := filepath.Join(envValue(env, "XDG_CONFIG_HOME"), "sidekicks", "config.yaml")
	if r.code != 0 || !strings.Contains(r.stderr, "created the default configuration") {
		t.Errorf("plain check after --config: exit %d, stdout %q, stderr %q; want the default file created", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(def); err != nil {
		t.Errorf("the default file %s: %v", def, err)
	}
	if prefs, err := os.ReadFile(filepath.Join(filepath.Dir(def), "preferences.json")); err == nil && strings.Contains(string(prefs), given) {
		t.Errorf("the preferences remember the --config file:\n%s", prefs)
	}
}

// The first start says on the screen that it created the default configuration, and where;
// Help ▸ About names the files.
func TestFirstStartIsAnnouncedOnScreen(t *testing.T) {
	env := isolate(t)
	dir := t.TempDir()
	term := startTerminal(t, env, dir, 120, 40, binary)
	screen := term.waitFor("Default configuration created", appWait)
	if !strings.Contains(screen, "Edit configuration") {
		t.Errorf("the notice does not say how to edit the file:\n%s", screen)
	}
	term.keys("Escape")
	term.waitFor("F10 Menu", appWait)
	term.keys("F10", "Left", "a")
	screen = term.waitFor("About Sidekicks", appWait)
	for _, want := range []string{"Version: ", "Configuration file: ", "History: ", "Logs folder: "} {
		if !strings.Contains(screen, want) {
			t.Errorf("About lacks %q:\n%s", want, screen)
		}
	}
	term.keys("Escape")
	term.waitFor("F10 Menu", appWait)
	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Fatalf("exit status %d; the screen shows:\n%s", code, term.screen())
	}
}

// An agent whose workspace is missing: check warns with the folder's path, and the first
// message's error names the workspace, not the program.
func TestMissingWorkspaceIsNamed(t *testing.T) {
	env := isolate(t)
	dir := t.TempDir()
	ws := filepath.Join(dir, "gone")
	cfg := filepath.Join(dir, "team.yaml")
	content := "version: 1\nagents:\n  - name: demo\n    command: " + binary + "\n    args: [demo-agent]\n    workspace: " + ws + "\n"
	if err := os.WriteFile(cfg, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runBinary(t, env, dir, appWait, "check", "--config", cfg)
	if r.code != 0 || !strings.Contains(r.stdout, "warning: line 6 — agents[0].workspace: agent \"demo\": its workspace "+ws+" does not exist") {
		t.Errorf("check: exit %d, stdout:\n%s", r.code, r.stdout)
	}
	term := startTerminal(t, env, dir, 160, 40, binary, "--config", cfg)
	term.waitFor("No window open", appWait)
	term.keys("M-a")
	term.waitFor("Agent status", appWait)
	term.keys("Enter")
	waitFocus(t, term, "demo")
	term.typeText("hello")
	term.keys("Enter")
	screen := term.waitFor("error: the agent's workspace "+ws+" does not exist", appWait)
	if strings.Contains(screen, "fork/exec") {
		t.Errorf("the error blames the program:\n%s", screen)
	}
	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Fatalf("exit status %d; the screen shows:\n%s", code, term.screen())
	}
}
