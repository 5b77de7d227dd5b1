package e2e

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// pidAgentConfig writes a configuration with one agent whose command writes its pid to
// pidFile, then becomes program run with args (exec keeps the pid), with env added.
func pidAgentConfig(t *testing.T, dir, name, title, pidFile, program string, args, env []string) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "version: 1\nagents:\n  - name: %s\n    title: %s\n    command: /bin/sh\n    args:\n", name, title)
	for _, a := range append([]string{"-c", `echo $$ > "$1"; shift; exec "$@"`, "sh", pidFile, program}, args...) {
		fmt.Fprintf(&b, "      - %q\n", a)
	}
	if len(env) > 0 {
		b.WriteString("    env:\n")
		for _, kv := range env {
			k, v, _ := strings.Cut(kv, "=")
			fmt.Fprintf(&b, "      %s: %q\n", k, v)
		}
	}
	path := filepath.Join(dir, "sidekicks.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// agentPid reads the pid the agent's command wrote, and checks that the process runs.
func agentPid(t *testing.T, pidFile string) int {
	t.Helper()
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the agent's command wrote no pid: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("pid %q: %v", b, err)
	}
	if err := syscall.Kill(pid, 0); err != nil {
		t.Fatalf("the agent's process %d does not run: %v", pid, err)
	}
	return pid
}

// waitStoppedInPanel opens the Agents panel and waits until it shows the agent stopped:
// the supervisor reaps the process before it says so, so that no process has its pid
// any more (nothing else could have taken it in that time).
func waitStoppedInPanel(t *testing.T, term *terminal, title string, pid int) {
	t.Helper()
	term.keys("M-a")
	term.waitFor("Agents panel…", appWait)
	term.keys("p")
	waitFocus(t, term, "Agents")
	waitUntil(t, term, title+" stopped", func(s string) bool {
		for _, l := range strings.Split(s, "\n") {
			if strings.Contains(l, title) && strings.Contains(l, "stopped") {
				return true
			}
		}
		return false
	})
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("the agent's process %d still exists (kill 0: %v)", pid, err)
	}
}

// openFirstAgent starts Sidekicks on cfg in a terminal and opens the window of the first
// agent of the Agent menu, whose title is title.
func openFirstAgent(t *testing.T, env []string, dir, cfg, title string) *terminal {
	t.Helper()
	term := startTerminal(t, env, dir, 120, 40, binary, "--config", cfg)
	term.waitFor("No window open", appWait)
	term.keys("M-a")
	term.waitFor("Agent status", appWait)
	term.keys("Enter")
	waitFocus(t, term, title)
	return term
}

// quitTerminal quits with Alt-X and checks the exit status.
func quitTerminal(t *testing.T, term *terminal) {
	t.Helper()
	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Errorf("exit status %d", code)
	}
}

func TestCtrlWStopsTheAgentProcessInTerminal(t *testing.T) {
	env := append(isolate(t), "SIDEKICKS_DEMO_STATE="+t.TempDir())
	dir := t.TempDir()
	pidFile := filepath.Join(t.TempDir(), "pid")
	cfg := pidAgentConfig(t, dir, "alice", "Alice", pidFile, binary, []string{"demo-agent", "--name", "Alice", "--delay", "0"}, nil)

	term := openFirstAgent(t, env, dir, cfg, "Alice")
	term.typeText("/echo hi")
	term.keys("Enter")
	waitRow(t, term, "hi")
	waitUntil(t, term, "the turn over", turnOver)
	pid := agentPid(t, pidFile)

	term.keys("C-w")
	term.waitFor("No window open", appWait)
	waitStoppedInPanel(t, term, "Alice", pid)

	quitTerminal(t, term)
}

func TestEscAgainStopsAStubbornAgentInTerminal(t *testing.T) {
	env := isolate(t)
	dir := t.TempDir()
	pidFile := filepath.Join(t.TempDir(), "pid")
	cfg := pidAgentConfig(t, dir, "mule", "Mule", pidFile, testagents.Binary(t), nil, []string{testagents.ModeEnv("stubborn"), "GORACE=atexit_sleep_ms=0"})

	term := openFirstAgent(t, env, dir, cfg, "Mule")
	term.typeText("go on")
	term.keys("Enter")
	waitRow(t, term, "working")
	pid := agentPid(t, pidFile)

	// Esc sends the cancel, which mule ignores; 5 s later the window offers to stop it.
	term.keys("Escape")
	term.waitFor("cancelling…", appWait)
	term.waitFor("no answer from mule — Esc again stops the agent", appWait)
	term.waitFor("Esc Stop the agent", appWait)
	term.keys("Escape")
	term.waitFor("mule: turn cancelled", appWait)
	waitUntil(t, term, "the turn over", turnOver)
	waitStoppedInPanel(t, term, "Mule", pid)

	quitTerminal(t, term)
}
