package runtime

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/guard/guardtest"
)

func TestSupervisorStartsItsGoroutinesThroughTheGivenStarter(t *testing.T) {
	rec := guardtest.New()
	clock := newFakeClock()
	a := testAgentConfig(t, "alice", "normal")
	logs := NewLogs(LogsOptions{Dir: t.TempDir(), Now: clock.Now, Go: rec.Go})
	s := newTestSupervisor(t, Options{Agents: []config.Agent{a}, IdleAfter: time.Minute, Clock: clock, Logs: logs, Go: rec.Go})
	acquire(t, s, "alice").Release()
	clock.Advance(time.Minute) // the idle timer fires and stops alice
	waitState(t, s, "alice", inState(Stopped), "idle stop")
	want := []string{
		"supervisor start alice", "process stderr alice", "process wait alice", "supervisor watch alice",
		"log writer alice", "supervisor idle timer alice", "supervisor stop alice",
	}
	for _, name := range want {
		rec.WaitStarted(t, name)
	}
	for _, name := range rec.Started() {
		if !slices.Contains(want, name) {
			t.Errorf("started %q, not one of %q", name, want)
		}
	}
	if got := rec.Panics(); len(got) != 0 {
		t.Errorf("panics: %+v", got)
	}
}

func TestAPanicWhileStartingAnAgentReachesTheGuard(t *testing.T) {
	rec := guardtest.New()
	a := testAgentConfig(t, "alice", "normal")
	s := newTestSupervisor(t, Options{Agents: []config.Agent{a}, Go: rec.Go,
		Connect: func(context.Context, config.Agent, *Process) (Conn, error) { panic("connect exploded") },
	})
	ctx, cancel := context.WithCancel(context.Background())
	acquired := make(chan error, 1)
	go func() {
		_, err := s.Acquire(ctx, "alice")
		acquired <- err
	}()
	p := rec.WaitPanic(t, "supervisor start")
	if p.Name != "supervisor start alice" || p.Value != "connect exploded" {
		t.Errorf("panic %q: %v, want the start's", p.Name, p.Value)
	}
	if !strings.Contains(p.Stack, "(*Supervisor).startAgent") {
		t.Errorf("the stack lacks the start's goroutine:\n%s", p.Stack)
	}
	// The start never ends; the caller still can stop waiting for it.
	cancel()
	select {
	case err := <-acquired:
		if err == nil {
			t.Error("Acquire succeeded on an agent whose start panicked")
		}
	case <-time.After(deadline):
		t.Fatal("Acquire still waits after its context ended")
	}
}
