package app

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// markerProject writes dir's project agents file: "Helper Bot" (@helper-bot) and "Other
// Bot" (@other-bot), plain agents whose command first creates a marker file, so that the
// marker says whether the project's command ran. It returns the markers.
func markerProject(t *testing.T, dir string) (helper, other string) {
	t.Helper()
	markers := t.TempDir()
	helper, other = filepath.Join(markers, "helper ran"), filepath.Join(markers, "other ran")
	block := func(name, marker string) string {
		return fmt.Sprintf("[[agent]]\nname = %q\ncommand = \"/bin/sh\"\nargs = [\"-c\", %q, %q]\nenv = { SIDEKICKS_TEST_AGENT = \"noload\", GORACE = \"atexit_sleep_ms=0\" }\n",
			name, fmt.Sprintf("echo > %q && exec \"$0\" -test.run='^$'", marker), testagents.Binary(t))
	}
	writeFile(t, filepath.Join(dir, config.ProjectFile), block("Helper Bot", helper)+block("Other Bot", other))
	return helper, other
}

func assertAbsent(t *testing.T, what, path string) {
	t.Helper()
	if _, err := os.Stat(path); err == nil {
		t.Errorf("%s: the project's command ran (%s exists)", what, filepath.Base(path))
	}
}

// The application adds no agent of a project agents file the user has not allowed, and
// says so; an allowed one never replaces an agent of the configuration; a window of a
// project agent restored at start does not start it.
func TestAppRunsNoProjectAgentByItself(t *testing.T) {
	dir := appEnv(t)
	path := filepath.Join(dir, "sidekicks.yaml")
	writeFile(t, path, "version: 1\nagents:\n"+demoAgentYAML(t, "helper-bot", "Mine", "M", ""))
	helper, other := markerProject(t, dir)

	// Not allowed: said on screen, and nothing of the file is added.
	h := startApp(t, path, dir)
	h.waitText("this folder defines 2 agents in .sidekicks/acp.toml — not allowed")
	h.onUI(func() {
		if h.ap.cfg.Agent("other-bot") != nil || h.ap.cfg.Agent("helper-bot").Project {
			t.Error("the project's agents were added before the file was allowed")
		}
	})
	assertAbsent(t, "not allowed", helper)
	assertAbsent(t, "not allowed", other)

	// Agent ▸ Allow project agents… shows what would run; No changes nothing.
	item, ok := h.appMenuItem(msgMenuAgent, msgItemAllowProject)
	if !ok || !h.menuRunnable(item) {
		t.Fatalf("Allow project agents: present %v, want enabled", ok)
	}
	h.alt('a')
	h.typeText("w")
	h.waitText("Allow project agents", "@other-bot (\"Other Bot\")", "command:   /bin/sh -c", "env:       GORACE=atexit_sleep_ms=0")
	h.typeText("n")
	h.waitGone("Allow these agents to run?")
	if config.Trusted(filepath.Join(dir, config.ProjectFile), mustRead(t, filepath.Join(dir, config.ProjectFile))) {
		t.Error("No allowed the file")
	}
	// Yes allows it and reads it again: other-bot is added, helper-bot stays the
	// configuration's. Their windows are saved when quitting.
	h.alt('a')
	h.typeText("w")
	h.waitText("Allow these agents to run?")
	h.typeText("y")
	h.waitText("New agents: other-bot")
	item, _ = h.appMenuItem(msgMenuAgent, msgItemAllowProject)
	if h.menuRunnable(item) {
		t.Error("Allow project agents is still enabled once the file is allowed")
	}
	h.onUI(func() {
		if a := h.ap.cfg.Agent("helper-bot"); a == nil || a.Project || a.Title != "Mine" {
			t.Errorf("helper-bot is %+v, want the configuration's", a)
		}
		if a := h.ap.cfg.Agent("other-bot"); a == nil || !a.Project {
			t.Errorf("other-bot is %+v, want the project's", a)
		}
		h.ap.openAgent("helper-bot")
		h.ap.openAgent("other-bot")
	})
	h.waitTitles("M Mine", "Other Bot [project]")
	waitAgentState(t, h, "other-bot", runtime.Ready) // opened by the user: it starts
	if r := h.quit(); r.code != 0 {
		t.Fatalf("quit: %+v", r)
	}
	assertAbsent(t, "allowed, same name as the configuration's", helper)
	if err := os.Remove(other); err != nil {
		t.Fatalf("other-bot, opened by the user, did not run its command: %v", err)
	}

	// Restored at start: the configuration's agent starts, the project's waits.
	h = startApp(t, path, dir)
	h.waitTitles("M Mine", "Other Bot [project]")
	waitAgentState(t, h, "helper-bot", runtime.Ready)
	var st runtime.State
	h.onUI(func() { st = h.ap.states.byName["other-bot"].State })
	if st != runtime.Stopped {
		t.Errorf("other-bot is %s after a restart, want stopped until the user talks to it", st)
	}
	h.quit()
	assertAbsent(t, "restored window", other)
	assertAbsent(t, "restored window", helper)
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
