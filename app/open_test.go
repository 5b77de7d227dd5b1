package app

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/config"
)

func TestAppOpenChoosesAnotherConfigurationInAFileChooser(t *testing.T) {
	dir := appEnv(t)
	first := filepath.Join(dir, "first.yaml")
	second := filepath.Join(dir, "team", "second.yaml")
	writeFile(t, first, "version: 1\nagents:\n"+demoAgentYAML(t, "alice", "Alice", "A", "")+
		"channels:\n  - name: alpha\n    agents: [alice]\n")
	writeFile(t, second, "version: 1\nagents:\n"+demoAgentYAML(t, "carol", "Carol", "C", "")+
		"channels:\n  - name: beta\n    agents: [carol]\n")
	writeFile(t, filepath.Join(dir, "notes.txt"), "not a configuration\n")

	h := startApp(t, first, dir)
	h.waitTitles("#alpha")
	alice := startAgent(t, h, "alice")

	// Sidekicks ▸ Open…: the chooser, in the configuration's folder, lists its folders and
	// its configurations only.
	h.press(tcell.KeyF10)
	h.typeText("o")
	s := h.waitText("Open configuration", "Name or path:", "team/", "first.yaml", "Files listed: *.yaml *.yml")
	if strings.Contains(s, "notes.txt") {
		t.Errorf("the chooser lists a file that is not a configuration:\n%s", s)
	}
	// Into team/, then the second configuration.
	h.typeText("team")
	h.press(tcell.KeyEnter)
	s = h.waitText("second.yaml")
	if strings.Contains(s, "first.yaml") || strings.Contains(s, "team/") {
		t.Errorf("the chooser did not enter team/:\n%s", s)
	}
	h.typeText("sec")
	h.press(tcell.KeyEnter)
	r := h.wait()
	if r.code != 0 || r.next != second {
		t.Fatalf("run returned %+v, want 0 and %s", r, second)
	}
	waitDone(t, alice, "alice, once the configuration was switched")

	// The second opens as runApplication opens it: its agents and channels, none of the
	// first's, and it is the last opened file.
	h = startApp(t, r.next, dir, openedFromApp(first))
	h.waitTitles("#beta")
	h.alt('a')
	s = h.waitText("C Carol")
	if strings.Contains(s, "A Alice") {
		t.Errorf("the first configuration's agent is in the Agent menu:\n%s", s)
	}
	h.press(tcell.KeyEscape)
	h.alt('c')
	s = h.waitText("#beta", "New channel…")
	if strings.Contains(s, "#alpha") {
		t.Errorf("the first configuration's channel is in the Channels menu:\n%s", s)
	}
	h.press(tcell.KeyEscape)
	prefs, err := config.LoadPreferences()
	if err != nil {
		t.Fatal(err)
	}
	if prefs.LastOpened != second || len(prefs.Recent) < 2 || prefs.Recent[0] != second || prefs.Recent[1] != first {
		t.Errorf("preferences: last %q, recent %q; want %s first, then %s", prefs.LastOpened, prefs.Recent, second, first)
	}
}

func TestAppOpenChooserEscKeepsTheConfiguration(t *testing.T) {
	dir := appEnv(t)
	path := filepath.Join(dir, "first.yaml")
	writeFile(t, path, "version: 1\nagents:\n"+demoAgentYAML(t, "alice", "Alice", "A", ""))
	h := startApp(t, path, dir)
	h.press(tcell.KeyF10)
	h.typeText("o")
	h.waitText("Name or path:", "first.yaml")
	h.press(tcell.KeyEscape)
	h.waitGone("Name or path:")
	// Still running on the same file: the Agent menu still lists alice.
	h.alt('a')
	h.waitText("A Alice")
	h.press(tcell.KeyEscape)
	if r := h.quit(); r.code != 0 || r.next != "" {
		t.Fatalf("quit: %+v, want status 0 and nothing to open next", r)
	}
}
