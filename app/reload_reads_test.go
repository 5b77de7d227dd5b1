package app

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// replaceWithPipe replaces the file at path with a named pipe nobody writes to, as a hung
// network file system would behave.
func replaceWithPipe(t *testing.T, path string) {
	t.Helper()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
}

// A configuration replaced by a named pipe while the application runs is refused at once
// and said, the running configuration kept; the next save is applied; quitting exits.
func TestAppReloadRefusesAConfigurationThatBecameAPipe(t *testing.T) {
	dir := appEnv(t)
	path := filepath.Join(dir, "sidekicks.yaml")
	writeFile(t, path, "version: 1\nagents:\n"+demoAgentYAML(t, "alice", "Alice", "A", ""))
	h := startApp(t, path, dir)

	replaceWithPipe(t, path)
	h.waitText("Configuration errors", "this is not a regular file (a named pipe, a device…); it is not read", "the running one is kept")

	// Menu ▸ Reload reads it again, and again refuses it without waiting.
	h.onUI(h.ap.reload)
	h.waitText("this is not a regular file")

	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, "version: 1\nagents:\n"+demoAgentYAML(t, "alice", "Alice", "A", "")+demoAgentYAML(t, "carol", "Carol", "C", ""))
	h.waitGone("Configuration errors")
	h.waitText("New agents: carol")

	if r := h.quit(); r.code != 0 {
		t.Errorf("exit status %d after quitting", r.code)
	}
}

// The project agents file replaced by a named pipe is refused as the configuration is,
// without holding up the application's work: a later save of the configuration applies,
// and quitting exits.
func TestAppReloadRefusesAProjectFileThatBecameAPipe(t *testing.T) {
	dir := appEnv(t)
	path := filepath.Join(dir, "sidekicks.yaml")
	writeFile(t, path, "version: 1\nagents:\n"+demoAgentYAML(t, "alice", "Alice", "A", ""))
	project := filepath.Join(dir, ".sidekicks", "acp.toml")
	writeFile(t, project, "")
	h := startApp(t, path, dir)

	replaceWithPipe(t, project)
	h.waitText("Configuration errors", "acp.toml: this is not a", "regular file (a named pipe, a device…); it is not read", ".sidekicks/acp.toml refused")

	writeFile(t, path, "version: 1\nagents:\n"+demoAgentYAML(t, "alice", "Alice", "A", "")+demoAgentYAML(t, "carol", "Carol", "C", ""))
	h.waitText("New agents: carol")
	h.alt('a')
	h.waitText("C Carol")
	h.press(tcell.KeyEscape)

	h.quit()
}

// The application started on a named pipe says so, runs without agents, and quits.
func TestAppStartsOnAConfigurationThatIsAPipe(t *testing.T) {
	dir := appEnv(t)
	path := filepath.Join(dir, "sidekicks.yaml")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	opened := make(chan *appHarness, 1)
	go func() { opened <- startApp(t, path, dir) }()
	var h *appHarness
	select {
	case h = <-opened:
	case <-time.After(appDeadline):
		t.Fatalf("the application did not open within %s on a named pipe", appDeadline)
	}
	h.waitText("Configuration errors", "this is not a regular file (a named pipe, a device…); it is not read")
	h.quit()
}

// A damaged preferences file is kept beside the new one, and the user is told where.
func TestAppKeepsDamagedPreferences(t *testing.T) {
	dir := appEnv(t)
	folder := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "sidekicks")
	prefs := filepath.Join(folder, "preferences.json")
	writeFile(t, prefs, "{garbage")
	path := filepath.Join(dir, "sidekicks.yaml")
	writeFile(t, path, "version: 1\nagents:\n"+demoAgentYAML(t, "alice", "Alice", "A", ""))
	h := startApp(t, path, dir)
	h.waitText("the preferences file could not be understood; it is kept as")

	matches, err := filepath.Glob(prefs + ".damaged-*")
	if err != nil || len(matches) != 1 {
		t.Fatalf("damaged copies %v, %v; want one", matches, err)
	}
	if got, _ := os.ReadFile(matches[0]); string(got) != "{garbage" {
		t.Errorf("the damaged copy holds %q", got)
	}
	if !strings.Contains(h.stderr.String(), "it is kept as "+matches[0]) {
		t.Errorf("stderr does not say where it was kept:\n%s", h.stderr.String())
	}
	if got, _ := os.ReadFile(prefs); !strings.Contains(string(got), path) {
		t.Errorf("the new preferences hold %q; want %s", got, path)
	}
}
