package workbench

import (
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/runtime"
)

// panelSetup is a screen with the Agents panel over real agents: alice on this computer,
// bob in a container, carol in a sandbox (both through the stand-in engines).
type panelSetup struct {
	h      *harness
	sup    *runtime.Supervisor
	procs  *processes
	eng    *engines
	panel  *Panel
	agents map[string]config.Agent
	clock  *manualClock
	talked []string
}

// manualClock is the panel's clock for idle times; zero means the real time.
type manualClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *manualClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.t.IsZero() {
		return time.Now()
	}
	return c.t
}

func (c *manualClock) set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}

var (
	boxLifecycle   = config.Lifecycle{Stop: []string{"docker", "stop", "box"}, Remove: []string{"docker", "rm", "--force", "box"}}
	sandyLifecycle = config.Lifecycle{Stop: []string{"sbx", "stop", "sandy"}, Remove: []string{"sbx", "rm", "sandy", "--force"}}
)

func newPanelSetup(t *testing.T, lang i18n.Lang, withLifecycle bool) *panelSetup {
	t.Helper()
	eng := installEngines(t)
	box, sandy := boxLifecycle, sandyLifecycle
	if !withLifecycle {
		box, sandy = config.Lifecycle{}, config.Lifecycle{}
	}
	alice := testAgentConfig(t, "alice", "Alice", "🦊")
	bob := inEngine(testAgentConfig(t, "bob", "Bob", "🐳"), "container", box)
	carol := inEngine(testAgentConfig(t, "carol", "Carol", "🧪"), "sbx", sandy)
	bob.Description = "Builds in a box."
	for _, a := range []*config.Agent{&bob, &carol} {
		if len(a.Runtime.Lifecycle.Stop) > 0 {
			a.Runtime.Lifecycle.Folder = t.TempDir()
		}
	}
	sup, procs := newSupervisor(t, alice, bob, carol)
	s := &panelSetup{sup: sup, procs: procs, eng: eng, clock: &manualClock{},
		agents: map[string]config.Agent{"alice": alice, "bob": bob, "carol": carol}}
	s.h = newHarness(t, 100, 22, lang)
	s.h.do(func() {
		s.panel = NewPanel(PanelOptions{
			App: s.h.app, Supervisor: sup, Logs: sup.Logs(), Agents: []config.Agent{alice, bob, carol},
			OpenConversation: func(name string) { s.talked = append(s.talked, name) },
			Now:              s.clock.now,
		})
		if err := s.panel.Show(); err != nil {
			t.Fatal(err)
		}
	})
	return s
}

// selectAgent highlights an agent (as the arrows would).
func (s *panelSetup) selectAgent(name string) {
	s.h.do(func() { s.panel.Select(name) })
}

func TestPanelShowsStatesAsTheyChange(t *testing.T) {
	s := newPanelSetup(t, i18n.English, true)
	h := s.h
	h.waitText("0 of 2 running")
	h.waitRow("Alice", "@alice", "local", "stopped")
	h.waitRow("Bob", "@bob", "container box", "stopped")
	h.waitRow("Carol", "@carol", "sandbox sandy", "stopped")

	// Start: the agent starts and stays ready.
	s.selectAgent("alice")
	h.typeText("s")
	h.waitRow("Alice", "ready")
	h.waitText("1 of 2 running")
	first := waitState(t, s.sup, "alice", runtime.Ready)

	// Its process ends by itself: the panel says how, and the last line of its stderr.
	s.procs.send(t, "alice", "crash")
	h.waitRow("Alice", "error: exited with status 3")
	h.waitText("boom 3")
	h.waitText("0 of 2 running")

	// Start again, then restart: a new process each time.
	h.typeText("s")
	h.waitRow("Alice", "ready")
	second := waitState(t, s.sup, "alice", runtime.Ready)
	if second.Pid == first.Pid || second.Pid == 0 {
		t.Fatalf("start after the crash kept pid %d", second.Pid)
	}
	h.typeText("r")
	third := waitPid(t, s.sup, "alice", second.Pid)
	h.waitRow("Alice", "ready")
	if third.Pid == second.Pid {
		t.Fatal("restart kept the process")
	}

	// Two running: the count says so as it happens.
	s.selectAgent("bob")
	h.typeText("s")
	h.waitRow("Bob", "ready")
	h.waitText("2 of 2 running")

	// Stop.
	h.typeText("x")
	h.waitRow("Bob", "stopped")
	h.waitText("1 of 2 running")
	if st := s.sup.State("bob"); st.State != runtime.Stopped {
		t.Fatalf("bob is %s after stop", st.State)
	}

	// An action that cannot run now says so.
	h.typeText("x")
	h.waitText("■ Stop: not available now")
}

// waitPid waits for an agent to be ready with another process than old.
func waitPid(t *testing.T, sup *runtime.Supervisor, name string, old int) runtime.AgentState {
	t.Helper()
	events, cancel := sup.Subscribe()
	defer cancel()
	// The restart may have finished before the subscription: look at the state as it is
	// now first, then at each change.
	if st := sup.State(name); st.State == runtime.Ready && st.Pid != old {
		return st
	}
	timeout := time.After(deadline)
	for {
		select {
		case ev := <-events:
			for _, st := range ev.States {
				if st.Name == name && st.State == runtime.Ready && st.Pid != old {
					return st
				}
			}
		case <-timeout:
			t.Fatalf("%s was not restarted: %+v", name, sup.State(name))
		}
	}
}

func TestPanelActionsList(t *testing.T) {
	tests := []struct {
		lang      i18n.Lang
		lifecycle bool
		agent     string
		want      []string
		absent    []string
	}{
		{i18n.English, true, "alice", []string{"Open the conversation", "▶ Start", "Files", "Log", "Open a terminal"},
			[]string{"■ Stop the", "🗑 Remove the", "■ Stop ", "↻ Restart"}},
		{i18n.English, true, "bob", []string{"▶ Start", "■ Stop the container", "🗑 Remove the container"}, []string{"sandbox"}},
		{i18n.English, true, "carol", []string{"■ Stop the sandbox", "🗑 Remove the sandbox"}, []string{"container"}},
		{i18n.French, true, "bob", []string{"Ouvrir la conversation", "▶ Démarrer", "Fichiers", "Journal", "Ouvrir un terminal", "■ Arrêter le conteneur", "🗑 Supprimer le conteneur"}, []string{"sandbox"}},
		{i18n.French, true, "carol", []string{"■ Arrêter la sandbox", "🗑 Supprimer la sandbox"}, []string{"conteneur"}},
		{i18n.English, false, "bob", []string{"▶ Start", "Files"}, []string{"■ Stop the container", "🗑 Remove the container"}},
		{i18n.French, false, "carol", []string{"▶ Démarrer"}, []string{"■ Arrêter la sandbox", "🗑 Supprimer la sandbox"}},
	}
	for _, tt := range tests {
		t.Run(tt.agent, func(t *testing.T) {
			s := newPanelSetup(t, tt.lang, tt.lifecycle)
			s.selectAgent(tt.agent)
			s.h.press(tcell.KeyEnter)
			f := s.h.waitText(append([]string{"— actions"}, tt.want...)...)
			list := dialogText(f, "— actions")
			for _, a := range tt.absent {
				if strings.Contains(list, a) {
					t.Errorf("the actions of %s offer %q:\n%s", tt.agent, a, f.text())
				}
			}
			// The conversation action calls the application back.
			if tt.agent == "alice" {
				s.h.typeText("o") // the action's key, as in the panel
				s.h.waitGone("— actions")
				if got := onUI(s.h, func() []string { return append([]string(nil), s.talked...) }); !reflect.DeepEqual(got, []string{"alice"}) {
					t.Errorf("conversations opened: %q", got)
				}
			}
		})
	}
}

func TestPanelLifecycleCommands(t *testing.T) {
	tests := []struct {
		name    string
		lang    i18n.Lang
		agent   string
		keys    func(h *harness) // opens the confirmation
		title   string
		command []string
	}{
		{"stop the container", i18n.English, "bob", func(h *harness) { h.typeText("X") }, "■ Stop the container", boxLifecycle.Stop},
		{"remove the container", i18n.English, "bob", func(h *harness) { h.typeText("D") }, "🗑 Remove the container", boxLifecycle.Remove},
		{"stop the sandbox from the list", i18n.English, "carol", func(h *harness) {
			h.press(tcell.KeyEnter)
			h.waitText("— actions")
			h.typeText("X")
		}, "■ Stop the sandbox", sandyLifecycle.Stop},
		{"supprimer la sandbox", i18n.French, "carol", func(h *harness) { h.typeText("D") }, "🗑 Supprimer la sandbox", sandyLifecycle.Remove},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newPanelSetup(t, tt.lang, true)
			h := s.h
			s.selectAgent(tt.agent)
			h.typeText("s")
			waitState(t, s.sup, tt.agent, runtime.Ready)
			s.eng.calls()

			// Asked first; saying no runs nothing and leaves the agent running.
			tt.keys(h)
			h.waitText(tt.title, config.CommandLine(tt.command))
			h.press(tcell.KeyEsc)
			h.waitGone(config.CommandLine(tt.command))
			if got := lifecycleCalls(s.eng.calls()); len(got) != 0 {
				t.Fatalf("declining ran %v", got)
			}
			if st := s.sup.State(tt.agent); st.State != runtime.Ready {
				t.Fatalf("declining left %s %s", tt.agent, st.State)
			}

			// Yes: the agent is stopped, then exactly the configured command runs, in the
			// lifecycle folder.
			tt.keys(h)
			h.waitText(config.CommandLine(tt.command))
			yes := "y"
			if tt.lang == i18n.French {
				yes = "o"
			}
			h.typeText(yes)
			done := ": done"
			if tt.lang == i18n.French {
				done = " : fait"
			}
			h.waitText(tt.title + done)
			if st := s.sup.State(tt.agent); st.State != runtime.Stopped {
				t.Errorf("%s is %s after the command", tt.agent, st.State)
			}
			got := lifecycleCalls(s.eng.calls())
			want := []call{{dir: s.agents[tt.agent].Runtime.Lifecycle.Folder, args: tt.command}}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("commands run\n%q\nwant\n%q", got, want)
			}
			// Its output went to the agent's log.
			log := s.sup.Logs().Agent(tt.agent)
			found := false
			for _, l := range log.Lines() {
				found = found || strings.Contains(l.Text, "running "+strings.Join(tt.command, " "))
			}
			if !found {
				t.Errorf("the log does not say the command ran: %v", log.Lines())
			}
		})
	}
}

// dialogText returns the inside of the dialog whose title holds title, drawn over a
// window: on each of its rows, what lies between its two edges.
func dialogText(f screenFrame, title string) string {
	var out []string
	in := false
	for _, row := range strings.Split(f.text(), "\n") {
		switch {
		case strings.Contains(row, title):
			in = true
		case in && strings.Contains(row, "╚"):
			return strings.Join(out, "\n")
		case in:
			if parts := strings.Split(row, "║"); len(parts) >= 4 {
				out = append(out, parts[2])
			}
		}
	}
	return strings.Join(out, "\n")
}

func TestPanelGolden(t *testing.T) {
	for _, tt := range []struct {
		name string
		lang i18n.Lang
	}{{"panel", i18n.English}, {"panel.fr", i18n.French}} {
		t.Run(tt.name, func(t *testing.T) {
			s := newPanelSetup(t, tt.lang, true)
			h := s.h
			// alice ready, idle for three minutes; bob stopped; carol crashed.
			s.selectAgent("alice")
			h.typeText("s")
			st := waitState(t, s.sup, "alice", runtime.Ready)
			since := st.LastActivity
			if since.IsZero() {
				since = st.Started
			}
			s.clock.set(since.Add(3*time.Minute + 5*time.Second))
			s.selectAgent("carol")
			h.typeText("s")
			waitState(t, s.sup, "carol", runtime.Ready)
			s.procs.send(t, "carol", "crash")
			waitState(t, s.sup, "carol", runtime.Error)
			h.waitText("boom 3", "3m")
			h.golden(tt.name)
		})
	}
}
