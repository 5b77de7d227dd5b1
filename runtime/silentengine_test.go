package runtime

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// silentEngine is a listener that accepts and never answers (testagents.SilentEngine).
type silentEngine struct {
	addr     string
	accepted <-chan net.Conn
}

func newSilentEngine(t *testing.T) *silentEngine {
	t.Helper()
	addr, accepted := testagents.SilentEngine(t)
	return &silentEngine{addr: addr, accepted: accepted}
}

// host is the engine's address as DOCKER_HOST says it.
func (e *silentEngine) host() string { return e.addr }

// connected waits for the docker command's connection.
func (e *silentEngine) connected(t *testing.T) net.Conn {
	t.Helper()
	select {
	case c := <-e.accepted:
		return c
	case <-time.After(deadline):
		t.Fatal("docker never connected to the silent engine")
		return nil
	}
}

// closedByPeer waits until the other side closes c: the docker command was stopped.
func closedByPeer(t *testing.T, c net.Conn) {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(deadline))
	buf := make([]byte, 4096)
	for {
		_, err := c.Read(buf)
		var ne net.Error
		switch {
		case err == nil:
		case errors.As(err, &ne) && ne.Timeout():
			t.Fatal("the docker command still holds its connection: it was not stopped")
		default:
			return // EOF or reset: the command is gone
		}
	}
}

// realDocker skips a test when the docker command is missing (.ci/run installs it), and
// keeps the user's Docker configuration out of it.
func realDocker(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("docker"); err != nil {
		t.Skipf("no docker command: %v", err)
	}
	t.Setenv("DOCKER_CONFIG", t.TempDir())
	t.Setenv("DOCKER_CONTEXT", "")
	t.Setenv("DOCKER_HOST", "")
}

// silentDockerAgent is a container agent whose engine, DOCKER_HOST in its env, is host.
func silentDockerAgent(t *testing.T, name, host string) config.Agent {
	a := testAgentConfig(t, name, "normal")
	a.Env["DOCKER_HOST"] = host
	a.Runtime = config.Runtime{Type: "container", Container: "box", WorkspacePath: "/ws"}
	return a
}

type acquired struct {
	l   *Lease
	err error
}

// acquireAsync asks for a lease on a goroutine of its own.
func acquireAsync(ctx context.Context, s *Supervisor, name string) <-chan acquired {
	out := make(chan acquired, 1)
	go func() {
		l, err := s.Acquire(ctx, name)
		out <- acquired{l, err}
	}()
	return out
}

// answerOf waits for an Acquire's answer, failing the test after deadline.
func answerOf(t *testing.T, what string, ch <-chan acquired) acquired {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(deadline):
		t.Fatalf("%s: no answer within %v", what, deadline)
		return acquired{}
	}
}

// silentQueue is alice starting on a silent engine at maxRunningAgents: 1, and bob
// waiting for her slot.
type silentQueue struct {
	s     *Supervisor
	eng   *silentEngine
	alice <-chan acquired // alice's Acquire, with the ctx given
	bob   <-chan acquired
	conn  net.Conn // docker's connection for alice's start
}

// queueBehindSilentStart asks for alice (with ctx) then bob, and returns once alice's
// docker command has connected and bob waits.
func queueBehindSilentStart(t *testing.T, ctx context.Context, engineTimeout time.Duration) *silentQueue {
	t.Helper()
	realDocker(t)
	q := &silentQueue{eng: newSilentEngine(t)}
	alice := silentDockerAgent(t, "alice", q.eng.host())
	bob := testAgentConfig(t, "bob", "normal")
	q.s = newTestSupervisor(t, Options{Agents: []config.Agent{alice, bob}, MaxRunning: 1, EngineTimeout: engineTimeout})
	q.alice = acquireAsync(ctx, q.s, "alice")
	q.conn = q.eng.connected(t)
	waitState(t, q.s, "alice", inState(Starting), "alice starts")
	q.bob = acquireAsync(context.Background(), q.s, "bob")
	waitState(t, q.s, "bob", inState(Waiting), "bob waits for alice's slot")
	return q
}

// bobServed waits for bob's lease once alice's slot is free.
func (q *silentQueue) bobServed(t *testing.T) {
	t.Helper()
	r := answerOf(t, "bob's start", q.bob)
	if r.err != nil {
		t.Fatalf("bob, queued behind alice: %v", r.err)
	}
	r.l.Release()
}

// With the real docker command and an engine that accepts and never answers, the start
// fails once the engine timeout has passed, saying which engine did not answer, in
// English and French; the docker command is stopped, and the agent queued behind it at
// maxRunningAgents: 1 starts.
func TestSilentDockerEngineFailsTheStartAndFreesTheSlot(t *testing.T) {
	const timeout = 700 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	began := time.Now()
	q := queueBehindSilentStart(t, ctx, timeout)
	s, eng, aliceDone, conn := q.s, q.eng, q.alice, q.conn

	r := answerOf(t, "alice's start", aliceDone)
	took := time.Since(began)
	want := fmt.Sprintf("the Docker engine at %s did not answer within 700 ms (docker container inspect box)", eng.host())
	var late *EngineTimeoutError
	if !errors.As(r.err, &late) || !strings.Contains(r.err.Error(), want) {
		t.Fatalf("alice's start: %v\nwant an *EngineTimeoutError saying %q", r.err, want)
	}
	if took < timeout {
		t.Errorf("the start failed after %v, before the engine timeout (%v)", took, timeout)
	}
	wantFR := fmt.Sprintf("le moteur Docker à %s n'a pas répondu en 700 ms (docker container inspect box)", eng.host())
	if got := late.Text(i18n.French); got != wantFR {
		t.Errorf("in French: %q\nwant %q", got, wantFR)
	}
	st := s.State("alice")
	if st.State != Error || !strings.Contains(st.Reason, want) || !errors.As(st.Failure, &late) {
		t.Errorf("alice after the timeout: %+v", st)
	}
	closedByPeer(t, conn)
	q.bobServed(t)
}

// Giving up the only turn that waits for a start (Esc, a closed window) cancels the start
// at once, long before the engine timeout: the docker command is stopped, the agent is
// stopped, and the agent queued behind it starts.
func TestGivingUpCancelsAStartOnASilentDockerEngine(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	q := queueBehindSilentStart(t, ctx, time.Minute)
	s, aliceDone, conn := q.s, q.alice, q.conn

	startCancelled(t, s, cancel, aliceDone, func() { closedByPeer(t, conn) })
	q.bobServed(t)
}

// File operations through the real docker command on a silent engine fail once their
// timeout has passed, naming the engine; the docker command is stopped.
func TestSilentDockerEngineFileOperationsTimeOut(t *testing.T) {
	realDocker(t)
	eng := newSilentEngine(t)
	w := NewContainerWorkspace("box", "/ws", map[string]string{"DOCKER_HOST": eng.host()}, nil)
	w.timeout = 500 * time.Millisecond
	ops := map[string]func(ctx context.Context) error{
		"list":  func(ctx context.Context) error { _, err := w.List(ctx, "."); return err },
		"read":  func(ctx context.Context) error { _, err := w.ReadFile(ctx, "a.txt", 1<<20); return err },
		"write": func(ctx context.Context) error { return w.WriteFile(ctx, "a.txt", []byte("x")) },
	}
	for name, op := range ops {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			defer cancel()
			errs := make(chan error, 1)
			go func() { errs <- op(ctx) }()
			conn := eng.connected(t)
			var err error
			select {
			case err = <-errs:
			case <-time.After(deadline):
				t.Fatalf("no answer within %v", deadline)
			}
			want := fmt.Sprintf("the Docker engine at %s did not answer within 500 ms (docker exec box)", eng.host())
			var late *EngineTimeoutError
			if !errors.As(err, &late) || !strings.Contains(err.Error(), want) {
				t.Fatalf("%v\nwant an *EngineTimeoutError saying %q", err, want)
			}
			closedByPeer(t, conn)
		})
	}
}

// The terminal's check of a silent engine, through the real docker command, fails once its
// timeout has passed, naming the engine.
func TestSilentDockerEngineCheckBeforeTheTerminal(t *testing.T) {
	realDocker(t)
	eng := newSilentEngine(t)
	a := silentDockerAgent(t, "alice", eng.host())
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	err := CheckEngine(ctx, a, 400*time.Millisecond)
	want := fmt.Sprintf("the Docker engine at %s did not answer within 400 ms (docker container inspect box)", eng.host())
	var late *EngineTimeoutError
	if !errors.As(err, &late) || !strings.Contains(err.Error(), want) {
		t.Fatalf("%v\nwant an *EngineTimeoutError saying %q", err, want)
	}
	if ctx.Err() != nil {
		t.Fatal("the check outlived the test's deadline")
	}
	closedByPeer(t, eng.connected(t))
}
