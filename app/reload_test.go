package app

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/runtime"
)

// supervisorOf returns the supervisor of the application's agents.
func supervisorOf(t *testing.T, h *appHarness) *runtime.Supervisor {
	t.Helper()
	return h.ap.agents.Supervisor()
}

// startAgent starts an agent through the supervisor, as a turn would, and ends the turn.
func startAgent(t *testing.T, h *appHarness, name string) *runtime.Process {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), appDeadline)
	defer cancel()
	lease, err := supervisorOf(t, h).Acquire(ctx, name)
	if err != nil {
		t.Fatalf("starting %s: %v", name, err)
	}
	p := lease.Process()
	lease.Release()
	return p
}

func waitDone(t *testing.T, p *runtime.Process, what string) {
	t.Helper()
	select {
	case <-p.Done():
	case <-time.After(appDeadline):
		t.Fatalf("%s: the process did not end", what)
	}
}

func TestAppReloadsEachSave(t *testing.T) {
	dir := appEnv(t)
	path := twoAgentsConfig(t, dir)
	h := startApp(t, path, dir)
	h.waitTitles("#général", "#ops")
	h.onUI(func() { h.ap.openAgent("bob") })
	h.waitTitles("#général", "#ops", "B Bob")
	bob := startAgent(t, h, "bob")
	h.waitText("B Bob  @bob — ready, process")

	// Add carol and a channel for her, remove bob.
	writeFile(t, path, "version: 1\nagents:\n"+
		demoAgentYAML(t, "alice", "Alice", "A", "")+
		demoAgentYAML(t, "carol", "Carol", "C", "")+
		`channels:
  - name: général
    agents: [alice]
  - name: lab
    agents: [carol]
`)
	h.waitText("Configuration reloaded", "New agents: carol", "Removed agents: bob", "New channels: #lab")
	waitDone(t, bob, "bob, removed from the configuration")
	h.waitText("@bob — not in the configuration")
	h.alt('a')
	s := h.waitText("│ A Alice", "│ C Carol")
	if strings.Contains(s, "│ B Bob") {
		t.Errorf("the Agent menu still lists bob:\n%s", s)
	}
	h.press(tcell.KeyEscape)
	h.alt('c')
	h.waitText("#lab")
	h.press(tcell.KeyEscape)

	// A save with an error keeps the running configuration and shows the error's line.
	bad := "version: 1\nagents:\n" + demoAgentYAML(t, "alice", "Alice", "A", "")
	line := strings.Count(bad, "\n") + 1
	writeFile(t, path, bad+"zz: 1\n")
	h.waitTitles("#général", "#ops", "B Bob", "Configuration errors")
	h.waitText("The last save of", "has errors", fmt.Sprintf(`line %d — zz: unknown key "zz"`, line), "1 error", "the running one is kept")
	h.alt('a')
	h.waitText("A Alice", "C Carol")
	h.press(tcell.KeyEscape)
	if got := h.focusedTitle(); got != "Configuration errors" {
		t.Errorf("focused %q, want the errors window", got)
	}

	// Fixed: the errors window goes, the file applies.
	writeFile(t, path, "version: 1\nagents:\n"+demoAgentYAML(t, "alice", "Alice", "A", ""))
	h.waitTitles("#général", "#ops", "B Bob")
	h.waitText("Removed agents: carol")
}

func TestAppStartsOnAnInvalidConfiguration(t *testing.T) {
	dir := appEnv(t)
	path := filepath.Join(dir, "bad.yaml")
	writeFile(t, path, "version: 1\nagents:\n  - name: alice\n    comand: x\nchannels:\n  - name: ops\n")
	h := startApp(t, path, dir)
	h.waitTitles("Configuration errors")
	h.waitText("bad.yaml has errors: its agents are not available",
		`line 3 — agents[0]: missing key "command"`,
		`line 4 — agents[0].comand: unknown key "comand"`, "2 errors")
	h.alt('a')
	h.waitText("(no agent)")
	h.press(tcell.KeyEscape)

	// Fixed by a save: the errors go, the agent and the declared channel come.
	writeFile(t, path, "version: 1\nagents:\n"+demoAgentYAML(t, "alice", "Alice", "A", "")+"channels:\n  - name: ops\n    agents: [alice]\n")
	h.waitGone("Configuration errors")
	h.waitText("New agents: alice", "New channels: #ops")
	h.alt('a')
	h.waitText("A Alice")
	h.press(tcell.KeyEnter)
	h.waitTitles("A Alice")
}

func TestAppReloadMenuAndLanguage(t *testing.T) {
	dir := appEnv(t)
	path := filepath.Join(dir, "c.yaml")
	writeFile(t, path, "version: 1\nui:\n  language: fr\n  theme: light\nagents: []\n")
	h := startApp(t, path, dir)
	h.waitText("Canaux", "Fenêtre", "Aide")
	var theme string
	h.onUI(func() { theme = h.ap.app.Theme().Name() })
	if theme != "light" {
		t.Errorf("theme %q, want light", theme)
	}
	// The project agents file is read with the configuration: Sidekicks ▸ Reload takes it.
	writeFile(t, filepath.Join(dir, ".sidekicks", "acp.toml"), "[[agent]]\nname = \"Helper Bot\"\ncommand = \"/bin/sh\"\n")
	allowProject(t, dir)
	h.press(tcell.KeyF10)
	h.waitText("Recharger la configuration")
	h.key(tcell.KeyRune, 'c', tcell.ModNone)
	h.waitText("Configuration rechargée", "Nouveaux agents : helper-bot")
	h.onUI(func() { h.ap.showStatus() })
	h.waitText("Fichier d'agents du projet : "+filepath.Join(dir, ".sidekicks", "acp.toml"), "Helper Bot [projet]  @helper-bot")

	// Language and theme follow a save.
	writeFile(t, path, "version: 1\nui:\n  language: en\n  theme: dark\nagents: []\n")
	h.waitText("Channels", "Window", "Help", "Agent status", "Configuration reloaded")
	h.onUI(func() { theme = h.ap.app.Theme().Name() })
	if theme != "dark" {
		t.Errorf("theme %q after the reload, want dark", theme)
	}
}
