package runtime

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// The stand-in engines hang on one command each: the start fails once its bound has
// passed, with the reason, and the hung command is stopped. The bound (1.5 s) leaves the
// commands that answer, stand-in scripts, room to answer on a loaded machine.
func TestHangingEngineCommandsFailTheStart(t *testing.T) {
	const timeout = 1500 * time.Millisecond
	tests := []struct {
		name, kind, state, hang string
		env                     map[string]string
		want, wantFR            string
	}{
		{"sbx ls", "sbx", "running", "sbx ls", nil,
			"listing sandboxes: the sbx engine did not answer within 1500 ms (sbx ls)",
			"le moteur sbx n'a pas répondu en 1500 ms (sbx ls)"},
		{"docker start", "container", "stopped", "docker start", map[string]string{"DOCKER_HOST": "ssh://me@build-box"},
			`starting container "box": the Docker engine at ssh://me@build-box did not answer within 1500 ms (docker start box)`,
			"le moteur Docker à ssh://me@build-box n'a pas répondu en 1500 ms (docker start box)"},
		{"docker inspect", "container", "running", "docker container", map[string]string{"DOCKER_HOST": "tcp://10.0.0.9:2375"},
			`checking container "box": the Docker engine at tcp://10.0.0.9:2375 did not answer within 1500 ms (docker container inspect box)`,
			"le moteur Docker à tcp://10.0.0.9:2375 n'a pas répondu en 1500 ms (docker container inspect box)"},
		{"lifecycle.create of a container", "container", "", "docker run", nil,
			`creating container "box": lifecycle.create did not end within 1500 ms and was stopped (docker run -d --name box img)`,
			"lifecycle.create n'a pas fini en 1500 ms et a été arrêté (docker run -d --name box img)"},
		{"lifecycle.create of a sandbox", "sbx", "", "sbx env", nil,
			`creating sandbox "sandy": lifecycle.create did not end within 1500 ms and was stopped (sbx env create --force)`,
			"lifecycle.create n'a pas fini en 1500 ms et a été arrêté (sbx env create --force)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eng := newFakeEngines(t)
			t.Setenv("FAKE_ENGINE_HANG", tt.hang)
			a := engineAgent(t, eng, tt.kind)
			for k, v := range tt.env {
				a.Env[k] = v
			}
			eng.set(a.Runtime.Container+a.Runtime.Sandbox, tt.state)
			s := newTestSupervisor(t, Options{Agents: []config.Agent{a}, EngineTimeout: timeout, LifecycleTimeout: timeout})
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			defer cancel()
			r := answerOf(t, "the start", acquireAsync(ctx, s, "alice"))
			var late *EngineTimeoutError
			if !errors.As(r.err, &late) || !strings.Contains(r.err.Error(), tt.want) {
				t.Fatalf("start: %v\nwant an *EngineTimeoutError saying %q", r.err, tt.want)
			}
			if got := late.Text(i18n.French); got != tt.wantFR {
				t.Errorf("in French: %q\nwant %q", got, tt.wantFR)
			}
			if st := s.State("alice"); st.State != Error || !strings.Contains(st.Reason, tt.want) {
				t.Errorf("state %+v", st)
			}
			if n, _ := s.Running(); n != 0 {
				t.Errorf("%d slots held after the failed start", n)
			}
			pids := eng.hung()
			if len(pids) != 1 {
				t.Fatalf("hung calls: %v, want the one of %q", pids, tt.hang)
			}
			processGone(t, pids[0])
		})
	}
}

// File operations through a stand-in engine that hangs on exec fail once their timeout
// has passed, and the hung command is stopped.
func TestHangingExecTimesOut(t *testing.T) {
	for _, kind := range []string{"docker", "sbx"} {
		t.Run(kind, func(t *testing.T) {
			eng := newFakeEngines(t)
			t.Setenv("FAKE_ENGINE_HANG", kind+" exec")
			root := t.TempDir()
			w := NewContainerWorkspace("box", root, nil, nil)
			want := "the Docker engine at ssh://build-box did not answer within 250 ms (docker exec box)"
			if kind == "sbx" {
				w = NewSandboxWorkspace("sandy", root, nil, nil)
				want = "the sbx engine did not answer within 250 ms (sbx exec sandy)"
			}
			w.env = append(w.env, "DOCKER_HOST=ssh://build-box")
			w.timeout = 250 * time.Millisecond
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			defer cancel()
			_, err := w.List(ctx, ".")
			var late *EngineTimeoutError
			if !errors.As(err, &late) || !strings.Contains(err.Error(), want) {
				t.Fatalf("list: %v\nwant an *EngineTimeoutError saying %q", err, want)
			}
			if ctx.Err() != nil {
				t.Fatal("the list outlived the test's deadline")
			}
			pids := eng.hung()
			if len(pids) != 1 {
				t.Fatalf("hung calls: %v", pids)
			}
			processGone(t, pids[0])
		})
	}
}

// The engine's address, as docker chooses it: DOCKER_HOST (the agent's, then
// Sidekicks'), else the endpoint of DOCKER_CONTEXT or of the configuration's current
// context, else the local socket; a password is hidden, and a context's file that is a
// named pipe does not block.
func TestDockerAddress(t *testing.T) {
	dir := t.TempDir()
	meta := func(name, host string) {
		t.Helper()
		sum := sha256.Sum256([]byte(name))
		d := filepath.Join(dir, "contexts", "meta", hex.EncodeToString(sum[:]))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if host == "" {
			if err := syscall.Mkfifo(filepath.Join(d, "meta.json"), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		data := `{"Name":"` + name + `","Endpoints":{"docker":{"Host":"` + host + `"}}}`
		if err := os.WriteFile(filepath.Join(d, "meta.json"), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	meta("build", "ssh://me@build-box")
	meta("current", "tcp://10.1.2.3:2376")
	meta("pipe", "")
	tests := []struct {
		name    string
		process map[string]string // Sidekicks' environment
		agent   []string          // the agent's env
		config  string            // config.json
		want    string
	}{
		{"agent DOCKER_HOST wins", map[string]string{"DOCKER_HOST": "tcp://a:1", "DOCKER_CONTEXT": "build"}, []string{"DOCKER_HOST=tcp://b:2"}, "", "tcp://b:2"},
		{"Sidekicks' DOCKER_HOST", map[string]string{"DOCKER_HOST": "tcp://a:1"}, nil, "", "tcp://a:1"},
		{"DOCKER_HOST over DOCKER_CONTEXT", nil, []string{"DOCKER_CONTEXT=build", "DOCKER_HOST=unix:///run/other.sock"}, "", "unix:///run/other.sock"},
		{"DOCKER_CONTEXT", nil, []string{"DOCKER_CONTEXT=build"}, `{"currentContext":"current"}`, "ssh://me@build-box"},
		{"current context", nil, nil, `{"currentContext":"current"}`, "tcp://10.1.2.3:2376"},
		{"unknown context", nil, []string{"DOCKER_CONTEXT=ghost"}, "", "context ghost"},
		{"a named pipe for a context", nil, []string{"DOCKER_CONTEXT=pipe"}, "", "context pipe"},
		{"default context", nil, []string{"DOCKER_CONTEXT=default"}, `{"currentContext":"current"}`, "unix:///var/run/docker.sock"},
		{"nothing set", nil, nil, "", "unix:///var/run/docker.sock"},
		{"password hidden", nil, []string{"DOCKER_HOST=tcp://me:secret@h:2376"}, "", "tcp://me:xxxxx@h:2376"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, k := range []string{"DOCKER_HOST", "DOCKER_CONTEXT"} {
				t.Setenv(k, tt.process[k])
			}
			t.Setenv("DOCKER_CONFIG", dir)
			cfg := filepath.Join(dir, "config.json")
			if err := os.WriteFile(cfg, []byte(tt.config), 0o644); err != nil {
				t.Fatal(err)
			}
			if got := dockerAddress(tt.agent); got != tt.want {
				t.Errorf("dockerAddress = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestDurationText(t *testing.T) {
	for d, want := range map[time.Duration][2]string{
		30 * time.Second:        {"30 s", "30 s"},
		10 * time.Minute:        {"10 min", "10 min"},
		90 * time.Second:        {"90 s", "90 s"},
		300 * time.Millisecond:  {"300 ms", "300 ms"},
		1500 * time.Millisecond: {"1500 ms", "1500 ms"},
	} {
		if got := durationText(d, i18n.English); got != want[0] {
			t.Errorf("%v in English: %q, want %q", d, got, want[0])
		}
		if got := durationText(d, i18n.French); got != want[1] {
			t.Errorf("%v in French: %q, want %q", d, got, want[1])
		}
	}
}

// Giving up the only turn that waits for a sandbox agent whose sbx hangs cancels the start
// at once, long before the engine timeout: the hung sbx is killed, the slot is freed, and
// the next message starts the agent again.
func TestGivingUpCancelsAHangingSbxStart(t *testing.T) {
	eng, s, ctx, cancel := hangingSbxStart(t, time.Minute)
	done := acquireAsync(ctx, s, "alice")
	pid := hungSbx(t, eng)
	startCancelled(t, s, cancel, done, func() { processGone(t, pid) })
	if n, _ := s.Running(); n != 0 {
		t.Errorf("%d slots held after the cancelled start", n)
	}

	t.Setenv("FAKE_ENGINE_HANG", "")
	l := acquire(t, s, "alice")
	if got, _ := l.Conn().(*lineConn).ask("ping"); got != "pong" {
		t.Errorf("the agent started again answered %q", got)
	}
	l.Release()
}

// hangingSbxStart is a supervisor of a sandbox agent, alice, whose sbx hangs on "sbx ls",
// with the engine timeout given, and a context for a turn to give up.
func hangingSbxStart(t *testing.T, engineTimeout time.Duration) (*fakeEngines, *Supervisor, context.Context, context.CancelFunc) {
	t.Helper()
	eng := newFakeEngines(t)
	// The pipe the hung stand-in writes its process id to, made before anything can start
	// it (hungSbx reads it).
	if err := syscall.Mkfifo(eng.log+".hung", 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("FAKE_ENGINE_HANG", "sbx ls")
	a := engineAgent(t, eng, "sbx")
	eng.set("sandy", "running")
	s := newTestSupervisor(t, Options{Agents: []config.Agent{a}, EngineTimeout: engineTimeout})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return eng, s, ctx, cancel
}

// givenUp cancels a turn's context and checks that its Acquire gave up.
func givenUp(t *testing.T, cancel context.CancelFunc, done <-chan acquired) {
	t.Helper()
	cancel()
	if r := answerOf(t, "the cancelled turn", done); !errors.Is(r.err, context.Canceled) {
		t.Fatalf("the cancelled turn: %v", r.err)
	}
}

// startCancelled gives up the only turn that waits for alice's start, and checks that the
// start ends at once: alice stopped, and gone (the engine's command killed) holds.
func startCancelled(t *testing.T, s *Supervisor, cancel context.CancelFunc, done <-chan acquired, gone func()) {
	t.Helper()
	cancelled := time.Now()
	givenUp(t, cancel, done)
	waitState(t, s, "alice", inState(Stopped), "alice's start is cancelled")
	gone()
	if took := time.Since(cancelled); took > 10*time.Second {
		t.Errorf("the start took %v to end after the cancel", took)
	}
	if log := s.Logs().Agent("alice"); !logHas(log, "start cancelled") {
		t.Errorf("alice's log does not say the start was cancelled:\n%s", logText(log))
	}
}

// hungSbx waits for the stand-in to hang (FAKE_ENGINE_HANG) and returns its process id:
// the stand-in writes it to the named pipe hangingSbxStart made, which this reads.
func hungSbx(t *testing.T, eng *fakeEngines) int {
	t.Helper()
	hung := make(chan string, 1)
	go func() {
		b, _ := os.ReadFile(eng.log + ".hung")
		hung <- strings.TrimSpace(string(b))
	}()
	select {
	case p := <-hung:
		pid, err := strconv.Atoi(p)
		if err != nil {
			t.Fatalf("the hung stand-in wrote %q", p)
		}
		return pid
	case <-time.After(deadline):
		t.Fatal("the stand-in never hung")
		return 0
	}
}

// A start goes on while another turn still waits for it: giving up one of two turns on
// the same agent leaves the start to end as it will (here, at the engine timeout).
func TestGivingUpOneOfTwoTurnsKeepsTheStart(t *testing.T) {
	eng, s, ctx, cancel := hangingSbxStart(t, time.Second)
	first := acquireAsync(ctx, s, "alice")
	hungSbx(t, eng)
	second := acquireAsync(context.Background(), s, "alice")
	waitWanted(t, s, "alice", 2)
	givenUp(t, cancel, first)
	r := answerOf(t, "the second turn", second)
	var late *EngineTimeoutError
	if !errors.As(r.err, &late) {
		t.Fatalf("the second turn: %v, want the engine timeout (the start went on)", r.err)
	}
	if st := s.State("alice"); st.State != Error {
		t.Errorf("after the timeout: %+v", st)
	}
	if calls := argsOf(eng.calls()); len(calls) != 1 {
		t.Errorf("calls %q, want the one sbx ls of the one start", calls)
	}
	if log := s.Logs().Agent("alice"); logHas(log, "start cancelled") {
		t.Errorf("the start was cancelled while a turn waited for it:\n%s", logText(log))
	}
}

// waitWanted waits until n Acquire calls are in progress for the agent.
func waitWanted(t *testing.T, s *Supervisor, name string, n int) {
	t.Helper()
	end := time.Now().Add(deadline)
	for {
		s.mu.Lock()
		got := s.agents[name].wanted
		s.mu.Unlock()
		if got == n {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("%d Acquire calls in progress for %s, want %d", got, name, n)
		}
		time.Sleep(time.Millisecond) // no event tells that an Acquire waits for a start
	}
}
