package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/store"
)

// twoAgentsConfig is a configuration with two demo agents and two declared channels.
func twoAgentsConfig(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "sidekicks.yaml")
	writeFile(t, path, "version: 1\nagents:\n"+
		demoAgentYAML(t, "alice", "Alice", "A", "")+
		demoAgentYAML(t, "bob", "Bob", "B", "")+
		`channels:
  - name: général
    description: Both agents
    agents: [alice, bob]
  - name: ops
    agents: [bob]
`)
	return path
}

func TestAppOpensTheDeclaredChannelsTheFirstTime(t *testing.T) {
	dir := appEnv(t)
	path := twoAgentsConfig(t, dir)
	h := startApp(t, path, dir)
	h.waitTitles("#général", "#ops")
	s := h.waitText("Sidekicks", "Channels", "Agent", "Window", "Help",
		"Both agents", "A Alice  @alice — stopped", "B Bob  @bob — stopped")
	if !strings.Contains(s, "╔[x]") {
		t.Errorf("no window has the focus:\n%s", s)
	}
	if got := h.focusedTitle(); got != "#général" {
		t.Errorf("focused window %q, want the first channel", got)
	}
	// The Agent menu lists the agents; Enter opens the first one's window.
	h.alt('a')
	h.waitText("A Alice", "B Bob", "Cancel turn", "Agent status")
	h.press(tcell.KeyEnter)
	h.waitTitles("#général", "#ops", "A Alice")
	h.waitText("Enter Send", "Tab Conversation") // the agent window's keys
	// The Channels menu lists the channels.
	h.alt('c')
	h.waitText("#général", "#ops", "New channel…", "Rename channel…", "Delete channel…")
	h.press(tcell.KeyEscape)
	if r := h.quit(); r.code != 0 || r.next != "" {
		t.Fatalf("quit: %+v, want status 0", r)
	}
	if errOut := h.stderr.String(); errOut != "" {
		t.Errorf("stderr: %q", errOut)
	}
	// The log says what happened.
	logPath := filepath.Join(os.Getenv("XDG_STATE_HOME"), "sidekicks", "logs", "sidekicks.log")
	data, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"starting on " + path, `created the declared channels ["général" "ops"]`, "quitting", "every agent stopped"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the log lacks %q:\n%s", want, data)
		}
	}
}

func TestAppRemembersItsWindows(t *testing.T) {
	dir := appEnv(t)
	path := twoAgentsConfig(t, dir)
	h := startApp(t, path, dir)
	h.waitTitles("#général", "#ops")
	// Close #ops (focus it, Alt-F3), open Bob's window, which keeps the focus.
	h.alt('2')
	h.key(tcell.KeyF3, 0, tcell.ModAlt)
	h.waitTitles("#général")
	h.onUI(func() { h.ap.openAgent("bob") })
	h.waitTitles("#général", "B Bob")
	if r := h.quit(); r.code != 0 {
		t.Fatalf("quit: %+v", r)
	}

	h = startApp(t, path, dir)
	h.waitTitles("#général", "B Bob")
	if got := h.focusedTitle(); got != "B Bob" {
		t.Errorf("focused window %q after a restart, want the one focused when quitting", got)
	}
	// No window open when quitting: none at the next start.
	h.onUI(func() {
		for _, w := range h.ap.app.Windows() {
			w.Close()
		}
	})
	h.waitText("No window open")
	h.quit()
	h = startApp(t, path, dir)
	h.waitText("No window open")
	if got := h.titles(); len(got) != 0 {
		t.Errorf("windows %q, want none", got)
	}
}

func TestAppRefusesASecondSidekicksOnTheSameConfiguration(t *testing.T) {
	dir := appEnv(t)
	path := twoAgentsConfig(t, dir)
	h := startApp(t, path, dir)
	h.waitTitles("#général", "#ops")
	var errb bytes.Buffer
	code := Run(Options{ConfigFlag: path, Dir: dir, Stderr: &errb})
	errOut := errb.String()
	db, _ := store.DefaultPath(path)
	want := (&store.LockedError{Path: db, PID: os.Getpid()}).Message(i18n.English)
	if code != 1 || strings.TrimSpace(errOut) != "sidekicks: "+want {
		t.Errorf("second start: exit %d, stderr %q; want 1 and %q", code, errOut, want)
	}
	if !strings.Contains(errOut, "process ") {
		t.Errorf("the message does not name the process: %q", errOut)
	}
	// The first one is untouched.
	h.waitTitles("#général", "#ops")
	if r := h.quit(); r.code != 0 {
		t.Fatalf("quit: %+v", r)
	}
}

func TestAppSaysTheLockInFrench(t *testing.T) {
	dir := appEnv(t)
	path := filepath.Join(dir, "c.yaml")
	writeFile(t, path, "version: 1\nui:\n  language: fr\nagents: []\n")
	st := openStore(t, path)
	_ = st
	var errb bytes.Buffer
	code := Run(Options{ConfigFlag: path, Dir: dir, Stderr: &errb})
	if errOut := errb.String(); code != 1 || !strings.Contains(errOut, "est utilisé par un autre Sidekicks (processus ") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}
