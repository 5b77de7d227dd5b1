package workbench

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/runtime"
)

// deadline bounds every wait; reaching it is a failure, never a pass.
const deadline = 20 * time.Second

// agentModeVar makes the test binary a tiny agent: it says "ready" on stdout, then reads
// lines: "say TEXT" writes TEXT on stderr, "crash" writes three lines on stderr and exits
// with status 3; the end of stdin ends it.
const agentModeVar = "AGENTS_TEST_AGENT"

func TestMain(m *testing.M) {
	if os.Getenv(agentModeVar) != "" {
		os.Exit(testAgent())
	}
	os.Exit(m.Run())
}

func testAgent() int {
	fmt.Println("ready")
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		line := in.Text()
		switch {
		case strings.HasPrefix(line, "say "):
			fmt.Fprintln(os.Stderr, strings.TrimPrefix(line, "say "))
		case line == "crash":
			for i := 1; i <= 3; i++ {
				fmt.Fprintf(os.Stderr, "boom %d\n", i)
			}
			return 3
		}
	}
	return 0
}

// testAgentConfig is an agent played by the test binary, on this computer.
func testAgentConfig(t *testing.T, name, title, icon string) config.Agent {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return config.Agent{
		Name: name, Title: title, Icon: icon, Command: exe, CommandPath: exe,
		// GORACE: a race-enabled binary otherwise sleeps a second when it exits.
		Env:       map[string]string{agentModeVar: "1", "AGENT_TAG": name, "GORACE": "atexit_sleep_ms=0"},
		Workspace: ws,
		Runtime:   config.Runtime{Type: "local", WorkspacePath: ws},
	}
}

// inEngine makes an agent run through the stand-in docker (kind "container", container
// "box") or sbx (kind "sbx", sandbox "sandy"), with lifecycle commands when given.
func inEngine(a config.Agent, kind string, lifecycle config.Lifecycle) config.Agent {
	testBin := a.CommandPath
	switch kind {
	case "container":
		a.Command, a.CommandPath = "docker", "docker"
		a.Args = []string{"exec", "-i", "box", testBin}
		a.Runtime = config.Runtime{Type: "container", Container: "box", WorkspacePath: a.Workspace, Lifecycle: lifecycle}
	case "sbx":
		a.Command, a.CommandPath = "sbx", "sbx"
		a.Args = []string{"exec", "-i", "sandy", testBin}
		a.Runtime = config.Runtime{Type: "sbx", Sandbox: "sandy", WorkspacePath: a.Workspace, Lifecycle: lifecycle}
	}
	return a
}

// processes remembers each agent's running process, for tests to talk to it.
type processes struct {
	mu    sync.Mutex
	procs map[string]*runtime.Process
}

type nopConn struct{}

func (nopConn) Close() error { return nil }

// connect is the supervisor's Connect: it waits for the agent's "ready".
func (ps *processes) connect(ctx context.Context, a config.Agent, p *runtime.Process) (runtime.Conn, error) {
	got := make(chan error, 1)
	go func() {
		line, err := bufio.NewReader(p.Stdout).ReadString('\n')
		if err == nil && strings.TrimSpace(line) != "ready" {
			err = fmt.Errorf("unexpected %q", line)
		}
		got <- err
	}()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case err := <-got:
		if err != nil {
			return nil, err
		}
	}
	ps.mu.Lock()
	ps.procs[a.Name] = p
	ps.mu.Unlock()
	return nopConn{}, nil
}

// send writes a line to an agent's stdin.
func (ps *processes) send(t *testing.T, name, line string) {
	t.Helper()
	ps.mu.Lock()
	p := ps.procs[name]
	ps.mu.Unlock()
	if p == nil {
		t.Fatalf("%s has no process", name)
	}
	if _, err := io.WriteString(p.Stdin, line+"\n"); err != nil {
		t.Fatalf("writing to %s: %v", name, err)
	}
}

// newSupervisor runs the agents for real; the test shuts it down at its end.
func newSupervisor(t *testing.T, agents ...config.Agent) (*runtime.Supervisor, *processes) {
	t.Helper()
	ps := &processes{procs: map[string]*runtime.Process{}}
	sup := runtime.New(runtime.Options{
		Agents: agents, MaxRunning: 2, Connect: ps.connect,
		StopGrace:        runtime.StopGrace{AfterStdin: 2 * time.Second, AfterTerm: time.Second, Drain: 200 * time.Millisecond},
		AfterStopTimeout: 5 * time.Second,
	})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		defer cancel()
		if err := sup.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	return sup, ps
}

// waitState waits until the supervisor says an agent is in a state.
func waitState(t *testing.T, sup *runtime.Supervisor, name string, want runtime.State) runtime.AgentState {
	t.Helper()
	events, cancel := sup.Subscribe()
	defer cancel()
	timeout := time.After(deadline)
	for {
		select {
		case ev := <-events:
			for _, st := range ev.States {
				if st.Name == name && st.State == want {
					return st
				}
			}
		case <-timeout:
			t.Fatalf("%s never became %s: %+v", name, want, sup.State(name))
		}
	}
}
