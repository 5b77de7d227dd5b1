package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/testengine"
)

// dockerAgentConfig writes a configuration whose agent "boxed" is the demo agent of a
// static Sidekicks in the container name on engine e (the tests' BusyBox image), reached
// with docker exec -i, after it started a sleep in the container; its workspace ws is
// mounted at /work, and lifecycle.create makes the container.
func dockerAgentConfig(t *testing.T, e *testengine.Engine, dir, ws, name string) string {
	t.Helper()
	image := e.Image(t)
	cfg := fmt.Sprintf(`version: 1
agents:
  - name: boxed
    title: Boxed
    icon: B
    command: docker
    args: [exec, -i, -w, /work, %[1]s, sh, -c, "sleep 1000 & exec sidekicks demo-agent --name Boxed --delay 0"]
    workspace: %[2]q
    env:
      DOCKER_HOST: %[3]q
    runtime:
      type: container
      container: %[1]s
      workspacePath: /work
      lifecycle:
        create: [docker, run, -d, --name, %[1]s, --network, none, -v, %[4]q, %[5]s, sleep, "3600"]
        remove: [docker, rm, -f, %[1]s]
`, name, ws, e.Host, ws+":/work", image)
	path := filepath.Join(dir, "sidekicks.yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// openAgentsPanel opens Agent ▸ Agents panel… and waits for its focus.
func openAgentsPanel(t *testing.T, term *terminal) {
	t.Helper()
	term.keys("M-a")
	term.waitFor("Agents panel…", appWait)
	term.keys("p")
	waitFocus(t, term, "Agents")
}

// An agent in a container on a real Docker engine, through the real binary: `ask` creates
// the container (lifecycle.create), the agent answers through docker exec -i and writes a
// file through the client, which lands in the mounted workspace; what the agent started in
// the container (a sleep) ends with each ask, though docker exec passes no signal on. Then, on screen, the
// Files window lists the workspace through docker exec and refuses to delete the
// protected AGENTS.md (still there, inside and out), and the terminal is a shell in the
// container, in workspacePath.
func TestDockerAgentInTerminal(t *testing.T) {
	e := testengine.Require(t)
	name := e.Name(t)
	dir, ws := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "AGENTS.md"), []byte("# Boxed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := dockerAgentConfig(t, e, dir, ws, name)
	env := append(isolate(t), "SIDEKICKS_DEMO_STATE="+t.TempDir())

	r := runBinary(t, env, dir, 2*time.Minute, "ask", "--yes", "--config", cfg, "boxed", "/echo hello from the box")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "hello from the box" {
		t.Fatalf("ask /echo: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	r = runBinary(t, env, dir, time.Minute, "ask", "--yes", "--config", cfg, "boxed", "/write notes/from-agent.md written in the box")
	if r.code != 0 {
		t.Fatalf("ask /write: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if data, err := os.ReadFile(filepath.Join(ws, "notes", "from-agent.md")); err != nil || string(data) != "written in the box" {
		t.Fatalf("the agent's file in the mounted workspace: %q, %v\nstdout:\n%s\nstderr:\n%s", data, err, r.stdout, r.stderr)
	}
	if got := e.Docker(t, "exec", name, "cat", "/work/notes/from-agent.md"); got != "written in the box" {
		t.Errorf("the agent's file in the container: %q", got)
	}
	if left := e.Running(t, name, "sleep 1000"); left != "" {
		t.Errorf("what the agent started in the container outlived ask: process %s", left)
	}

	term := startTerminal(t, env, dir, 160, 50, binary, "--config", cfg)
	term.waitFor("Sidekicks   Channels   Agent   Window   Help", appWait)
	openAgentsPanel(t, term)
	term.waitFor("@boxed", appWait)
	term.waitFor("container "+testengine.Prefix[:13], appWait) // the name is cut to the column

	// Files, through docker exec: the workspace as the container sees it.
	term.keys("End", "f")
	waitFocus(t, term, "Files — Boxed")
	term.waitFor("AGENTS.md 🔒", appWait)
	term.keys("Down", "Down") // from the workspace's own row past notes/ to AGENTS.md, which the viewer shows
	term.waitFor("# Boxed", appWait)
	term.keys("DC")
	term.waitFor("“AGENTS.md” is protected", appWait)
	if got := e.Docker(t, "exec", name, "cat", "/work/AGENTS.md"); got != "# Boxed" {
		t.Errorf("AGENTS.md in the container: %q", got)
	}

	// The terminal: a shell in the container, in /work.
	openAgentsPanel(t, term)
	term.keys("t")
	waitGone(t, term, "Sidekicks   Channels")
	term.waitFor("#", appWait) // BusyBox's prompt
	term.typeText(`echo "shell in $(pwd) of $(hostname)" > where.txt; exit`)
	term.keys("Enter")
	term.waitFor("Sidekicks   Channels   Agent   Window   Help", appWait)
	id := e.Docker(t, "inspect", "--format", "{{.Config.Hostname}}", name)
	if data, err := os.ReadFile(filepath.Join(ws, "where.txt")); err != nil || strings.TrimSpace(string(data)) != "shell in /work of "+id {
		t.Errorf("the terminal's shell wrote %q (%v), want it in /work of %s", data, err, id)
	}

	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Fatalf("exit status %d; the screen shows:\n%s", code, term.screen())
	}
}
