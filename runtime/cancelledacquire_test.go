package runtime

import (
	"context"
	"errors"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/config"
)

// An Acquire whose caller has already given up (the window that opened it closed, the turn
// was cancelled before it began) starts nothing: no start begins to be abandoned at once.
func TestAcquireGivenUpAlreadyStartsNothing(t *testing.T) {
	s := newTestSupervisor(t, Options{Agents: []config.Agent{testAgentConfig(t, "alice", "normal")}, Clock: newFakeClock()})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if l, err := s.Acquire(ctx, "alice"); !errors.Is(err, context.Canceled) {
		if l != nil {
			l.Release()
		}
		t.Fatalf("Acquire after its context ended: %v", err)
	}
	if lines := s.Logs().Agent("alice").Lines(); len(lines) > 0 {
		t.Errorf("alice's log after an Acquire given up: %q", lines)
	}
	if st := s.State("alice"); st.State != Stopped || st.Reason != "" {
		t.Errorf("alice is %s (%q) after an Acquire given up", st.State, st.Reason)
	}
	// One that gives up with the agent running does not take a turn either.
	l := acquire(t, s, "alice")
	if l2, err := s.Acquire(ctx, "alice"); !errors.Is(err, context.Canceled) {
		if l2 != nil {
			l2.Release()
		}
		t.Errorf("Acquire on a ready agent after its context ended: %v", err)
	}
	l.Release()
	if st := s.State("alice"); st.State != Ready {
		t.Errorf("alice is %s after her only turn ended", st.State)
	}
}
