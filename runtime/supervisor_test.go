package runtime

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/config"
)

func TestAcquireStartsTheAgentAndRelease(t *testing.T) {
	clock := newFakeClock()
	a := testAgentConfig(t, "alice", "normal")
	s := newTestSupervisor(t, Options{Agents: []config.Agent{a}, Clock: clock})
	if st := s.State("alice"); st.State != Stopped || st.Pid != 0 {
		t.Fatalf("before any request: %+v", st)
	}
	l := acquire(t, s, "alice")
	st := s.State("alice")
	if st.State != Busy || st.Pid == 0 || st.Turns != 1 || !st.Started.Equal(clock.Now()) {
		t.Fatalf("during a turn: %+v", st)
	}
	if got, err := l.Conn().(*lineConn).ask("ping"); err != nil || got != "pong" {
		t.Fatalf("ping: %q, %v", got, err)
	}
	// A second session on the same agent shares its process.
	l2 := acquire(t, s, "alice")
	if l2.Process() != l.Process() || s.State("alice").Turns != 2 {
		t.Fatalf("a second lease started another process: %+v", s.State("alice"))
	}
	l.Release()
	l.Release() // twice does nothing
	if st := s.State("alice"); st.State != Busy || st.Turns != 1 {
		t.Fatalf("one lease still held: %+v", st)
	}
	clock.Advance(time.Minute)
	l2.Release()
	st = s.State("alice")
	if st.State != Ready || st.Turns != 0 || !st.LastActivity.Equal(clock.Now()) {
		t.Fatalf("after the turns: %+v", st)
	}
	if n, max := s.Running(); n != 1 || max != 2 {
		t.Errorf("Running = %d/%d", n, max)
	}
	if err := s.Stop("alice"); err != nil {
		t.Fatal(err)
	}
	if st := s.State("alice"); st.State != Stopped || st.Pid != 0 {
		t.Fatalf("after Stop: %+v", st)
	}
	if !l.Conn().(*lineConn).closed {
		t.Error("the connection was not closed when the process ended")
	}
	log := s.Logs().Agent("alice")
	for _, want := range []string{"sidekicks: started", "sidekicks: ready", "sidekicks: stopping: stopped", "sidekicks: stopped (exit status 0)"} {
		if !logHas(log, want) {
			t.Errorf("log lacks %q:\n%s", want, logText(log))
		}
	}
	if _, err := s.Acquire(context.Background(), "nobody"); !errors.Is(err, ErrUnknownAgent) {
		t.Errorf("unknown agent: %v", err)
	}
}

func TestLimitStopsTheLeastRecentlyUsedAgent(t *testing.T) {
	clock := newFakeClock()
	agents := []config.Agent{
		testAgentConfig(t, "a", "normal"), testAgentConfig(t, "b", "normal"),
		testAgentConfig(t, "c", "normal"), testAgentConfig(t, "d", "normal"),
	}
	s := newTestSupervisor(t, Options{Agents: agents, MaxRunning: 2, Clock: clock})
	turn := func(name string) {
		acquire(t, s, name).Release()
		clock.Advance(time.Second)
	}
	turn("a")
	turn("b")
	turn("a") // a is now more recent than b
	held := acquire(t, s, "a")
	turn("c") // b is the least recently used
	if st := s.State("b"); st.State != Stopped || st.Reason != "to make room for c" {
		t.Fatalf("b: %+v", st)
	}
	if !logHas(s.Logs().Agent("b"), "stopping: to make room for c") {
		t.Errorf("b's log does not say why:\n%s", logText(s.Logs().Agent("b")))
	}
	for _, name := range []string{"a", "c"} {
		if st := s.State(name).State; st != Busy && st != Ready {
			t.Errorf("%s: %s", name, st)
		}
	}
	// a is older than c but busy: c makes room for d.
	turn("d")
	if st := s.State("c"); st.State != Stopped || st.Reason != "to make room for d" {
		t.Errorf("c: %+v", st)
	}
	if st := s.State("a"); st.State != Busy {
		t.Errorf("the busy agent was stopped: %+v", st)
	}
	if n, _ := s.Running(); n != 2 {
		t.Errorf("%d running, limit 2", n)
	}
	held.Release()
}

func TestWaitingInOrderAndCancel(t *testing.T) {
	clock := newFakeClock()
	agents := []config.Agent{
		testAgentConfig(t, "a", "normal"), testAgentConfig(t, "b", "normal"),
		testAgentConfig(t, "c", "normal"), testAgentConfig(t, "d", "normal"),
	}
	s := newTestSupervisor(t, Options{Agents: agents, MaxRunning: 1, Clock: clock})
	la := acquire(t, s, "a")

	type result struct {
		name string
		l    *Lease
		err  error
	}
	results := make(chan result, 3)
	ask := func(ctx context.Context, name string) {
		go func() {
			l, err := s.Acquire(ctx, name)
			results <- result{name, l, err}
		}()
	}
	ask(context.Background(), "b")
	waitState(t, s, "b", inState(Waiting), "b waits")
	ctxC, cancelC := context.WithCancel(context.Background())
	ask(ctxC, "c")
	waitState(t, s, "c", inState(Waiting), "c waits")
	ask(context.Background(), "d")
	waitState(t, s, "d", inState(Waiting), "d waits")

	cancelC()
	r := <-results
	if r.name != "c" || !errors.Is(r.err, context.Canceled) {
		t.Fatalf("cancelled wait: %+v", r)
	}
	waitState(t, s, "c", inState(Stopped), "c gave up")

	la.Release() // a is no longer busy: it makes room for b, the first in line
	r = <-results
	if r.name != "b" || r.err != nil {
		t.Fatalf("first served: %+v", r)
	}
	if st := s.State("a"); st.State != Stopped || st.Reason != "to make room for b" {
		t.Errorf("a: %+v", st)
	}
	if st := s.State("d"); st.State != Waiting {
		t.Errorf("d should still wait while b is busy: %+v", st)
	}
	select {
	case r := <-results:
		t.Fatalf("served while every slot is busy: %+v", r)
	default:
	}
	r.l.Release()
	r = <-results
	if r.name != "d" || r.err != nil {
		t.Fatalf("second served: %+v", r)
	}
	r.l.Release()
	if n, _ := s.Running(); n != 1 {
		t.Errorf("%d running, limit 1", n)
	}
}

func TestIdleAgentIsStopped(t *testing.T) {
	clock := newFakeClock()
	a := testAgentConfig(t, "alice", "normal")
	s := newTestSupervisor(t, Options{Agents: []config.Agent{a}, IdleAfter: 10 * time.Minute, Clock: clock})
	acquire(t, s, "alice").Release()
	clock.Advance(9 * time.Minute)
	if st := s.State("alice"); st.State != Ready {
		t.Fatalf("stopped too early: %+v", st)
	}
	l := acquire(t, s, "alice") // activity resets the wait
	clock.Advance(time.Hour)    // a busy agent is never idle
	if st := s.State("alice"); st.State != Busy {
		t.Fatalf("a busy agent was stopped: %+v", st)
	}
	l.Release()
	clock.Advance(9*time.Minute + 59*time.Second)
	if st := s.State("alice"); st.State != Ready {
		t.Fatalf("stopped before 10 minutes of idleness: %+v", st)
	}
	clock.Advance(time.Second)
	st := waitState(t, s, "alice", inState(Stopped), "idle stop")
	if st.Reason != "idle for 10m0s" {
		t.Errorf("reason %q", st.Reason)
	}
	if clock.armed() != 0 {
		t.Errorf("%d timers still armed after the stop", clock.armed())
	}
}

func TestNoIdleStopWhenZero(t *testing.T) {
	clock := newFakeClock()
	s := newTestSupervisor(t, Options{Agents: []config.Agent{testAgentConfig(t, "alice", "normal")}, Clock: clock})
	acquire(t, s, "alice").Release()
	if clock.armed() != 0 {
		t.Errorf("stopIdleAgentsAfter 0 armed %d timers", clock.armed())
	}
}

func TestCrashGoesToErrorAndNextRequestRestarts(t *testing.T) {
	a := testAgentConfig(t, "alice", "normal")
	s := newTestSupervisor(t, Options{Agents: []config.Agent{a}})
	for _, during := range []bool{true, false} {
		l := acquire(t, s, "alice")
		pid := l.Process().Pid
		if !during {
			l.Release() // at rest
		}
		if _, err := l.Process().Stdin.Write([]byte("crash\n")); err != nil {
			t.Fatal(err)
		}
		st := waitState(t, s, "alice", inState(Error), "crash")
		if st.Exit == nil || st.Exit.Code != 3 || st.Pid != 0 {
			t.Fatalf("crash state: %+v", st)
		}
		if len(st.StderrTail) == 0 || st.StderrTail[len(st.StderrTail)-1] != "panic line 15" || len(st.StderrTail) > 10 {
			t.Errorf("stderr tail %q", st.StderrTail)
		}
		if !strings.Contains(st.Reason, "exit status 3") || !strings.Contains(st.Reason, "panic line 15") {
			t.Errorf("reason %q", st.Reason)
		}
		if during {
			l.Release() // the session lets go of the dead process
		}
		l2 := acquire(t, s, "alice")
		if l2.Process().Pid == pid {
			t.Fatal("not restarted")
		}
		if st := s.State("alice"); st.State != Busy || st.Exit != nil || st.Reason != "" {
			t.Errorf("after the restart: %+v", st)
		}
		l2.Release()
		if err := s.Stop("alice"); err != nil {
			t.Fatal(err)
		}
	}
	if !logHas(s.Logs().Agent("alice"), "panic line 15") {
		t.Error("stderr did not reach the log")
	}
}

func TestStartFailures(t *testing.T) {
	missing := testAgentConfig(t, "missing", "normal")
	missing.CommandPath = ""
	missing.Command = "no-such-agent"
	early := testAgentConfig(t, "early", "exit-at-once")
	s := newTestSupervisor(t, Options{Agents: []config.Agent{missing, early}})
	if _, err := s.Acquire(context.Background(), "missing"); !errors.Is(err, ErrProgramNotFound) {
		t.Errorf("missing command: %v", err)
	}
	if st := s.State("missing"); st.State != Error || !strings.Contains(st.Reason, "no-such-agent") {
		t.Errorf("missing: %+v", st)
	}
	_, err := s.Acquire(context.Background(), "early")
	if err == nil || !strings.Contains(err.Error(), "exit status 7") {
		t.Errorf("an agent that exits at once: %v", err)
	}
	st := s.State("early")
	if st.State != Error || st.Exit == nil || st.Exit.Code != 7 || len(st.StderrTail) != 1 || st.StderrTail[0] != "cannot start: no model" {
		t.Errorf("early: %+v", st)
	}
	if n, _ := s.Running(); n != 0 {
		t.Errorf("failed starts hold %d slots", n)
	}
}

func TestSetAgents(t *testing.T) {
	a := testAgentConfig(t, "alice", "normal")
	b := testAgentConfig(t, "bob", "normal")
	s := newTestSupervisor(t, Options{Agents: []config.Agent{a, b}})
	la := acquire(t, s, "alice")
	lb := acquire(t, s, "bob")
	lb.Release()
	if got, _ := la.Conn().(*lineConn).ask("env"); got != "alice" {
		t.Fatalf("env: %q", got)
	}
	a2 := a
	a2.Env = map[string]string{agentModeVar: "normal", "AGENT_TAG": "alice-2", "GORACE": "atexit_sleep_ms=0"}
	s.SetAgents([]config.Agent{a2})
	waitLog(t, s.Logs().Agent("bob"), "stopping: removed from the configuration")
	waitLog(t, s.Logs().Agent("bob"), "sidekicks: stopped")
	if got := s.States(); len(got) != 1 || got[0].Name != "alice" || got[0].State != Busy {
		t.Fatalf("states after the reload: %+v", got)
	}
	if _, err := s.Acquire(context.Background(), "bob"); !errors.Is(err, ErrUnknownAgent) {
		t.Errorf("removed agent: %v", err)
	}
	// The running process keeps its configuration until its next start.
	if got, _ := la.Conn().(*lineConn).ask("env"); got != "alice" {
		t.Errorf("running process changed: %q", got)
	}
	la.Release()
	if err := s.Restart(context.Background(), "alice"); err != nil {
		t.Fatal(err)
	}
	l := acquire(t, s, "alice")
	if got, _ := l.Conn().(*lineConn).ask("env"); got != "alice-2" {
		t.Errorf("after a restart: %q", got)
	}
	l.Release()
}

func TestSubscribersNeverBlockAndGetTheLatestState(t *testing.T) {
	s := newTestSupervisor(t, Options{Agents: []config.Agent{testAgentConfig(t, "alice", "normal")}})
	events, cancel := s.Subscribe()
	defer cancel()
	slow, cancelSlow := s.Subscribe() // never read until the end
	defer cancelSlow()
	first := <-events
	if len(first.States) != 1 || first.States[0].State != Stopped || first.MaxRunning != 2 {
		t.Fatalf("first event: %+v", first)
	}
	for i := 0; i < 5; i++ {
		acquire(t, s, "alice").Release()
	}
	if err := s.Stop("alice"); err != nil {
		t.Fatal(err)
	}
	l := acquire(t, s, "alice")
	ev := <-slow
	if st := ev.States[0]; st.State != Busy || ev.Running != 1 {
		t.Errorf("slow subscriber got %+v, want the current state", ev)
	}
	select {
	case ev := <-slow:
		t.Errorf("more than one pending event: %+v", ev)
	default:
	}
	l.Release()
}

func TestWaitersLetGoOnRemovalAndShutdown(t *testing.T) {
	a := testAgentConfig(t, "a", "normal")
	b := testAgentConfig(t, "b", "normal")
	c := testAgentConfig(t, "c", "normal")
	s := newTestSupervisor(t, Options{Agents: []config.Agent{a, b, c}, MaxRunning: 1})
	la := acquire(t, s, "a")
	errs := make(chan error, 2)
	for _, name := range []string{"b", "c"} {
		go func() {
			_, err := s.Acquire(context.Background(), name)
			errs <- err
		}()
		waitState(t, s, name, inState(Waiting), name+" waits")
	}
	s.SetAgents([]config.Agent{a, c})
	if err := <-errs; !errors.Is(err, ErrUnknownAgent) {
		t.Errorf("waiter of a removed agent: %v", err)
	}
	if st := s.State("c"); st.State != Waiting {
		t.Errorf("c: %+v", st)
	}
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-errs; !errors.Is(err, ErrShuttingDown) {
		t.Errorf("waiter at shutdown: %v", err)
	}
	la.Release()
}

// Stopping an agent whose container is still being created abandons the creation.
func TestStopWhileStarting(t *testing.T) {
	eng := newFakeEngines(t)
	t.Setenv("FAKE_CREATE_SLEEP", "1000")
	a := engineAgent(t, eng, "container")
	s := newTestSupervisor(t, Options{Agents: []config.Agent{a}})
	errs := make(chan error, 1)
	go func() {
		_, err := s.Acquire(context.Background(), "alice")
		errs <- err
	}()
	log := s.Logs().Agent("alice")
	waitLog(t, log, "sandbox: slow create ")
	var pid int
	for _, l := range log.Lines() {
		if strings.HasPrefix(l.Text, "sandbox: slow create ") {
			pid, _ = strconv.Atoi(strings.TrimPrefix(l.Text, "sandbox: slow create "))
		}
	}
	if st := s.State("alice"); st.State != Starting {
		t.Errorf("during create: %+v", st)
	}
	if err := s.Stop("alice"); err != nil {
		t.Fatal(err)
	}
	if err := <-errs; err == nil {
		t.Error("Acquire succeeded after Stop")
	}
	if st := s.State("alice"); st.State != Stopped || st.Reason != "stopped while starting" {
		t.Errorf("after Stop: %+v", st)
	}
	processGone(t, pid)
	if n, _ := s.Running(); n != 0 {
		t.Errorf("%d slots held", n)
	}
}
