package runtime

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/config"
)

// deadline bounds every wait of these tests; reaching it is a failure, never a pass.
const deadline = 20 * time.Second

// testAgentConfig is an agent played by the test binary in the given mode.
func testAgentConfig(t *testing.T, name, mode string) config.Agent {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return config.Agent{
		Name: name, Title: name, Command: exe, CommandPath: exe,
		// GORACE: a race-enabled binary otherwise sleeps a second when it exits.
		Env:       map[string]string{agentModeVar: mode, "AGENT_TAG": name, "GORACE": "atexit_sleep_ms=0"},
		Workspace: t.TempDir(),
		Runtime:   config.Runtime{Type: "local"},
	}
}

// lineConn is the test's stand-in for ACP: "init" answered by "ok".
type lineConn struct {
	p      *Process
	lines  *bufio.Reader
	mu     sync.Mutex
	closed bool
}

func (c *lineConn) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	return nil
}

// ask sends a line and returns the answer.
func (c *lineConn) ask(line string) (string, error) {
	if _, err := io.WriteString(c.p.Stdin, line+"\n"); err != nil {
		return "", err
	}
	s, err := c.lines.ReadString('\n')
	return strings.TrimSpace(s), err
}

func lineConnect(ctx context.Context, a config.Agent, p *Process) (Conn, error) {
	c := &lineConn{p: p, lines: bufio.NewReader(p.Stdout)}
	type answer struct {
		s   string
		err error
	}
	got := make(chan answer, 1)
	go func() {
		s, err := c.ask("init")
		got <- answer{s, err}
	}()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case a := <-got:
		if a.err != nil {
			return nil, a.err
		}
		if a.s != "ok" {
			return nil, fmt.Errorf("unexpected answer %q", a.s)
		}
		return c, nil
	}
}

// fastGrace keeps stops quick in tests.
var fastGrace = StopGrace{AfterStdin: 200 * time.Millisecond, AfterTerm: 200 * time.Millisecond, Drain: 200 * time.Millisecond}

// newTestSupervisor returns a supervisor that tests shut down at their end.
func newTestSupervisor(t *testing.T, opts Options) *Supervisor {
	t.Helper()
	if opts.Connect == nil {
		opts.Connect = lineConnect
	}
	if opts.StopGrace == (StopGrace{}) {
		opts.StopGrace = fastGrace
	}
	if opts.AfterStopTimeout == 0 {
		opts.AfterStopTimeout = 5 * time.Second
	}
	s := New(opts)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	return s
}

// waitState waits until an agent is in a state satisfying ok, and returns it.
func waitState(t *testing.T, s *Supervisor, name string, ok func(AgentState) bool, what string) AgentState {
	t.Helper()
	events, cancel := s.Subscribe()
	defer cancel()
	timeout := time.After(deadline)
	for {
		select {
		case ev := <-events:
			for _, st := range ev.States {
				if st.Name == name && ok(st) {
					return st
				}
			}
		case <-timeout:
			t.Fatalf("%s: still %+v", what, s.State(name))
		}
	}
}

func inState(want State) func(AgentState) bool {
	return func(st AgentState) bool { return st.State == want }
}

// waitLog waits until an agent's log has a line containing text.
func waitLog(t *testing.T, log *AgentLog, text string) {
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
			t.Fatalf("no log line with %q in:\n%s", text, logText(log))
		}
	}
}

func logHas(log *AgentLog, text string) bool {
	return strings.Contains(logText(log), text)
}

func logText(log *AgentLog) string {
	var b strings.Builder
	for _, l := range log.Lines() {
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

// acquire gets a lease or fails the test.
func acquire(t *testing.T, s *Supervisor, name string) *Lease {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	l, err := s.Acquire(ctx, name)
	if err != nil {
		t.Fatalf("acquiring %s: %v", name, err)
	}
	return l
}

// processGone waits until a process no longer exists (or is a zombie nobody reaped yet).
func processGone(t *testing.T, pid int) {
	t.Helper()
	end := time.Now().Add(deadline)
	for time.Now().Before(end) {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return
		}
		if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
			if f := strings.Fields(string(b)); len(f) > 2 && f[2] == "Z" {
				return
			}
		}
		time.Sleep(10 * time.Millisecond) // no event tells that another process died
	}
	t.Fatalf("process %d still alive", pid)
}
