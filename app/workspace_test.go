package app

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// An agent whose workspace does not exist: the first message fails with an error that names
// the workspace, not the program (which exists).
func TestAppNamesAMissingWorkspace(t *testing.T) {
	dir := appEnv(t)
	ws := filepath.Join(dir, "gone")
	path := filepath.Join(dir, "sidekicks.yaml")
	writeFile(t, path, "version: 1\nagents:\n"+demoAgentYAML(t, "alice", "Alice", "A", "    workspace: "+ws+"\n"))
	h := startApp(t, path, dir)
	h.onUI(func() { h.ap.openAgent("alice") })
	h.waitTitles("A Alice")
	h.typeText("hi")
	h.press(tcell.KeyEnter)
	screen := h.waitText("error: the agent's workspace", "does not exist (or is not a")
	if strings.Contains(screen, "fork/exec") {
		t.Errorf("the error blames the program:\n%s", screen)
	}
	if flat := strings.Join(strings.Fields(screen), ""); !strings.Contains(flat, ws) {
		t.Errorf("the error does not name the workspace %s:\n%s", ws, screen)
	}
}
