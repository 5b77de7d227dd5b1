package runtime

import (
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// terminalAgent is an agent of runtime kind ("local", "container" in "box", "sbx" in
// "sandy") whose workspace is a new folder, with SIDEKICKS_TEST_VAR in its env.
func terminalAgent(t *testing.T, kind string) config.Agent {
	t.Helper()
	ws, _ := filepath.EvalSymlinks(t.TempDir())
	a := config.Agent{Name: "alice", Workspace: ws, Env: map[string]string{"SIDEKICKS_TEST_VAR": "agent-env"}}
	switch kind {
	case "container":
		a.Runtime = config.Runtime{Type: "container", Container: "box", WorkspacePath: ws}
	case "sbx":
		a.Runtime = config.Runtime{Type: "sbx", Sandbox: "sandy", WorkspacePath: ws}
	}
	return a
}

// runToEnd runs spec for a and returns its output and exit code.
func runToEnd(t *testing.T, a config.Agent, spec TerminalCommandSpec) (string, int, string) {
	t.Helper()
	c, err := StartAgentCommand(a, spec, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(c.Output())
	code, sig := c.Wait()
	return string(out), code, sig
}

// TestAgentCommandRunsWhereTheAgentRuns: the exact engine command for a container
// (docker exec -i -w DIR) and a sandbox (sbx exec -i, the script moving to DIR), the
// agent's env given to the engine, the variables asked never on the command line but set
// for the command, stderr joined to stdout, the exit code.
func TestAgentCommandRunsWhereTheAgentRuns(t *testing.T) {
	for _, kind := range []string{"local", "container", "sbx"} {
		t.Run(kind, func(t *testing.T) {
			eng := newFakeEngines(t)
			a := terminalAgent(t, kind)
			dir := filepath.Join(a.Workspace, "sub")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			spec := TerminalCommandSpec{
				Command: `pwd; echo "$SECRET_TOKEN"; echo err >&2; printf '[%s]'`,
				Args:    []string{"x y"},
				Env:     [][2]string{{"SECRET_TOKEN", "s3cr'et"}},
				Dir:     dir,
			}
			out, code, sig := runToEnd(t, a, spec)
			if want := dir + "\ns3cr'et\nerr\n[x y]"; out != want || code != 0 || sig != "" {
				t.Errorf("output %q code %d signal %q, want %q, 0", out, code, sig, want)
			}
			line := spec.Command + ` "$@"`
			tail := []string{"sh", "-c", commandScript, "sh", a.Workspace, dir, line, "x y"}
			var want [][]string
			switch kind {
			case "container":
				want = [][]string{append([]string{"docker", "exec", "-i", "-w", dir, "box"}, tail...)}
			case "sbx":
				want = [][]string{append([]string{"sbx", "exec", "-i", "sandy"}, tail...)}
			}
			calls := eng.calls()
			if got := argsOf(calls); !reflect.DeepEqual(got, want) {
				t.Errorf("engine calls\n%q\nwant\n%q", got, want)
			}
			for _, c := range calls {
				if c.Var != "agent-env" || c.Dir != a.Workspace {
					t.Errorf("the engine ran in %q with SIDEKICKS_TEST_VAR=%q, want the workspace and the agent's env", c.Dir, c.Var)
				}
				if strings.Contains(strings.Join(c.Args, " "), "s3cr") {
					t.Errorf("a variable's value is on the command line: %q", c.Args)
				}
			}
		})
	}
}

// TestAgentCommandStaysInTheWorkspace: a folder inside the workspace by its name that a
// symbolic link leads out of is refused where the command runs, saying why; nothing runs.
func TestAgentCommandStaysInTheWorkspace(t *testing.T) {
	for _, kind := range []string{"local", "container", "sbx"} {
		t.Run(kind, func(t *testing.T) {
			newFakeEngines(t)
			a := terminalAgent(t, kind)
			outside := t.TempDir()
			if err := os.Symlink(outside, filepath.Join(a.Workspace, "out")); err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(a.Workspace, "out")
			out, code, _ := runToEnd(t, a, TerminalCommandSpec{Command: "touch ran", Dir: dir})
			if want := "sidekicks: " + dir + " leads outside the workspace " + a.Workspace + "; the command does not run\n"; out != want || code != 126 {
				t.Errorf("output %q code %d, want %q and 126", out, code, want)
			}
			if _, err := os.Stat(filepath.Join(outside, "ran")); err == nil {
				t.Error("the command ran outside the workspace")
			}
		})
	}
}

// TestAgentCommandRefusesBadVariables: a name the shell cannot set is refused before
// anything runs.
func TestAgentCommandRefusesBadVariables(t *testing.T) {
	a := terminalAgent(t, "local")
	for _, name := range []string{"", "A-B", "1X", "A B", "X;rm"} {
		if _, err := StartAgentCommand(a, TerminalCommandSpec{Command: "true", Env: [][2]string{{name, "v"}}, Dir: a.Workspace}, nil, nil); err == nil {
			t.Errorf("variable name %q accepted", name)
		}
	}
}

// TestAgentCommandKillEndsEverything: Kill ends the command and a child that ignores
// SIGTERM, wherever the agent runs; in a container or sandbox through the engine's
// command that kills what carries the terminal's tag.
func TestAgentCommandKillEndsEverything(t *testing.T) {
	for _, kind := range []string{"local", "container", "sbx"} {
		t.Run(kind, func(t *testing.T) {
			eng := newFakeEngines(t)
			a := terminalAgent(t, kind)
			c, err := StartAgentCommand(a, TerminalCommandSpec{
				Command: `sh -c 'trap "" TERM; echo $$ > child.pid; exec sleep 300' & while [ ! -s child.pid ]; do sleep 0.01; done; echo started; wait`,
				Dir:     a.Workspace,
			}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 64)
			if n, _ := io.ReadAtLeast(c.Output(), buf, len("started")); !strings.HasPrefix(string(buf[:n]), "started") {
				t.Fatalf("output %q", buf[:n])
			}
			data, _ := os.ReadFile(filepath.Join(a.Workspace, "child.pid"))
			pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
			child := testagents.WatchProcess(t, pid)
			eng.calls()
			c.Kill()
			if _, sig := c.Wait(); sig == "" {
				t.Error("no signal after Kill")
			}
			child.WaitGone(t, 10*time.Second)
			if kind != "local" {
				calls := argsOf(eng.calls())
				if len(calls) != 1 || !reflect.DeepEqual(calls[0], killArgs(a, c.tag)) || calls[0][len(calls[0])-2] != c.tag {
					t.Errorf("engine calls %q, want the kill of the tag", calls)
				}
			}
		})
	}
}
