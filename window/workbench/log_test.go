package workbench

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/runtime"
)

func TestLogFollowsNewLines(t *testing.T) {
	alice := testAgentConfig(t, "alice", "Alice", "🦊")
	sup, procs := newSupervisor(t, alice)
	h := newHarness(t, 100, 20, i18n.English)
	var panel *Panel
	h.do(func() {
		panel = NewPanel(PanelOptions{App: h.app, Supervisor: sup, Logs: sup.Logs(), Agents: []config.Agent{alice}})
		if err := panel.Show(); err != nil {
			t.Fatal(err)
		}
	})
	h.typeText("s")
	waitState(t, sup, "alice", runtime.Ready)

	// l opens the log: the supervisor's events are there, with their times.
	h.typeText("l")
	h.waitText("Log — Alice", "(kept in memory only)", "sidekicks: ready")

	// What the agent writes on stderr follows, control characters made visible.
	procs.send(t, "alice", "say hello from stderr")
	procs.send(t, "alice", "say \x1b[31mred\x1b[0m and a bell\x07")
	f := h.waitText("hello from stderr", "[31mred")
	for _, c := range f.Cells {
		for _, r := range c.Runes {
			if r == 0x1b || r == 0x07 {
				t.Fatalf("a raw control character reached the screen:\n%s", f.text())
			}
		}
	}

	// Scrolled up, the view stays where it is while lines come in; End follows again.
	for i := 0; i < 40; i++ {
		procs.send(t, "alice", fmt.Sprintf("say line %02d", i))
	}
	h.waitText("line 39")
	h.press(tcell.KeyPgUp)
	h.waitGone("line 39")
	before := h.waitFrame("a frame", func(screenFrame) bool { return true }).text()
	procs.send(t, "alice", "say the latest line")
	// The line is in the log, and the view did not move.
	waitLogLine(t, sup.Logs().Agent("alice"), "the latest line")
	h.do(func() {})
	if after := h.waitFrame("a frame", func(screenFrame) bool { return true }).text(); after != before {
		t.Errorf("the view moved while scrolled up:\nbefore\n%s\nafter\n%s", before, after)
	}
	h.press(tcell.KeyEnd)
	h.waitText("the latest line")
	procs.send(t, "alice", "say and one more")
	h.waitText("and one more")

	// Opening it again focuses the same window.
	h.do(func() { panel.Window().Focus() })
	h.typeText("l")
	h.waitText("and one more")
	if n := onUI(h, func() int { return len(h.app.Windows()) }); n != 2 {
		t.Errorf("%d windows, want the panel and one log", n)
	}
}

// waitLogLine waits until the log holds a line containing text.
func waitLogLine(t *testing.T, log *runtime.AgentLog, text string) {
	t.Helper()
	changed, cancel := log.Subscribe()
	defer cancel()
	timeout := time.After(deadline)
	for {
		for _, l := range log.Lines() {
			if strings.Contains(l.Text, text) {
				return
			}
		}
		select {
		case <-changed:
		case <-timeout:
			t.Fatalf("%q never reached the log", text)
		}
	}
}
