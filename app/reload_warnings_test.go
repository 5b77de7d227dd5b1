package app

import (
	"os"
	"path/filepath"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/window/windowtest"
)

// A reload's warnings are shown, not only counted: the status bar gives the first one and
// Agent status lists them all, here a project agent left out because the configuration
// has one of its name.
func TestAppReloadShowsItsWarnings(t *testing.T) {
	dir := appEnv(t)
	path := filepath.Join(dir, "sidekicks.yaml")
	writeFile(t, path, "version: 1\nagents:\n"+demoAgentYAML(t, "alice", "Alice", "A", ""))
	writeFile(t, filepath.Join(dir, config.ProjectFile), "[[agent]]\nname = \"Helper Bot\"\ncommand = \"/bin/true\"\n")
	allowProject(t, dir)
	// Wide enough for the status bar's whole message.
	h := startApp(t, path, dir, func(h *appHarness, _ *appOptions) {
		h.screen = windowtest.NewScreen(windowtest.ScreenConfig{Width: 300, Height: 40})
	})
	h.onUI(func() {
		if a := h.ap.cfg.Agent("helper-bot"); a == nil || !a.Project {
			t.Error("the allowed project agent was not added")
		}
	})

	writeFile(t, path, "version: 1\nagents:\n"+demoAgentYAML(t, "alice", "Alice", "A", "")+demoAgentYAML(t, "helper-bot", "Mine", "M", ""))
	collision := `agent "Helper Bot" is not added: the configuration already has an agent named @helper-bot ("Mine"), which is kept; rename one of them`
	h.waitText("Configuration reloaded, with 1 warning (all in Agent ▸ Agent status) · first: reading .sidekicks/acp.toml: " + collision)

	h.onUI(h.ap.showStatus)
	h.waitText("Warnings of this load:", "acp.toml", collision)
}

// A project agents file created after the start, in a folder that had no .sidekicks then,
// is read as a save: its agents wait for the user's approval, and the notice says so.
func TestAppReadsAProjectFileCreatedLater(t *testing.T) {
	dir := appEnv(t)
	path := filepath.Join(dir, "sidekicks.yaml")
	writeFile(t, path, "version: 1\nagents:\n"+demoAgentYAML(t, "alice", "Alice", "A", ""))
	if _, err := os.Stat(filepath.Join(dir, filepath.Dir(config.ProjectFile))); err == nil {
		t.Fatal("the folder has a .sidekicks at start")
	}
	h := startApp(t, path, dir)

	helper, other := markerProject(t, dir)
	h.waitText("this folder defines 2 agents in .sidekicks/acp.toml — not allowed")
	h.onUI(func() {
		if h.ap.cfg.Agent("helper-bot") != nil || h.ap.cfg.Agent("other-bot") != nil {
			t.Error("the project's agents were added before the file was allowed")
		}
	})
	assertAbsent(t, "created later, not allowed", helper)
	assertAbsent(t, "created later, not allowed", other)
}
