package app

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// A refused project agents file is named as the file refused, in the errors window and
// under Agent status; the configuration's agents work all the same. Once fixed, the
// window goes.
func TestAppNamesARefusedProjectFile(t *testing.T) {
	dir := appEnv(t)
	path := filepath.Join(dir, "sidekicks.yaml")
	writeFile(t, path, "version: 1\nagents:\n"+demoAgentYAML(t, "alice", "Alice", "A", ""))
	project := filepath.Join(dir, config.ProjectFile)
	writeFile(t, project, "[[agent]]\nname = \"Helper\"\ncomand = \"/bin/sh\"\n")
	h := startApp(t, path, dir)
	h.waitTitles("Configuration errors")
	screen := h.waitText("was refused: none of its agents is available", "agent.comand is not a key")
	if strings.Contains(screen, "has errors") {
		t.Errorf("the errors window blames the configuration file:\n%s", screen)
	}
	h.onUI(func() {
		if h.ap.cfg.Agent("alice") == nil {
			t.Error("the configuration's agent is not available")
		}
		h.ap.showStatus()
	})
	h.waitText("  Refused: none of its agents is added until it is fixed")
	var status string
	h.onUI(func() { status = lineTexts(statusLines(h.ap.lang, h.ap.cur, h.ap.cfg, h.ap.o.dir, h.ap.states, nil)) })
	want := "Project agents file: " + project + "\n  Refused: none of its agents is added until it is fixed\n" +
		"    reading " + project + ": agent \"Helper\" has no command\n    reading " + project + ": agent.comand is not a key this file has\n"
	if !strings.Contains(status, want) {
		t.Errorf("Agent status lacks %q:\n%s", want, status)
	}

	// A save of the configuration is applied all the same, and says the project file is
	// still refused.
	writeFile(t, path, "version: 1\nagents:\n"+demoAgentYAML(t, "alice", "Alice", "A", "")+demoAgentYAML(t, "bob", "Bob", "B", ""))
	h.waitText(".sidekicks/acp.toml refused: see Agent ▸ Agent status")
	h.onUI(func() {
		if h.ap.cfg.Agent("bob") == nil {
			t.Error("the configuration's save was not applied")
		}
	})
	// Fixed: the window goes, and Agent status no longer says it is refused.
	writeFile(t, project, "[[agent]]\nname = \"Helper\"\ncommand = \"/bin/sh\"\n")
	h.waitGone("Configuration errors")
	h.onUI(func() { h.ap.showStatus() })
	h.waitGone("Refused:")
}

// An agent's error in a conversation shows the data of its JSON-RPC error and where to
// look next; an agent speaking another protocol version is reported as such, in the
// conversation and under Agent status, not as the exit that followed.
func TestAppSaysWhyAnAgentFailed(t *testing.T) {
	dir := appEnv(t)
	path := filepath.Join(dir, "sidekicks.yaml")
	writeFile(t, path, "version: 1\nagents:\n"+testagents.ModeEntry(t, "up", "rpcerror", dir)+testagents.ModeEntry(t, "v2", "version2", dir))
	h := startApp(t, path, dir)
	h.onUI(func() { h.ap.openAgent("up") })
	h.waitTitles("up")
	h.typeText("hi")
	h.press(tcell.KeyEnter)
	h.waitText("up: error: the agent refused session/prompt: Internal", "    details: "+testagents.RPCErrorDetails,
		"    hint: retry later", "see its log: Agents panel ▸ l")

	h.onUI(func() { h.ap.openAgent("v2") })
	h.waitTitles("up", "v2")
	h.typeText("hi")
	h.press(tcell.KeyEnter)
	const want = `agent "v2" speaks ACP protocol version 2;`
	screen := h.waitText("v2: error: "+want, "  Sidekicks speaks version 1", "see its log: Agents panel ▸ l")
	if strings.Contains(screen, "ended by itself") {
		t.Errorf("the exit is blamed:\n%s", screen)
	}
	waitAgentState(t, h, "v2", runtime.Error)
	h.onUI(func() { h.ap.showStatus() })
	h.press(tcell.KeyF5) // zoomed: every line shows
	screen = h.waitText("Why: " + want + " Sidekicks speaks version 1")
	if strings.Contains(screen, "Exit: exit status 0") {
		t.Errorf("Agent status blames the exit:\n%s", screen)
	}
	// So does the Agents panel, for the highlighted agent.
	h.onUI(func() { h.ap.showPanel() })
	h.waitText("@v2")
	h.press(tcell.KeyDown)
	screen = h.waitText("could not start: " + want)
	if strings.Contains(screen, "exited with status 0") {
		t.Errorf("the Agents panel blames the exit:\n%s", screen)
	}
}

// The texts of this file's catalogue have both languages, with the same verbs.
func TestErrorTextsComplete(t *testing.T) {
	for _, p := range errCatalogue.Problems(errmsgSeeAgentLog) {
		t.Error(p)
	}
	if got := errCatalogue.Text(i18n.French, errmsgSeeAgentLog); got != "voir son journal : Panneau des agents ▸ l" {
		t.Errorf("French hint %q", got)
	}
}
