package app

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/window"
	"git.rickub.com/bots-garden/sidekicks/window/windowtest"
)

// panelConfig writes a configuration with the demo agents alice and bob and no channel
// (so that the Agents panel is the only window), and returns its path.
func panelConfig(t *testing.T, dir, language string) string {
	t.Helper()
	path := filepath.Join(dir, "sidekicks.yaml")
	ui := ""
	if language != "" {
		ui = "ui:\n  language: " + language + "\n"
	}
	writeFile(t, path, "version: 1\n"+ui+"agents:\n"+
		demoAgentYAML(t, "alice", "Alice", "A", "")+
		demoAgentYAML(t, "bob", "Bob", "B", ""))
	return path
}

// rowHolding returns the first row of the screen that holds every text, "" when none does.
func rowHolding(screen string, texts ...string) string {
	for _, row := range strings.Split(screen, "\n") {
		all := true
		for _, x := range texts {
			all = all && strings.Contains(row, x)
		}
		if all {
			return row
		}
	}
	return ""
}

// waitPanelRow waits until one row of the screen holds every text, and returns it.
func (h *appHarness) waitPanelRow(texts ...string) string {
	h.t.Helper()
	s := h.waitScreen(fmt.Sprintf("a row with %q", texts), func(s string) bool { return rowHolding(s, texts...) != "" })
	return rowHolding(s, texts...)
}

// appMenuItem returns an entry of a menu as the application builds it now.
func (h *appHarness) appMenuItem(menu, label msg) (item window.MenuItem, found bool) {
	h.onUI(func() {
		lang := h.ap.app.Language()
		for _, m := range menuBar(h.ap.app, h.ap.menuHandlers()) {
			if m.Title == nil || m.Title() != catalogue.Text(lang, menu) {
				continue
			}
			for _, it := range m.Items() {
				if it.Marked == catalogue.Text(lang, label) {
					item, found = it, true
				}
			}
		}
	})
	return item, found
}

// menuRunnable says whether a menu entry can run now.
func (h *appHarness) menuRunnable(it window.MenuItem) bool {
	ok := false
	h.onUI(func() { ok = runnable(it) })
	return ok
}

func TestAppMenusOfferThePanelAndTheConfiguration(t *testing.T) {
	for _, tc := range []struct {
		lang                             string
		panel, add, create, edit, cancel string
	}{
		{"en", "Agents panel…", "Add an agent…", "Create agents file", "Edit configuration", "Cancel turn"},
		{"fr", "Panneau des agents…", "Ajouter un agent…", "Créer le fichier d'agents", "Modifier la configuration", "Annuler le tour"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			dir := appEnv(t)
			h := startApp(t, panelConfig(t, dir, tc.lang), dir)
			h.alt('a')
			h.waitText("A Alice", "B Bob", tc.panel, tc.add, tc.create, tc.cancel)
			h.press(tcell.KeyEscape)
			h.press(tcell.KeyF10)
			h.waitText(tc.edit)
			h.press(tcell.KeyEscape)
			for _, l := range []msg{msgItemAgentsPanel, msgItemAddAgent, msgItemCreateAgentsFile} {
				if it, ok := h.appMenuItem(msgMenuAgent, l); !ok || !h.menuRunnable(it) {
					t.Errorf("Agent menu entry %d: present %v, want present and enabled", l, ok)
				}
			}
			if it, ok := h.appMenuItem(msgMenuSidekicks, msgItemEditConfig); !ok || !h.menuRunnable(it) {
				t.Errorf("Edit configuration: present %v, want present and enabled", ok)
			}
		})
	}
}

func TestAppAgentsPanelFollowsTheAgents(t *testing.T) {
	dir := appEnv(t)
	path := panelConfig(t, dir, "")
	h := startApp(t, path, dir)
	h.waitText("No window open")
	h.alt('a')
	h.waitText("Agents panel…")
	h.typeText("p")
	h.waitTitles("Agents")
	h.waitText("0 of 2 running")
	h.waitPanelRow("Alice", "@alice", "local", "stopped")
	h.waitPanelRow("Bob", "@bob", "local", "stopped")

	// s starts the highlighted agent (the first); the state changes as it happens.
	h.typeText("s")
	h.waitPanelRow("@alice", "ready")
	h.waitText("1 of 2 running")
	h.press(tcell.KeyDown)
	h.typeText("s")
	h.waitPanelRow("@bob", "ready")
	h.waitText("2 of 2 running")
	// Stopped from elsewhere: the panel shows it too.
	if err := supervisorOf(t, h).Stop("alice"); err != nil {
		t.Fatal(err)
	}
	h.waitPanelRow("@alice", "stopped")
	h.waitText("1 of 2 running")
	h.typeText("x")
	h.waitPanelRow("@bob", "stopped")
	h.waitText("0 of 2 running")

	// o opens the highlighted agent's conversation window; the menu focuses the panel again.
	h.typeText("o")
	h.waitTitles("Agents", "B Bob")
	h.alt('a')
	h.typeText("p")
	h.waitScreen("the panel focused again", func(string) bool { return h.focusedTitle() == "Agents" })
	h.waitTitles("Agents", "B Bob")

	// l opens the agent's log, which tells what the supervisor did.
	h.typeText("l")
	h.waitTitles("Agents", "B Bob", "Log — Bob")
	h.waitText("sidekicks: ")

	// A save that adds an agent shows it in the panel at once (alice and bob as they were).
	writeFile(t, path, readText(t, path)+demoAgentYAML(t, "carol", "Carol", "C", ""))
	h.waitText("New agents: carol")
	h.alt('1')
	h.waitPanelRow("Carol", "@carol", "local", "stopped")
}

// wizardDemoEnv makes this test binary, run by an agent the test did not configure itself (the
// wizard's), run as the demo agent called title.
func wizardDemoEnv(t *testing.T, title string) {
	t.Helper()
	args, _ := json.Marshal([]string{"--name", title, "--delay", "0"})
	t.Setenv("SIDEKICKS_TEST_DEMO_AGENT", "1")
	t.Setenv("SIDEKICKS_TEST_DEMO_ARGS", string(args))
	t.Setenv("SIDEKICKS_DEMO_STATE", t.TempDir())
	t.Setenv("GORACE", "atexit_sleep_ms=0")
}

func TestAppWizardAddsAnAgentUsableAtOnce(t *testing.T) {
	dir := appEnv(t)
	wizardDemoEnv(t, "Scout")
	path := panelConfig(t, dir, "")
	h := startApp(t, path, dir)
	h.onUI(h.ap.showPanel)
	h.waitTitles("Agents")

	h.alt('a')
	h.typeText("a")
	h.waitText("Add an agent", "Name used with @")
	for _, field := range []string{"scout", "Scout", "S", "Looks around", ""} {
		h.typeText(field)
		h.press(tcell.KeyTab)
	}
	h.press(tcell.KeyTab) // where it runs: on this computer
	h.typeText(os.Args[0])
	h.press(tcell.KeyTab)
	h.typeText("-test.run=^$")
	h.press(tcell.KeyEnter)
	h.waitText("These lines will be added to", "  - name: scout", "    command: "+os.Args[0])
	h.press(tcell.KeyEnter)

	// Added, read again: in the Agent menu and in the panel at once.
	h.waitText("New agents: scout")
	h.waitPanelRow("Scout", "@scout", "local", "stopped")
	h.alt('a')
	h.waitText("S Scout")
	h.press(tcell.KeyEscape)
	cfg, diags := config.Load(path)
	if diags.HasErrors() || cfg.Agent("scout") == nil {
		t.Fatalf("the file does not load with scout: %v", diags)
	}
	// Usable: it starts from the panel.
	h.press(tcell.KeyEnd)
	h.typeText("s")
	h.waitPanelRow("@scout", "ready")
}

// suspendScreen records the screen's suspensions, and whether the editor had run (its
// marker file existed) when the screen came back.
type suspendScreen struct {
	*windowtest.Screen
	marker string
	mu     sync.Mutex
	events []string
}

func (s *suspendScreen) Suspend() error {
	s.note("suspend")
	return s.Screen.Suspend()
}

func (s *suspendScreen) Resume() error {
	if _, err := os.Stat(s.marker); err == nil {
		s.note("resume after the editor")
	} else {
		s.note("resume")
	}
	return s.Screen.Resume()
}

func (s *suspendScreen) note(e string) {
	s.mu.Lock()
	s.events = append(s.events, e)
	s.mu.Unlock()
}

func (s *suspendScreen) seen() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.events, ", ")
}

// startAppOn is startApp with the test screen wrapped by wrap.
func startAppOn(t *testing.T, path, dir string, wrap func(*windowtest.Screen) tcell.Screen) *appHarness {
	t.Helper()
	return startApp(t, path, dir, func(h *appHarness, o *appOptions) {
		o.screen = func() (tcell.Screen, error) { return wrap(h.screen), nil }
	})
}

// editorScript writes an executable shell script and returns its path.
func editorScript(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "editor.sh")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestAppEditConfigurationInTheEditor(t *testing.T) {
	dir := appEnv(t)
	path := panelConfig(t, dir, "")
	marker := filepath.Join(t.TempDir(), "edited")
	added := filepath.Join(t.TempDir(), "dora.yaml")
	writeFile(t, added, demoAgentYAML(t, "dora", "Dora", "D", ""))
	// The editor appends an agent to the file it is given, then leaves its marker.
	t.Setenv("EDITOR", editorScript(t, fmt.Sprintf("cat %q >> \"$1\" && touch %q\n", added, marker)))
	var screen *suspendScreen
	h := startAppOn(t, path, dir, func(f *windowtest.Screen) tcell.Screen {
		screen = &suspendScreen{Screen: f, marker: marker}
		return screen
	})
	h.press(tcell.KeyF10)
	h.waitText("Edit configuration")
	h.typeText("e")
	h.waitText("New agents: dora")
	if got := screen.seen(); got != "suspend, resume after the editor" {
		t.Errorf("the screen went %q, want suspended while the editor ran", got)
	}
	h.alt('a')
	h.waitText("A Alice", "B Bob", "D Dora")
	h.press(tcell.KeyEscape)

	// An editor that changes nothing: nothing to read again.
	t.Setenv("EDITOR", "true")
	h.onUI(h.ap.editConfig)
	h.waitText("sidekicks.yaml unchanged")
	// One that fails says so.
	t.Setenv("EDITOR", "exit 3;")
	h.onUI(h.ap.editConfig)
	h.waitText("The editor (exit 3;) failed: exit status 3")
}

func TestAppCreateAgentsFile(t *testing.T) {
	for _, lang := range []string{"en", "fr"} {
		t.Run(lang, func(t *testing.T) {
			dir := appEnv(t)
			path := panelConfig(t, dir, lang)
			if lang == "fr" {
				// The folder exists without the file: its saves are followed from the start.
				if err := os.Mkdir(filepath.Join(dir, ".sidekicks"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			calls := filepath.Join(t.TempDir(), "editor calls")
			t.Setenv("EDITOR", editorScript(t, fmt.Sprintf("echo \"$1\" >> %q\n", calls)))
			h := startApp(t, path, dir)
			project := filepath.Join(dir, config.ProjectFile)
			item, ok := h.appMenuItem(msgMenuAgent, msgItemCreateAgentsFile)
			if !ok || !h.menuRunnable(item) {
				t.Fatalf("Create agents file: present %v, want enabled in a folder without %s", ok, config.ProjectFile)
			}
			h.alt('a')
			h.typeText("f")
			// Written, opened in the editor, read: its agent is in the menu.
			demo := map[string]string{"en": "Demo", "fr": "Démo"}[lang]
			h.waitText(map[string]string{"en": "New agents: ", "fr": "Nouveaux agents : "}[lang])
			h.alt('a')
			h.waitText(demo)
			h.press(tcell.KeyEscape)
			// Its demo agent is this very program, found whatever PATH holds.
			exe, err := os.Executable()
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(project)
			if err != nil || string(data) != string(config.ProjectStarterFileIn(i18n.Parse(lang), exe)) {
				t.Fatalf("%s holds %q (%v), want the starter file in %s", project, data, err, lang)
			}
			if want := "\ncommand = " + strconv.Quote(exe) + "\n"; !strings.Contains(string(data), want) {
				t.Errorf("the starter file's demo agent is not %s:\n%s", exe, data)
			}
			var found *config.Agent
			h.onUI(func() { found = h.ap.cfg.Agent(map[string]string{"en": "demo-project", "fr": "demo-projet"}[lang]) })
			if found == nil || found.CommandPath != exe {
				t.Errorf("the project's demo agent runs %+v, want %s", found, exe)
			}
			if got, _ := os.ReadFile(calls); string(got) != project+"\n" {
				t.Errorf("the editor was run on %q, want %s once", got, project)
			}
			// The project has its file now: the entry is disabled, its letter does nothing.
			item, _ = h.appMenuItem(msgMenuAgent, msgItemCreateAgentsFile)
			if h.menuRunnable(item) {
				t.Error("Create agents file is still enabled once the file exists")
			}
			h.alt('a')
			h.typeText("f")
			h.press(tcell.KeyEscape)
			h.onUI(func() {})
			if got, _ := os.ReadFile(calls); string(got) != project+"\n" {
				t.Errorf("the editor ran again: %q", got)
			}
			// Its saves are followed; a changed file is to be allowed again.
			writeFile(t, project, "[[agent]]\nname = \"Helper Bot\"\ncommand = \"/bin/sh\"\n")
			h.waitText(map[string]string{"en": "this folder defines 1 agent in .sidekicks/acp.toml — not allowed", "fr": "ce dossier définit 1 agent dans .sidekicks/acp.toml — non autorisé"}[lang])
			h.onUI(func() {
				if h.ap.cfg.Agent("helper-bot") != nil {
					t.Error("the changed file's agent was added before it was allowed")
				}
			})
			allowProject(t, dir)
			h.onUI(h.ap.reload)
			h.waitText("helper-bot")
		})
	}
}

func TestAppRecentSwitchesConfiguration(t *testing.T) {
	dir := appEnv(t)
	first := filepath.Join(dir, "first.yaml")
	second := filepath.Join(dir, "second.yaml")
	gate := filepath.Join(t.TempDir(), "gate")
	if err := syscall.Mkfifo(gate, 0o600); err != nil {
		t.Fatal(err)
	}
	// alice's afterStop waits until the test writes a line into the gate.
	writeFile(t, first, "version: 1\nagents:\n"+
		demoAgentYAML(t, "alice", "Alice", "A", fmt.Sprintf("    afterStop: [sh, -c, 'read line < \"$0\"', %q]\n", gate)))
	writeFile(t, second, "version: 1\nagents:\n"+demoAgentYAML(t, "carol", "Carol", "C", ""))

	// A conversation with carol in the second configuration's history, opened from the
	// application while it ran on the first: both are in the recent list.
	h := startApp(t, second, dir, openedFromApp(first))
	h.onUI(func() { h.ap.openAgent("carol") })
	h.waitTitles("C Carol")
	h.typeText("hello")
	h.press(tcell.KeyEnter)
	h.waitScreen("carol's answer, ended", func(s string) bool {
		if !strings.Contains(s, "to see my commands.") {
			return false
		}
		busy := true
		h.onUI(func() { busy = h.ap.canCancel() })
		return !busy
	})
	if r := h.quit(); r.code != 0 {
		t.Fatalf("quit: %+v", r)
	}

	// The first configuration, alice running; Sidekicks ▸ Recent files… lists the second.
	h = startApp(t, first, dir)
	alice := startAgent(t, h, "alice")
	h.press(tcell.KeyF10)
	h.typeText("r")
	h.waitText("Recent files", second)
	h.press(tcell.KeyEnter)
	h.waitText("Waiting for the agents to stop")
	h.onUI(func() {})
	select {
	case r := <-h.done:
		h.ended = &r
		t.Fatalf("the first configuration stopped before alice's afterStop ended: %+v", r)
	default:
	}
	f, err := os.OpenFile(gate, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("go\n")
	f.Close()
	r := h.wait()
	if r.code != 0 || r.next != second {
		t.Fatalf("run returned %+v, want 0 and %s", r, second)
	}
	waitDone(t, alice, "alice, once the configuration was switched")

	// The second opens as runApplication opens it: its windows and history come back, and
	// it is the last opened file.
	h = startApp(t, r.next, dir)
	h.waitTitles("C Carol")
	h.waitText("I am Carol, a demo agent")
	prefs, err := config.LoadPreferences()
	if err != nil {
		t.Fatal(err)
	}
	if prefs.LastOpened != second || len(prefs.Recent) < 2 || prefs.Recent[0] != second || prefs.Recent[1] != first {
		t.Errorf("preferences: last %q, recent %q; want %s first, then %s", prefs.LastOpened, prefs.Recent, second, first)
	}
	h.alt('a')
	h.waitText("C Carol")
	if s := h.current(); strings.Contains(s, "A Alice") {
		t.Errorf("the first configuration's agent is in the Agent menu:\n%s", s)
	}
}
