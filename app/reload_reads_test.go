package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
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

// waitUnwrapped waits until the screen shows every text, read as one line: window frames
// dropped and lines joined, so that a text wrapped at any width is found.
func (h *appHarness) waitUnwrapped(texts ...string) {
	h.t.Helper()
	h.waitScreen(fmt.Sprintf("%q", texts), func(s string) bool {
		var words []string
		for line := range strings.Lines(s) {
			words = append(words, strings.Fields(strings.Trim(line, "║│ \n"))...)
		}
		joined := strings.Join(words, " ")
		for _, t := range texts {
			if !strings.Contains(joined, t) {
				return false
			}
		}
		return true
	})
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
	h.waitUnwrapped("Configuration errors", "acp.toml: this is not a regular file (a named pipe, a device…); it is not read", ".sidekicks/acp.toml refused")

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
	// New preferences in its place; the file --config gave is not recorded in them.
	if got, err := config.LoadPreferences(); err != nil || got.LastOpened != "" {
		t.Errorf("the new preferences: %+v, %v; want readable and empty", got, err)
	}
}

// A reload whose read hangs (a network file system that stopped answering) holds up
// neither the screen, nor the saves that come meanwhile (the last is applied once the read
// is given up), nor quitting.
func TestAppReloadThatHangsHoldsNothingUp(t *testing.T) {
	dir := appEnv(t)
	path := filepath.Join(dir, "sidekicks.yaml")
	alice := demoAgentYAML(t, "alice", "Alice", "A", "")
	writeFile(t, path, "version: 1\nagents:\n"+alice)
	var hang atomic.Bool
	entered := make(chan struct{}, 1)
	release := make(chan struct{})
	h := startApp(t, path, dir, func(_ *appHarness, o *appOptions) {
		o.reread = func(ctx context.Context, path, dir string) loaded {
			if !hang.CompareAndSwap(true, false) {
				return loadConfiguration(ctx, path, dir)
			}
			entered <- struct{}{}
			select {
			case <-release:
			case <-ctx.Done():
			}
			// Given up, as config gives up a read after config.ReadTimeout.
			d := config.Diagnostic{File: path, Message: "the file did not answer within 10 s"}
			return loaded{diags: config.Diagnostics{d}, problems: []string{d.Message}, lang: i18n.English}
		}
	})
	waitEntered := func() {
		t.Helper()
		select {
		case <-entered:
		case <-time.After(appDeadline):
			t.Fatal("the reload did not start")
		}
	}

	hang.Store(true)
	writeFile(t, path, "version: 1\nagents:\n"+alice+demoAgentYAML(t, "bob", "Bob", "B", ""))
	waitEntered()
	// The screen answers while the read hangs.
	h.alt('a')
	h.waitText("A Alice")
	h.press(tcell.KeyEscape)
	// A save meanwhile is read once the hung read is given up, and applied.
	writeFile(t, path, "version: 1\nagents:\n"+alice+demoAgentYAML(t, "carol", "Carol", "C", ""))
	close(release)
	h.waitText("New agents: carol")

	// Quitting while a read hangs does not wait for it.
	hang.Store(true)
	h.ap.reload()
	waitEntered()
	if r := h.quit(); r.code != 0 {
		t.Errorf("exit status %d after quitting", r.code)
	}
}
