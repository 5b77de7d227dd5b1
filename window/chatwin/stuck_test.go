package chatwin

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/window"
)

// stuckWorld is a window on alice busy with a turn she is slow to end once cancelled
// (/stubborn), which records the agents it stops (Options.StopAgent).
type stuckWorld struct {
	*world
	stopped []string // on the screen's goroutine
}

func newStuckWorld(t *testing.T) *stuckWorld {
	t.Helper()
	sw := &stuckWorld{}
	sw.world = newWorld(t, withSize(100, 20), withStopAgent(func(agent string) { sw.stopped = append(sw.stopped, agent) }))
	t.Cleanup(func() { close(sw.agent.release) })
	sw.send("/stubborn")
	sw.waitText("not stopping yet")
	return sw
}

// stops returns the agents the window has stopped so far.
func (sw *stuckWorld) stops() []string {
	return onUI(sw.harness, func() []string { return slices.Clone(sw.stopped) })
}

// offered fails unless the rule and the status bar offer to stop alice.
func (sw *stuckWorld) offered() {
	sw.t.Helper()
	if rule := sw.ruleRow(); !strings.Contains(rule, "cancelling… no answer from alice — Esc again stops the agent") {
		sw.t.Errorf("rule %q", rule)
	}
	if st := sw.status(); !strings.Contains(st, "Esc Stop the agent") {
		sw.t.Errorf("status bar %q", st)
	}
}

// The time alice has to end her cancelled turn counts from the cancel, not from the first
// frame that shows it: here none is drawn until StuckAfter has passed (the window is not
// on screen, or the screen's goroutine is slow).
func TestStuckCountsFromTheCancelNotFromAFrame(t *testing.T) {
	t.Parallel()
	sw := newStuckWorld(t)
	sw.do(func() {
		sw.w.HandleEvent(window.Named(window.KeyEsc, 0))
		select {
		case <-sw.w.calls.Idle(): // the cancel is with the service and alice
		case <-time.After(deadline):
			t.Error("the cancel was not made")
		}
		sw.clock.Advance(StuckAfter)
	})
	sw.offered()
	sw.press(tcell.KeyEsc)
	if got := sw.stops(); !slices.Equal(got, []string{"alice"}) {
		t.Errorf("Esc stopped %q, want alice", got)
	}
}

// An Esc pressed while the screen still says "cancelling…" does not stop the agent, even
// when it is handled once StuckAfter has passed: only the offer on screen does.
func TestEscBeforeTheOfferDoesNotStopTheAgent(t *testing.T) {
	t.Parallel()
	sw := newStuckWorld(t)
	sw.press(tcell.KeyEsc)
	sw.settled(sw.w, "turn being cancelled", sw.w.cancelling)
	if rule := sw.ruleRow(); !strings.Contains(rule, "cancelling…") || strings.Contains(rule, "Esc again") {
		t.Fatalf("rule %q", rule)
	}
	sw.do(func() {
		sw.clock.Advance(StuckAfter)
		sw.w.HandleEvent(window.Named(window.KeyEsc, 0))
	})
	if got := sw.stops(); len(got) != 0 {
		t.Fatalf("an Esc pressed before the window offered it stopped %q", got)
	}
	sw.offered()
	sw.press(tcell.KeyEsc)
	if got := sw.stops(); !slices.Equal(got, []string{"alice"}) {
		t.Errorf("Esc stopped %q, want alice", got)
	}
}
