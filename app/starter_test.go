package app

import (
	"path/filepath"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// The starter agents file's demo agent does not collide with a configuration's @demo (the
// default configuration has one): both are in the Agent menu, and nothing is left out.
func TestAppStarterAgentsFileKeepsTheConfiguredDemo(t *testing.T) {
	dir := appEnv(t)
	path := filepath.Join(dir, "sidekicks.yaml")
	writeFile(t, path, "version: 1\nagents:\n"+demoAgentYAML(t, "demo", "Mine", "M", ""))
	t.Setenv("EDITOR", editorScript(t, "true\n"))
	h := startApp(t, path, dir)
	h.alt('a')
	h.typeText("f")
	h.waitText("New agents: ")
	h.alt('a')
	h.waitText("M Mine", "Demo (project)")
	h.press(tcell.KeyEscape)
	h.onUI(func() {
		if mine := h.ap.cfg.Agent("demo"); mine == nil || mine.Project || h.ap.cfg.Agent("demo-project") == nil {
			t.Errorf("agents after the starter file: %+v", h.ap.cfg.Agents)
		}
	})
}
