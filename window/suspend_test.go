package window_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	. "git.rickub.com/bots-garden/sidekicks/window"
)

// suspendScreen records the calls that hand the terminal over and take it back.
type suspendScreen struct {
	tcell.SimulationScreen
	mu    sync.Mutex
	calls []string
	syncs int
}

func (s *suspendScreen) record(c string) {
	s.mu.Lock()
	s.calls = append(s.calls, c)
	s.mu.Unlock()
}

func (s *suspendScreen) Suspend() error { s.record("suspend"); return s.SimulationScreen.Suspend() }
func (s *suspendScreen) Resume() error  { s.record("resume"); return s.SimulationScreen.Resume() }
func (s *suspendScreen) Sync() {
	s.mu.Lock()
	s.syncs++
	s.mu.Unlock()
	s.SimulationScreen.Sync()
}

func (s *suspendScreen) state() ([]string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.calls...), s.syncs
}

func TestSuspendHandsTheTerminalOverAndRedraws(t *testing.T) {
	var scr *suspendScreen
	h := newHarness(t, 80, 24, func(o *Options) {
		scr = &suspendScreen{SimulationScreen: o.Screen.(tcell.SimulationScreen)}
		o.Screen = scr
	})
	h.addWindows(2)
	before := h.text()
	_, syncsBefore := scr.state()

	var (
		during   []string
		ranAfter bool
		order    []string
	)
	postedWhileSuspended := make(chan struct{})
	err := onUI(h, func() error {
		return h.app.Suspend(func() error {
			during, _ = scr.state()
			// Other goroutines keep posting and invalidating while the terminal is lent:
			// neither blocks, and what they post runs once the screen is back.
			go func() {
				for i := 0; i < 1000; i++ {
					h.app.Invalidate()
				}
				h.app.Post(func() { ranAfter = true; order = append(order, "posted") })
				close(postedWhileSuspended)
			}()
			select {
			case <-postedWhileSuspended:
			case <-time.After(5 * time.Second):
				t.Error("Post or Invalidate blocked while the screen was suspended")
			}
			order = append(order, "run")
			return errors.New("shell failed")
		})
	})
	if err == nil || err.Error() != "shell failed" {
		t.Errorf("Suspend returned %v, want the run's error", err)
	}
	if len(during) != 1 || during[0] != "suspend" {
		t.Errorf("while running, the screen calls were %q, want [suspend]", during)
	}
	h.do(func() {})
	calls, syncs := scr.state()
	if len(calls) != 2 || calls[1] != "resume" {
		t.Errorf("screen calls %q, want suspend then resume", calls)
	}
	if syncs <= syncsBefore {
		t.Error("the screen was not redrawn in full after coming back")
	}
	if !ranAfter || len(order) != 2 || order[0] != "run" || order[1] != "posted" {
		t.Errorf("order %q: what was posted meanwhile must run after the suspension", order)
	}
	if after := h.text(); after != before {
		t.Errorf("the screen did not come back as it was:\nbefore\n%s\nafter\n%s", before, after)
	}
}
