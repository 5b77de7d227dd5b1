package runtime

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/config"
)

func TestExecWorkspaceCommands(t *testing.T) {
	for _, tt := range []struct {
		engine, target string
		make           func(root string, env map[string]string) Workspace
	}{
		{"docker", "box", func(root string, env map[string]string) Workspace {
			return NewContainerWorkspace("box", root, env, []string{"AGENTS.md"})
		}},
		{"sbx", "sandy", func(root string, env map[string]string) Workspace {
			return NewSandboxWorkspace("sandy", root, env, []string{"AGENTS.md"})
		}},
	} {
		t.Run(tt.engine, func(t *testing.T) {
			eng := newFakeEngines(t)
			f := newFixture(t)
			w := tt.make(f.root, map[string]string{"SIDEKICKS_TEST_VAR": "from-env"})
			ctx := context.Background()
			cmd := func(op string, paths ...string) []string {
				return append([]string{tt.engine, "exec", "-i", tt.target, "sh", "-c", execScript, "sidekicks", op}, paths...)
			}
			steps := []struct {
				do   func() error
				want [][]string
			}{
				{func() error { return w.WriteFile(ctx, "a.txt", []byte("x")) },
					[][]string{cmd("write", f.root, f.root+"/a.txt")}},
				{func() error { _, err := w.ReadFile(ctx, "a.txt", 1<<20); return err },
					[][]string{cmd("read=1048576", f.root, f.root+"/a.txt")}},
				{func() error { _, err := w.List(ctx, ""); return err },
					[][]string{cmd("list", f.root, f.root)}},
				{func() error { return w.Mkdir(ctx, "d/e") },
					[][]string{cmd("mkdir", f.root, f.root+"/d/e")}},
				{func() error { return w.Rename(ctx, "a.txt", "d/b.txt") },
					[][]string{cmd("walk", f.root, f.root+"/a.txt"), cmd("rename", f.root, f.root+"/a.txt", f.root+"/d/b.txt")}},
				{func() error { return w.Delete(ctx, "d") },
					[][]string{cmd("walk", f.root, f.root+"/d"), cmd("delete", f.root, f.root+"/d")}},
				// Protection is checked before any command runs.
				{func() error {
					if err := w.WriteFile(ctx, "AGENTS.md", nil); !errors.Is(err, ErrProtected) {
						return err
					}
					return nil
				}, nil},
				{func() error {
					if _, err := w.ReadFile(ctx, "../x", 1<<20); !errors.Is(err, ErrOutside) {
						return err
					}
					return nil
				}, nil},
			}
			for i, s := range steps {
				if err := s.do(); err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				calls := eng.calls()
				if got := argsOf(calls); !reflect.DeepEqual(got, s.want) {
					t.Errorf("step %d: calls\n%q\nwant\n%q", i, got, s.want)
				}
				for _, c := range calls {
					if c.Var != "from-env" {
						t.Errorf("step %d: the agent's env did not reach %s (got %q)", i, tt.engine, c.Var)
					}
				}
			}
		})
	}
}

// When links are involved, the resolved paths are checked, then the operation runs on
// them: two calls, the second with the real root.
func TestExecWorkspaceResolvesLinksThenRuns(t *testing.T) {
	eng := newFakeEngines(t)
	f := newFixture(t)
	link := filepath.Join(filepath.Dir(f.root), "ws-link")
	mustLink(t, f.root, link)
	w := NewContainerWorkspace("box", link, nil, nil)
	if err := w.WriteFile(context.Background(), "x.txt", []byte("x")); err != nil {
		t.Fatal(err)
	}
	head := []string{"docker", "exec", "-i", "box", "sh", "-c", execScript, "sidekicks", "write"}
	want := [][]string{
		append(append([]string{}, head...), link, link+"/x.txt"),
		append(append([]string{}, head...), f.root, f.root+"/x.txt"),
	}
	if got := argsOf(eng.calls()); !reflect.DeepEqual(got, want) {
		t.Errorf("calls\n%q\nwant\n%q", got, want)
	}
}

func TestWorkspaceFor(t *testing.T) {
	a := config.Agent{Workspace: "/host/ws", Runtime: config.Runtime{Type: "container", Container: "box", WorkspacePath: "/work"}}
	if w, ok := WorkspaceFor(a).(*ExecWorkspace); !ok || w.engine != "docker" || w.target != "box" || w.Root() != "/work" {
		t.Errorf("container: %#v", WorkspaceFor(a))
	}
	a.Runtime = config.Runtime{Type: "sbx", Sandbox: "sandy"}
	if w, ok := WorkspaceFor(a).(*ExecWorkspace); !ok || w.engine != "sbx" || w.target != "sandy" || w.Root() != "/host/ws" {
		t.Errorf("sbx: %#v", WorkspaceFor(a))
	}
	a.Runtime = config.Runtime{Type: "local"}
	if w, ok := WorkspaceFor(a).(*LocalWorkspace); !ok || w.Root() != "/host/ws" || !w.Protected("AGENTS.md") {
		t.Errorf("local: %#v", WorkspaceFor(a))
	}
}

// The always-protected files of an agent are refused through the workspace it gets,
// before any engine call.
func TestWorkspaceForProtectsTheAgentsOwnFiles(t *testing.T) {
	eng := newFakeEngines(t)
	f := newFixture(t)
	ctx := context.Background()
	local := config.Agent{Workspace: f.root, Args: []string{"--acp", "--config", "agent.yaml"}}
	container := config.Agent{Workspace: f.root, Args: []string{"exec", "-i", "box", "docker-agent", "serve", "acp", f.root + "/team.yaml"},
		Runtime: config.Runtime{Type: "container", Container: "box", Lifecycle: config.Lifecycle{
			Create: []string{"docker", "compose", "--file", "deploy/compose.yaml", "up", "-d"}}}}
	sandbox := config.Agent{Workspace: f.root, Runtime: config.Runtime{Type: "sbx", Sandbox: "sandy", Lifecycle: config.Lifecycle{
		Create: []string{"sbx", "env", "create", "dev.yaml", "--force"}}}}
	for _, tt := range []struct {
		agent     config.Agent
		protected []string
		free      []string
	}{
		{local, []string{"agent.yaml", "AGENTS.md", "skills/x/y.md"}, []string{"Dockerfile", "compose.yaml", "sbxenv.yaml"}},
		{container, []string{"team.yaml", "deploy/compose.yaml", "Dockerfile"}, []string{"compose.yaml", "sbxenv.yaml"}},
		{sandbox, []string{"dev.yaml"}, []string{"sbxenv.yaml", "Dockerfile"}},
	} {
		w := WorkspaceFor(tt.agent)
		for _, p := range tt.protected {
			if err := w.WriteFile(ctx, p, []byte("x")); !errors.Is(err, ErrProtected) {
				t.Errorf("%s: writing %s: %v, want ErrProtected", tt.agent.Runtime.Type, p, err)
			}
		}
		if calls := eng.calls(); len(calls) != 0 {
			t.Errorf("%s: refused writes ran %q", tt.agent.Runtime.Type, argsOf(calls))
		}
		for _, p := range tt.free {
			if err := w.WriteFile(ctx, p, []byte("x")); err != nil {
				t.Errorf("%s: writing %s: %v", tt.agent.Runtime.Type, p, err)
			}
		}
		eng.calls()
	}
}
