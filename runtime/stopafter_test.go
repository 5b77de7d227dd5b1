package runtime

import (
	"testing"

	"git.rickub.com/bots-garden/sidekicks/config"
)

func TestStopAfterTurnsWaitsForTheTurnsInProgress(t *testing.T) {
	s := newTestSupervisor(t, Options{Agents: []config.Agent{testAgentConfig(t, "alice", "normal")}, Clock: newFakeClock()})
	s.StopAfterTurns("alice", ReasonWindowClosed) // nothing runs: nothing to do, nothing pending
	l := acquire(t, s, "alice")
	l.Release()
	if st := s.State("alice"); st.State != Ready {
		t.Fatalf("a StopAfterTurns with nothing running was kept: %+v", st)
	}

	// Idle: it stops at once, and says why.
	s.StopAfterTurns("alice", ReasonWindowClosed)
	st := waitState(t, s, "alice", inState(Stopped), "stopped")
	if st.Reason != ReasonWindowClosed {
		t.Errorf("stopped for %q", st.Reason)
	}

	// Two turns in progress: it stops once both have ended.
	l1, l2 := acquire(t, s, "alice"), acquire(t, s, "alice")
	p := l1.Process()
	s.StopAfterTurns("alice", ReasonWindowClosed)
	l1.Release()
	if st := s.State("alice"); st.State != Busy || st.Pid != p.Pid {
		t.Fatalf("stopped with a turn in progress: %+v", st)
	}
	l2.Release()
	waitState(t, s, "alice", inState(Stopped), "stopped after the last turn")
	if p.StopReason() != ReasonWindowClosed {
		t.Errorf("the process's stop reason is %q", p.StopReason())
	}

	// KeepRunning forgets it: the turn's end leaves the agent ready.
	l = acquire(t, s, "alice")
	s.StopAfterTurns("alice", ReasonWindowClosed)
	s.KeepRunning("alice")
	l.Release()
	if st := s.State("alice"); st.State != Ready {
		t.Fatalf("after KeepRunning: %+v", st)
	}
	if l.Process().StopReason() != "" {
		t.Errorf("a running process has a stop reason %q", l.Process().StopReason())
	}
}

// A stop for new secrets is not forgotten when the agent's window closes, then opens again:
// the agent stops once its turn ends, and says why.
func TestStopForNewSecretsOutlivesTheWindow(t *testing.T) {
	s := newTestSupervisor(t, Options{Agents: []config.Agent{testAgentConfig(t, "alice", "normal")}, Clock: newFakeClock()})
	l := acquire(t, s, "alice")
	s.StopAfterTurns("alice", ReasonNewSecrets)
	s.StopAfterTurns("alice", ReasonWindowClosed)
	s.KeepRunning("alice")
	if st := s.State("alice"); st.State != Busy {
		t.Fatalf("stopped with a turn in progress: %+v", st)
	}
	l.Release()
	if st := waitState(t, s, "alice", inState(Stopped), "stopped after the turn"); st.Reason != ReasonNewSecrets {
		t.Errorf("stopped for %q", st.Reason)
	}
}
