package e2e

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// procsWait bounds each wait for a process to appear or go.
const procsWait = 15 * time.Second

// procsConfig writes a configuration of one misbehaving agent of mode, named after it,
// working in its own folder, plus the quick "noload" agent; it returns the configuration
// and the agent's workspace, where the agent writes its process ids.
func procsConfig(t *testing.T, dir, mode string) (cfg, ws string) {
	t.Helper()
	ws = t.TempDir()
	return testagents.WriteConfig(t, dir, 2,
		testagents.ModeEntry(t, mode, mode, ws),
		testagents.ModeEntry(t, "quick", "noload", t.TempDir())), ws
}

// readPids waits for the agent's process ids (itself, then its grandchild) and returns
// them; every one still running when the test ends is killed.
func readPids(t *testing.T, ws string, n int) []int {
	t.Helper()
	path := filepath.Join(ws, testagents.PidsFile)
	end := time.Now().Add(procsWait)
	for {
		if b, err := os.ReadFile(path); err == nil {
			var pids []int
			for _, f := range strings.Fields(string(b)) {
				pid, err := strconv.Atoi(f)
				if err != nil {
					t.Fatalf("%s holds %q", path, b)
				}
				pids = append(pids, pid)
			}
			if len(pids) != n {
				t.Fatalf("%s holds %q, want %d process ids", path, b, n)
			}
			t.Cleanup(func() {
				for _, pid := range pids {
					if alive(pid) {
						_ = syscall.Kill(pid, syscall.SIGKILL)
					}
				}
			})
			return pids
		}
		if time.Now().After(end) {
			t.Fatalf("the agent did not write %s within %s", path, procsWait)
		}
		time.Sleep(20 * time.Millisecond) // no event tells that another process wrote a file
	}
}

// alive says whether a process runs (a zombie does not: it only waits to be reaped, by a
// parent that is not Sidekicks).
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	i := strings.LastIndexByte(string(b), ')')
	f := strings.Fields(string(b[i+1:]))
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

// waitDead waits until the process no longer runs.
func waitDead(t *testing.T, pid int, what string) {
	t.Helper()
	end := time.Now().Add(procsWait)
	for alive(pid) {
		if time.Now().After(end) {
			t.Fatalf("%s (pid %d) still runs %s later", what, pid, procsWait)
		}
		time.Sleep(20 * time.Millisecond) // no event tells that another's process died
	}
}

// startAsk starts `sidekicks ask` on agent with prompt, without waiting for it.
func startAsk(t *testing.T, env []string, dir, cfg, agent, prompt string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(binary, "ask", "--config", cfg, agent, prompt)
	cmd.Env, cmd.Dir = env, dir
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return cmd
}

// killHard SIGKILLs Sidekicks and reaps it.
func killHard(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	var ee *exec.ExitError
	if err := cmd.Wait(); !errors.As(err, &ee) || ee.ProcessState.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("sidekicks ended with %v, want killed by SIGKILL", err)
	}
}

// An agent that ignores its stdin's end and SIGTERM dies with a Sidekicks killed by
// SIGKILL, which had no chance to stop it.
func TestAgentDiesWithAKilledSidekicks(t *testing.T) {
	env, dir := isolate(t), t.TempDir()
	cfg, ws := procsConfig(t, dir, testagents.ClingyMode)
	ask := startAsk(t, env, dir, cfg, testagents.ClingyMode, "hello")
	agent := readPids(t, ws, 1)[0]
	killHard(t, ask)
	waitDead(t, agent, "the agent of the killed Sidekicks")
}

// What an agent started in a session of its own survives a SIGKILL of Sidekicks (the
// agent itself dies with it); the next Sidekicks stops it as it starts, from the record
// of the killed one, before any agent runs.
func TestNextStartStopsWhatAKilledSidekicksLeft(t *testing.T) {
	env, dir := isolate(t), t.TempDir()
	cfg, ws := procsConfig(t, dir, testagents.SetsidMode)
	ask := startAsk(t, env, dir, cfg, testagents.SetsidMode, "hold")
	pids := readPids(t, ws, 2)
	agent, grandchild := pids[0], pids[1]
	killHard(t, ask)
	waitDead(t, agent, "the agent of the killed Sidekicks")
	if !alive(grandchild) {
		t.Fatalf("the grandchild in its own session (pid %d) ended with Sidekicks: nothing left to test", grandchild)
	}

	// The application, started again on the same state folder, stops it.
	term := startTerminal(t, env, dir, 120, 36, binary, "--config", cfg)
	term.waitFor("Sidekicks   Channels   Agent   Window   Help", appWait)
	waitDead(t, grandchild, "the grandchild the killed Sidekicks left")
	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Fatalf("exit status %d, want 0; the screen shows:\n%s", code, term.screen())
	}
	state := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "XDG_STATE_HOME="); ok {
			state = v
		}
	}
	logData, err := os.ReadFile(filepath.Join(state, "sidekicks", "logs", "sidekicks.log"))
	want := fmt.Sprintf("stopped process %d of agent %q, left running by a Sidekicks that ended without stopping it", grandchild, testagents.SetsidMode)
	if err != nil || !strings.Contains(string(logData), want) {
		t.Errorf("Sidekicks' log lacks %q: %v\n%s", want, err, logData)
	}
	// Nothing is recorded once every agent has stopped.
	if left, _ := os.ReadDir(filepath.Join(state, "sidekicks", "processes")); len(left) != 0 {
		t.Errorf("records left after a clean quit: %v", left)
	}
}

// A clean stop leaves nothing the agent started: neither a child in a session of its own
// that kept the agent's environment, nor one with an empty environment whose parent is
// still there to tell it is the agent's.
func TestCleanStopLeavesNoGrandchild(t *testing.T) {
	for _, mode := range []string{testagents.SetsidMode, testagents.SetsidBareMode} {
		t.Run(mode, func(t *testing.T) {
			env, dir := isolate(t), t.TempDir()
			cfg, ws := procsConfig(t, dir, mode)
			r := runBinary(t, env, dir, appWait, "ask", "--config", cfg, mode, "hello")
			if r.code != 0 || !strings.Contains(r.stdout, "forked") {
				t.Fatalf("ask: status %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
			}
			pids := readPids(t, ws, 2)
			waitDead(t, pids[0], "the agent")
			waitDead(t, pids[1], "the grandchild in its own session")
		})
	}
}

// SIGTERM and SIGHUP quit the application the way Alt-X does, with the status a shell
// gives a command a signal ended: 128 + the signal's number.
func TestSignalQuitStatus(t *testing.T) {
	for _, c := range []struct {
		sig  syscall.Signal
		want int
	}{{syscall.SIGTERM, 143}, {syscall.SIGHUP, 129}} {
		t.Run(c.sig.String(), func(t *testing.T) {
			env, dir := isolate(t), t.TempDir()
			cfg, _ := procsConfig(t, dir, testagents.ClingyMode)
			pidFile := filepath.Join(t.TempDir(), "pid")
			// The shell writes its id, then becomes sidekicks.
			term := startTerminal(t, env, dir, 120, 36, "sh", "-c", `echo $$ > "$0"; shift; exec "$@"`,
				pidFile, "--", binary, "--config", cfg)
			term.waitFor("Sidekicks   Channels   Agent   Window   Help", appWait)
			b, err := os.ReadFile(pidFile)
			if err != nil {
				t.Fatal(err)
			}
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatalf("%s holds %q", pidFile, b)
			}
			if err := syscall.Kill(pid, c.sig); err != nil {
				t.Fatal(err)
			}
			if code := term.waitExit(appWait); code != c.want {
				t.Fatalf("exit status %d after %v, want %d; the screen shows:\n%s", code, c.sig, c.want, term.screen())
			}
		})
	}
}
