package runtime

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/config"
)

// engineAgent is an agent run through the stand-in engine ("docker exec -i box TESTBIN"
// or "sbx exec -i sandy TESTBIN"), with a lifecycle folder of its own.
func engineAgent(t *testing.T, eng *fakeEngines, kind string) config.Agent {
	t.Helper()
	a := testAgentConfig(t, "alice", "normal")
	a.Env["SIDEKICKS_TEST_VAR"] = "agent-env"
	folder := t.TempDir()
	folder, _ = filepath.EvalSymlinks(folder)
	testBin := a.CommandPath
	switch kind {
	case "container":
		a.Command, a.CommandPath = "docker", filepath.Join(eng.bin, "docker")
		a.Args = []string{"exec", "-i", "box", testBin}
		a.Runtime = config.Runtime{Type: "container", Container: "box", WorkspacePath: a.Workspace, Lifecycle: config.Lifecycle{
			Folder: folder,
			Create: []string{"docker", "run", "-d", "--name", "box", "img"},
			Stop:   []string{"docker", "stop", "box"},
			Remove: []string{"docker", "rm", "box"},
		}}
		t.Setenv("FAKE_CREATE_NAME", "box")
	case "sbx":
		a.Command, a.CommandPath = "sbx", filepath.Join(eng.bin, "sbx")
		a.Args = []string{"exec", "-i", "sandy", testBin}
		a.Runtime = config.Runtime{Type: "sbx", Sandbox: "sandy", WorkspacePath: a.Workspace, Lifecycle: config.Lifecycle{
			Folder: folder,
			Create: []string{"sbx", "env", "create", "--force"},
			Stop:   []string{"sbx", "stop", "sandy"},
			Remove: []string{"sbx", "env", "rm", "--force"},
		}}
		t.Setenv("FAKE_CREATE_NAME", "sandy")
	}
	return a
}

var inspectBox = []string{"docker", "container", "inspect", "--format", "{{.State.Running}}", "box"}

func TestContainerRuntime(t *testing.T) {
	tests := []struct {
		name    string
		state   string // "", "running", "stopped"
		env     map[string]string
		want    func(a config.Agent) [][]string
		wantErr string
	}{
		{"running", "running", nil, func(a config.Agent) [][]string {
			return [][]string{inspectBox, append([]string{"docker"}, agentArgs(a)...)}
		}, ""},
		{"stopped is started", "stopped", nil, func(a config.Agent) [][]string {
			return [][]string{inspectBox, {"docker", "start", "box"}, append([]string{"docker"}, agentArgs(a)...)}
		}, ""},
		{"missing is created", "", nil, func(a config.Agent) [][]string {
			return [][]string{inspectBox, a.Runtime.Lifecycle.Create, inspectBox, append([]string{"docker"}, agentArgs(a)...)}
		}, ""},
		{"missing is created stopped, then started", "", map[string]string{"FAKE_CREATE_STATE": "stopped"}, func(a config.Agent) [][]string {
			return [][]string{inspectBox, a.Runtime.Lifecycle.Create, inspectBox, {"docker", "start", "box"}, append([]string{"docker"}, agentArgs(a)...)}
		}, ""},
		{"create fails", "", map[string]string{"FAKE_CREATE_FAIL": "pull access denied for img"}, func(a config.Agent) [][]string {
			return [][]string{inspectBox, a.Runtime.Lifecycle.Create}
		}, `creating container "box": exit status 1: pull access denied for img`},
		{"create creates nothing", "", map[string]string{"FAKE_CREATE_NOOP": "1"}, func(a config.Agent) [][]string {
			return [][]string{inspectBox, a.Runtime.Lifecycle.Create, inspectBox}
		}, `container "box" still does not exist after lifecycle.create`},
		{"engine unreachable", "running", map[string]string{"FAKE_ENGINE_DOWN": "1"}, func(a config.Agent) [][]string {
			return [][]string{inspectBox}
		}, "Cannot connect to the engine"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eng := newFakeEngines(t)
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			eng.set("box", tt.state)
			a := engineAgent(t, eng, "container")
			s := newTestSupervisor(t, Options{Agents: []config.Agent{a}})
			l, err := s.Acquire(context.Background(), "alice")
			calls := eng.calls()
			if got, want := argsOf(calls), tt.want(a); !reflect.DeepEqual(got, want) {
				t.Errorf("calls\n%q\nwant\n%q", got, want)
			}
			for _, c := range calls {
				if c.Var != "agent-env" {
					t.Errorf("%q ran without the agent's env", c.Args)
				}
				if len(c.Args) > 1 && c.Args[1] == "run" && c.Dir != a.Runtime.Lifecycle.Folder {
					t.Errorf("create ran in %q, want the lifecycle folder", c.Dir)
				}
			}
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				if st := s.State("alice"); st.State != Error || !strings.Contains(st.Reason, tt.wantErr) {
					t.Errorf("state %+v", st)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := l.Conn().(*lineConn).ask("ping"); got != "pong" {
				t.Errorf("the agent in the container answered %q", got)
			}
			l.Release()
			if eng.get("box") != "running" {
				t.Errorf("container is %q", eng.get("box"))
			}
		})
	}
}

// Lifecycle output goes to the log prefixed "sandbox: ", with no stdin.
func TestLifecycleOutputAndStdin(t *testing.T) {
	eng := newFakeEngines(t)
	t.Setenv("FAKE_CREATE_FAIL", "no space left")
	a := engineAgent(t, eng, "container")
	s := newTestSupervisor(t, Options{Agents: []config.Agent{a}})
	if _, err := s.Acquire(context.Background(), "alice"); err == nil {
		t.Fatal("started without its container")
	}
	log := s.Logs().Agent("alice")
	for _, want := range []string{
		`sidekicks: container "box" does not exist: running lifecycle.create`,
		"sandbox: no space left",
		`sidekicks: could not start: creating container "box": exit status 1: no space left`,
	} {
		if !logHas(log, want) {
			t.Errorf("log lacks %q:\n%s", want, logText(log))
		}
	}
	if _, err := os.Stat("/proc/self/fd/0"); err == nil && !logHas(log, "sandbox: stdin /dev/null") {
		t.Errorf("lifecycle stdin is not /dev/null:\n%s", logText(log))
	}
}

func TestSandboxRuntime(t *testing.T) {
	lsq := []string{"sbx", "ls", "-q"}
	for _, tt := range []struct {
		name, state string
		want        func(a config.Agent) [][]string
	}{
		{"exists", "running", func(a config.Agent) [][]string {
			return [][]string{lsq, append([]string{"sbx"}, a.Args...)}
		}},
		{"stopped needs nothing", "stopped", func(a config.Agent) [][]string {
			return [][]string{lsq, append([]string{"sbx"}, a.Args...)}
		}},
		{"missing is created", "", func(a config.Agent) [][]string {
			return [][]string{lsq, a.Runtime.Lifecycle.Create, lsq, append([]string{"sbx"}, a.Args...)}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			eng := newFakeEngines(t)
			eng.set("other", "running")
			eng.set("sandy", tt.state)
			a := engineAgent(t, eng, "sbx")
			s := newTestSupervisor(t, Options{Agents: []config.Agent{a}})
			l := acquire(t, s, "alice")
			l.Release()
			calls := eng.calls()
			if got, want := argsOf(calls), tt.want(a); !reflect.DeepEqual(got, want) {
				t.Errorf("calls\n%q\nwant\n%q", got, want)
			}
			for _, c := range calls {
				if c.Var != "agent-env" {
					t.Errorf("%q ran without the agent's env", c.Args)
				}
				if c.Args[1] == "env" && c.Dir != a.Runtime.Lifecycle.Folder {
					t.Errorf("create ran in %q", c.Dir)
				}
			}
		})
	}
}

func TestStopAndRemoveContainer(t *testing.T) {
	for _, kind := range []string{"container", "sbx"} {
		t.Run(kind, func(t *testing.T) {
			eng := newFakeEngines(t)
			name := map[string]string{"container": "box", "sbx": "sandy"}[kind]
			eng.set(name, "running")
			a := engineAgent(t, eng, kind)
			s := newTestSupervisor(t, Options{Agents: []config.Agent{a}})
			acquire(t, s, "alice").Release()
			eng.calls()
			ctx := context.Background()
			if err := s.StopContainer(ctx, "alice"); err != nil {
				t.Fatal(err)
			}
			if st := s.State("alice"); st.State != Stopped {
				t.Errorf("the agent was not stopped first: %+v", st)
			}
			if err := s.RemoveContainer(ctx, "alice"); err != nil {
				t.Fatal(err)
			}
			calls := eng.calls()
			if kind == "container" {
				// What the agent left in the container is stopped from inside first.
				if len(calls) == 0 || !slices.Equal(calls[0].Args[:4], []string{"docker", "exec", "box", "sh"}) {
					t.Fatalf("the agent's processes in the container were not stopped: %q", argsOf(calls))
				}
				if c := calls[0]; c.Var != "agent-env" {
					t.Errorf("%q ran without the agent's env", c.Args)
				}
				calls = calls[1:]
			}
			want := [][]string{a.Runtime.Lifecycle.Stop, a.Runtime.Lifecycle.Remove}
			if got := argsOf(calls); !reflect.DeepEqual(got, want) {
				t.Errorf("calls\n%q\nwant\n%q", got, want)
			}
			for _, c := range calls {
				if c.Dir != a.Runtime.Lifecycle.Folder || c.Var != "agent-env" {
					t.Errorf("%q ran in %q with %q", c.Args, c.Dir, c.Var)
				}
			}
			if eng.get(name) != "" {
				t.Errorf("%s still exists", name)
			}
			b := a
			b.Runtime.Lifecycle.Stop = nil
			s.SetAgents([]config.Agent{b})
			if err := s.StopContainer(ctx, "alice"); err == nil || !strings.Contains(err.Error(), "lifecycle.stop") {
				t.Errorf("without lifecycle.stop: %v", err)
			}
		})
	}
}

func TestTerminalCommand(t *testing.T) {
	t.Setenv("SHELL", "/bin/zsh")
	env := map[string]string{"DOCKER_HOST": "ssh://build-box"}
	tests := []struct {
		agent config.Agent
		args  []string
		dir   string
	}{
		{config.Agent{Workspace: "/w", Env: env, Runtime: config.Runtime{Type: "local"}}, []string{"/bin/zsh"}, "/w"},
		{config.Agent{Workspace: "/w", Env: env, Runtime: config.Runtime{Type: "container", Container: "box", WorkspacePath: "/in/box"}},
			[]string{"docker", "exec", "-it", "-w", "/in/box", "box", "sh"}, ""},
		{config.Agent{Workspace: "/w", Env: env, Runtime: config.Runtime{Type: "sbx", Sandbox: "sandy", WorkspacePath: "/w"}},
			[]string{"sbx", "exec", "-it", "sandy", "sh", "-c", `cd -- "$1" && exec sh`, "sh", "/w"}, ""},
	}
	for _, tt := range tests {
		cmd := TerminalCommand(tt.agent)
		if !reflect.DeepEqual(cmd.Args, tt.args) || cmd.Dir != tt.dir {
			t.Errorf("%s: %q in %q, want %q in %q", tt.agent.Runtime.Type, cmd.Args, cmd.Dir, tt.args, tt.dir)
		}
		if cmd.Env[len(cmd.Env)-1] != "DOCKER_HOST=ssh://build-box" {
			t.Errorf("%s: env does not end with the agent's", tt.agent.Runtime.Type)
		}
	}
	t.Setenv("SHELL", "")
	if cmd := TerminalCommand(config.Agent{Workspace: "/w"}); cmd.Args[0] != "/bin/sh" {
		t.Errorf("without SHELL: %q", cmd.Args)
	}
}
