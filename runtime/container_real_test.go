package runtime

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/testengine"
)

// The container runtime on a real Docker engine (testengine): the agent is the demo agent
// of a static Sidekicks inside the tests' BusyBox image, reached with docker exec -i.

// acpConn is the least of an ACP client that the demo agent needs: requests written as
// lines, answers read back; requests from the agent are not expected.
type acpConn struct {
	p     *Process
	lines chan []byte
	mu    sync.Mutex
	id    int
}

func (c *acpConn) Close() error { return nil }

// call sends a request and returns its result and the notifications that came before it,
// failing when no answer comes within the deadline.
func (c *acpConn) call(method string, params any) (json.RawMessage, []string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.id++
	req, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.id, "method": method, "params": params})
	if err != nil {
		return nil, nil, err
	}
	if _, err := c.p.Stdin.Write(append(req, '\n')); err != nil {
		return nil, nil, err
	}
	var notes []string
	timeout := time.After(deadline)
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				return nil, notes, errors.New("the agent's output ended")
			}
			var msg struct {
				ID     *int            `json:"id"`
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if err := json.Unmarshal(line, &msg); err != nil {
				return nil, notes, fmt.Errorf("%q: %w", line, err)
			}
			switch {
			case msg.ID == nil:
				notes = append(notes, string(line))
			case *msg.ID != c.id:
				return nil, notes, fmt.Errorf("an answer to %d, or a request, while waiting for %d: %s", *msg.ID, c.id, line)
			case msg.Error != nil:
				return nil, notes, fmt.Errorf("%s: %s", method, msg.Error)
			default:
				return msg.Result, notes, nil
			}
		case <-timeout:
			return nil, notes, fmt.Errorf("%s: no answer within %v", method, deadline)
		}
	}
}

// acpConnect initializes the agent.
func acpConnect(ctx context.Context, a config.Agent, p *Process) (Conn, error) {
	c := &acpConn{p: p, lines: make(chan []byte, 64)}
	go func() {
		defer close(c.lines)
		sc := bufio.NewScanner(p.Stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			c.lines <- append([]byte(nil), sc.Bytes()...)
		}
	}()
	if _, _, err := c.call("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{}}); err != nil {
		return nil, err
	}
	return c, nil
}

// echo asks the agent in its container for /echo TEXT and returns what it said.
func echo(t *testing.T, l *Lease, cwd, text string) string {
	t.Helper()
	c := l.Conn().(*acpConn)
	res, _, err := c.call("session/new", map[string]any{"cwd": cwd, "mcpServers": []any{}})
	if err != nil {
		t.Fatal(err)
	}
	var session struct {
		SessionID string `json:"sessionId"`
	}
	if err := json.Unmarshal(res, &session); err != nil || session.SessionID == "" {
		t.Fatalf("session/new answered %s (%v)", res, err)
	}
	_, notes, err := c.call("session/prompt", map[string]any{"sessionId": session.SessionID,
		"prompt": []any{map[string]any{"type": "text", "text": "/echo " + text}}})
	if err != nil {
		t.Fatal(err)
	}
	var said strings.Builder
	for _, n := range notes {
		var u struct {
			Params struct {
				Update struct {
					Kind    string `json:"sessionUpdate"`
					Content struct {
						Text string `json:"text"`
					} `json:"content"`
				} `json:"update"`
			} `json:"params"`
		}
		if json.Unmarshal([]byte(n), &u) == nil && u.Params.Update.Kind == "agent_message_chunk" {
			said.WriteString(u.Params.Update.Content.Text)
		}
	}
	return said.String()
}

// realAgent is the demo agent in the container name on engine e, its workspace a local
// folder mounted at /work; lifecycle.create makes the container from the tests' image,
// stop and remove stop and remove it. The agent's command runs shell when not empty (sh -c
// SHELL, which ends by running the agent), else the agent itself.
func realAgent(t *testing.T, e *testengine.Engine, name, shell string) config.Agent {
	t.Helper()
	docker, err := exec.LookPath("docker")
	if err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	args := []string{"exec", "-i", "-w", "/work", name, "sidekicks", "demo-agent", "--delay", "0"}
	if shell != "" {
		args = []string{"exec", "-i", "-w", "/work", name, "sh", "-c", shell}
	}
	return config.Agent{
		Name: "boxed", Command: "docker", CommandPath: docker, Args: args, Workspace: ws,
		Env: map[string]string{"DOCKER_HOST": e.Host},
		Runtime: config.Runtime{Type: "container", Container: name, WorkspacePath: "/work", Lifecycle: config.Lifecycle{
			Folder: ws,
			Create: []string{"docker", "run", "-d", "--name", name, "--network", "none", "-v", ws + ":/work", e.Image(t), "sleep", "3600"},
			Stop:   []string{"docker", "stop", "-t", "1", name},
			Remove: []string{"docker", "rm", "-f", name},
		}},
	}
}

// containerRuns says whether the container exists and whether it runs, as the engine
// says it (not through the code under test).
func containerRuns(t *testing.T, e *testengine.Engine, name string) (exists, running bool) {
	t.Helper()
	out, err := e.Run(nil, "container", "inspect", "--format", "{{.State.Running}}", name)
	if err != nil {
		if strings.Contains(strings.ToLower(err.Error()), "no such") {
			return false, false
		}
		t.Fatal(err)
	}
	return true, out == "true"
}

// stopInside, on its own (on this computer's engine the stop of the agent's tree finds the
// container's processes first, by their tag): every process of the container that carries
// the tag is stopped, even one that ignores SIGTERM, and the log says which; the others
// are left alone.
func TestRealContainerStopInside(t *testing.T) {
	e := testengine.Require(t)
	name := e.Container(t, e.Image(t))
	e.Docker(t, "exec", "-d", "-e", ProcessTagEnv+"=tag-1", name, "sleep", "1000")
	e.Docker(t, "exec", "-d", "-e", ProcessTagEnv+"=tag-1", name, "sh", "-c", "trap '' TERM; sleep 1001")
	e.Docker(t, "exec", "-d", "-e", ProcessTagEnv+"=tag-12", name, "sleep", "1012")
	e.Docker(t, "exec", "-d", name, "sleep", "2000")
	for _, c := range []string{"sleep 1000", "sleep 1001", "sleep 1012", "sleep 2000"} {
		waitInside(t, e, name, c)
	}
	logs := NewLogs(LogsOptions{})
	log := logs.Agent("boxed")
	a := config.Agent{CommandPath: "/usr/bin/docker", Args: []string{"exec", "-i", name, "agent"}, Env: map[string]string{"DOCKER_HOST": e.Host}}
	stopInside(a, &Process{tag: "tag-1"}, StopGrace{AfterTerm: 300 * time.Millisecond}, time.Minute, log)
	for _, c := range []string{"sleep 1000", "sleep 1001"} {
		if left := e.Running(t, name, c); left != "" {
			t.Errorf("%s, of the tag, still runs: %s", c, left)
		}
	}
	for _, c := range []string{"sleep 1012", "sleep 2000"} {
		if e.Running(t, name, c) == "" {
			t.Errorf("%s, not of the tag, was stopped", c)
		}
	}
	if !logHas(log, "what the agent left running: process ") {
		t.Errorf("the log does not say what was stopped: %s", logText(log))
	}
}

// Without grep (the shell is dash, which has no BusyBox applets), the stop inside cannot
// look for the agent's processes: the log says so, and why.
func TestRealContainerStopInsideSaysWhatTheImageLacks(t *testing.T) {
	e := testengine.Require(t)
	name := e.Container(t, e.ImageWith(t, testengine.ImageSpec{Applets: []string{"sleep", "tr"},
		Programs: map[string]string{"bin/sh": "/bin/dash"}}))
	log := NewLogs(LogsOptions{}).Agent("boxed")
	a := config.Agent{CommandPath: "/usr/bin/docker", Args: []string{"exec", "-i", name, "agent"}, Env: map[string]string{"DOCKER_HOST": e.Host}}
	stopInside(a, &Process{tag: "tag-1"}, StopGrace{AfterTerm: 300 * time.Millisecond}, time.Minute, log)
	if want := fmt.Sprintf("could not stop what the agent left in container %q: docker exec: the image lacks grep", name); !logHas(log, want) {
		t.Errorf("the log does not say %q: %s", want, logText(log))
	}
}

// goneInside waits until no process with that command line runs in the container, and
// fails the test with what when one still does after the deadline.
func goneInside(t *testing.T, e *testengine.Engine, name, cmdline, what string) {
	t.Helper()
	end := time.Now().Add(deadline)
	for {
		left := e.Running(t, name, cmdline)
		if left == "" {
			return
		}
		if time.Now().After(end) {
			t.Errorf("%s: %s", what, left)
			return
		}
	}
}

// waitInside waits until a process with that command line runs in the container.
func waitInside(t *testing.T, e *testengine.Engine, name, cmdline string) {
	t.Helper()
	end := time.Now().Add(deadline)
	for e.Running(t, name, cmdline) == "" {
		if time.Now().After(end) {
			t.Fatalf("%s does not run in the container", cmdline)
		}
	}
}

// On the real engine: a missing container is created by lifecycle.create (the existence
// check said so), the agent answers through docker exec -i, files written through docker
// exec land in the mounted workspace; lifecycle.stop stops the container, the next turn
// starts it again with docker start; lifecycle.remove removes it, and the terminal's check
// then says it does not exist.
func TestRealContainerLifecycle(t *testing.T) {
	e := testengine.Require(t)
	name := e.Name(t)
	a := realAgent(t, e, name, "")
	s := newTestSupervisor(t, Options{Agents: []config.Agent{a}, Connect: acpConnect})
	ctx := context.Background()

	if err := CheckEngine(ctx, a, 0); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("the check of a missing container: %v", err)
	}
	l := acquire(t, s, "boxed")
	if exists, running := containerRuns(t, e, name); !exists || !running {
		t.Fatalf("after the start, the container exists: %v, runs: %v", exists, running)
	}
	if !logHas(s.Logs().Agent("boxed"), "exec -e "+ProcessTagEnv+" -i -w /work "+name+" sidekicks demo-agent") {
		t.Errorf("the log does not show the command that ran, the tag passed in: %s", logText(s.Logs().Agent("boxed")))
	}
	if !logHas(s.Logs().Agent("boxed"), "does not exist: running lifecycle.create") {
		t.Errorf("the log does not say the container was created: %v", logText(s.Logs().Agent("boxed")))
	}
	if got := echo(t, l, "/work", "hello from the box"); got != "hello from the box" {
		t.Errorf("the agent in the container said %q", got)
	}
	l.Release()
	if err := CheckEngine(ctx, a, 0); err != nil {
		t.Errorf("the check of the running container: %v", err)
	}

	w := NewContainerWorkspace(name, a.Runtime.WorkspacePath, a.Env, nil)
	if err := w.WriteFile(ctx, "notes/today.md", []byte("written inside")); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(a.Workspace, "notes", "today.md")); err != nil || string(data) != "written inside" {
		t.Errorf("the file in the mounted workspace: %q, %v", data, err)
	}
	list, err := w.List(ctx, "notes")
	if err != nil || len(list) != 1 || list[0].Name != "today.md" || list[0].Size != int64(len("written inside")) {
		t.Errorf("the listing of notes: %+v, %v", list, err)
	}

	if err := s.StopContainer(ctx, "boxed"); err != nil {
		t.Fatal(err)
	}
	if st := s.State("boxed"); st.State != Stopped {
		t.Errorf("after lifecycle.stop the agent is %+v", st)
	}
	if exists, running := containerRuns(t, e, name); !exists || running {
		t.Fatalf("after lifecycle.stop, the container exists: %v, runs: %v", exists, running)
	}

	l = acquire(t, s, "boxed")
	if !logHas(s.Logs().Agent("boxed"), fmt.Sprintf("starting container %q", name)) {
		t.Errorf("the log does not say the stopped container was started")
	}
	if _, running := containerRuns(t, e, name); !running {
		t.Error("the stopped container was not started")
	}
	if got := echo(t, l, "/work", "again"); got != "again" {
		t.Errorf("the agent in the restarted container said %q", got)
	}
	l.Release()

	if err := s.RemoveContainer(ctx, "boxed"); err != nil {
		t.Fatal(err)
	}
	if exists, _ := containerRuns(t, e, name); exists {
		t.Error("the container still exists after lifecycle.remove")
	}
	if err := CheckEngine(ctx, a, 0); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("the check after the removal: %v", err)
	}
}

// docker exec forwards no signal: an agent that started something in its container (here
// sh -c 'sleep 1000 & exec sidekicks demo-agent') leaves it running there when its client
// is stopped. Sidekicks stops, from inside, what carries the agent's tag: after a stop,
// and after the agent ended by itself; a process of the same container that is not the
// agent's is left alone.
func TestRealContainerStopEndsWhatTheAgentStarted(t *testing.T) {
	e := testengine.Require(t)
	name := e.Name(t)
	a := realAgent(t, e, name, "sleep 1000 & exec sidekicks demo-agent --delay 0")
	s := newTestSupervisor(t, Options{Agents: []config.Agent{a}, Connect: acpConnect,
		StopGrace: StopGrace{AfterStdin: time.Second, AfterTerm: time.Second, Drain: 500 * time.Millisecond}})
	e.Docker(t, "run", "-d", "--name", name, "--network", "none", "-v", a.Workspace+":/work", e.Image(t), "sleep", "3600")
	e.Docker(t, "exec", "-d", name, "sleep", "2000") // not the agent's

	t.Run("stopped", func(t *testing.T) {
		acquire(t, s, "boxed").Release()
		if e.Running(t, name, "sleep 1000") == "" {
			t.Fatal("the agent's sleep does not run in the container")
		}
		if err := s.Stop("boxed"); err != nil {
			t.Fatal(err)
		}
		goneInside(t, e, name, "sleep 1000", "after the stop, the agent's sleep still runs in the container")
	})
	t.Run("ended by itself", func(t *testing.T) {
		l := acquire(t, s, "boxed")
		if e.Running(t, name, "sleep 1000") == "" {
			t.Fatal("the agent's sleep does not run in the container")
		}
		c := l.Conn().(*acpConn)
		res, _, err := c.call("session/new", map[string]any{"cwd": "/work", "mcpServers": []any{}})
		if err != nil {
			t.Fatal(err)
		}
		var session struct {
			SessionID string `json:"sessionId"`
		}
		_ = json.Unmarshal(res, &session)
		_, _, _ = c.call("session/prompt", map[string]any{"sessionId": session.SessionID,
			"prompt": []any{map[string]any{"type": "text", "text": "/crash"}}})
		l.Release()
		waitState(t, s, "boxed", func(st AgentState) bool { return st.State == Error }, "the crash")
		goneInside(t, e, name, "sleep 1000", "after the agent crashed, its sleep still runs in the container")
	})
	if e.Running(t, name, "sleep 2000") == "" {
		t.Error("a process of the container that was not the agent's was stopped too")
	}
}

// An agent whose env sets DOCKER_HOST runs on that engine, with everything Sidekicks asks
// of the engine for it: here a second engine on a loopback TCP port, where the container
// is created, the agent answers and files are written; the tests' own engine never sees
// the container.
func TestRealContainerOnAnotherEngine(t *testing.T) {
	first := testengine.Require(t)
	second := testengine.StartSecond(t)
	name := first.Name(t) // the cleanup of the first engine removes nothing of the second
	a := realAgent(t, second, name, "")
	s := newTestSupervisor(t, Options{Agents: []config.Agent{a}, Connect: acpConnect})
	t.Cleanup(func() { _, _ = second.Run(nil, "rm", "-f", name) })

	l := acquire(t, s, "boxed")
	if got := echo(t, l, "/work", "from afar"); got != "from afar" {
		t.Errorf("the agent on the second engine said %q", got)
	}
	l.Release()
	if exists, running := containerRuns(t, second, name); !exists || !running {
		t.Errorf("on the second engine, the container exists: %v, runs: %v", exists, running)
	}
	if exists, _ := containerRuns(t, first, name); exists {
		t.Error("the container was made on the tests' own engine, not on the agent's")
	}
	w := NewContainerWorkspace(name, "/work", a.Env, nil)
	if err := w.WriteFile(context.Background(), "far.txt", []byte("far")); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(a.Workspace, "far.txt")); err != nil || string(data) != "far" {
		t.Errorf("the file written on the second engine: %q, %v", data, err)
	}
	if err := CheckEngine(context.Background(), a, 0); err != nil {
		t.Errorf("the terminal's check on the second engine: %v", err)
	}
	if err := s.RemoveContainer(context.Background(), "boxed"); err != nil {
		t.Fatal(err)
	}
	if exists, _ := containerRuns(t, second, name); exists {
		t.Error("lifecycle.remove did not remove the container from the second engine")
	}
}

// The Files scripts need sh, readlink -f, stat -c and a few more in the image: one that
// lacks them gets an error that says what is missing and what is needed, in English and
// in French, not a misleading "no such file" or an empty folder.
func TestRealContainerFilesNeedTools(t *testing.T) {
	e := testengine.Require(t)
	// BusyBox's sh runs its applets even without their links: the shell here is dash.
	dash := map[string]string{"bin/sh": "/bin/dash"}
	others := []string{"sleep", "mkdir", "head", "tail", "cat", "find", "mktemp", "mv", "rm", "chmod"}
	noOption := "#!/bin/sh\ncase $1 in -?) echo \"$0: unknown option $1\" >&2; exit 1;; esac\nexec busybox ${0##*/} \"$@\"\n"
	cases := []struct {
		name    string
		spec    testengine.ImageSpec
		missing string
	}{
		{"no sh", testengine.ImageSpec{Applets: []string{"sleep", "mkdir"}}, "sh"},
		{"no readlink nor stat", testengine.ImageSpec{Applets: others, Programs: dash}, "readlink, stat"},
		{"a readlink without -f", testengine.ImageSpec{Applets: append(others, "stat"), Programs: dash,
			Scripts: map[string]string{"bin/readlink": noOption}}, "readlink -f"},
		{"a stat without -c", testengine.ImageSpec{Applets: append(others, "readlink"), Programs: dash,
			Scripts: map[string]string{"bin/stat": noOption}}, "stat -c"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			name := e.Container(t, e.ImageWith(t, c.spec))
			e.Docker(t, "exec", name, "mkdir", "-p", "/ws/sub")
			w := NewContainerWorkspace(name, "/ws", map[string]string{"DOCKER_HOST": e.Host}, nil)
			_, err := w.List(context.Background(), ".")
			var missing *ToolsMissingError
			if !errors.As(err, &missing) {
				t.Fatalf("listing: %v, want a *ToolsMissingError", err)
			}
			want := fmt.Sprintf("the container %q lacks %s: its files are reached with sh, readlink -f, stat -c", name, c.missing)
			if !strings.HasPrefix(missing.Text(i18n.English), want) {
				t.Errorf("English: %q, want it to start with %q", missing.Text(i18n.English), want)
			}
			if fr := missing.Text(i18n.French); !strings.HasPrefix(fr, fmt.Sprintf("il manque %s au conteneur %q", c.missing, name)) {
				t.Errorf("French: %q", fr)
			}
			// A new file needs no stat: the second write, over it, does.
			_ = w.WriteFile(context.Background(), "a.txt", []byte("x"))
			if err := w.WriteFile(context.Background(), "a.txt", []byte("y")); !errors.As(err, &missing) {
				t.Errorf("writing: %v, want a *ToolsMissingError", err)
			}
		})
	}
}
