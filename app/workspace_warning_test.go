package app

import (
	"path/filepath"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/window/windowtest"
)

// A missing workspace is a warning of the load, as a command that cannot be found is:
// the status bar says it at start and at a reload, and Agent status lists it.
func TestAppWarnsAboutAMissingWorkspace(t *testing.T) {
	dir := appEnv(t)
	ws := filepath.Join(dir, "gone")
	path := filepath.Join(dir, "sidekicks.yaml")
	agent := demoAgentYAML(t, "alice", "Alice", "A", "    workspace: "+ws+"\n")
	writeFile(t, path, "version: 1\nagents:\n"+agent)
	warning := `agents[0].workspace: agent "alice": its workspace ` + ws + " does not exist, so the agent cannot start"
	// Wide enough for the status bar's whole message.
	h := startApp(t, path, dir, func(h *appHarness, _ *appOptions) {
		h.screen = windowtest.NewScreen(windowtest.ScreenConfig{Width: 400, Height: 40})
	})
	h.waitText("Configuration loaded, with 1 warning (all in Agent ▸ Agent status) · first: line ", warning)

	h.onUI(h.ap.showStatus)
	h.waitText("Warnings of this load:", warning)

	writeFile(t, path, "version: 1\nagents:\n"+agent+demoAgentYAML(t, "bob", "Bob", "B", ""))
	h.waitText("Configuration reloaded, with 1 warning (all in Agent ▸ Agent status)", warning)
}
