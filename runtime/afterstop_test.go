package runtime

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/config"
)

// withAfterStop adds an afterStop that appends "<AGENT_TAG> <its folder>" to a file.
func withAfterStop(t *testing.T, a config.Agent, extra string) (config.Agent, string) {
	t.Helper()
	marker := filepath.Join(t.TempDir(), "after-stop")
	a.AfterStop = []string{"/bin/sh", "-c", extra + `echo "$AGENT_TAG $(pwd)" >> "$0"`, marker}
	return a, marker
}

func markerLines(t *testing.T, marker string) []string {
	t.Helper()
	b, err := os.ReadFile(marker)
	if err != nil {
		return nil
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

func TestAfterStopRunsAtEveryEnd(t *testing.T) {
	clock := newFakeClock()
	a, marker := withAfterStop(t, testAgentConfig(t, "alice", "normal"), "")
	b := testAgentConfig(t, "bob", "normal")
	s := newTestSupervisor(t, Options{Agents: []config.Agent{a, b}, MaxRunning: 1, IdleAfter: time.Minute, Clock: clock})
	log := s.Logs().Agent("alice")
	ends := 0
	expectRun := func(how string) {
		t.Helper()
		ends++
		for i := 0; ; i++ {
			waitLog(t, log, "sidekicks: afterStop done")
			if n := strings.Count(logText(log), "sidekicks: afterStop done"); n >= ends {
				break
			}
			changed, cancel := log.Subscribe()
			select {
			case <-changed:
			case <-time.After(deadline):
				t.Fatalf("%s: afterStop did not run", how)
			}
			cancel()
		}
		lines := markerLines(t, marker)
		if len(lines) != ends || lines[ends-1] != "alice "+a.Workspace {
			t.Fatalf("%s: afterStop wrote %q", how, lines)
		}
	}

	acquire(t, s, "alice").Release()
	if err := s.Stop("alice"); err != nil {
		t.Fatal(err)
	}
	expectRun("stop")

	l := acquire(t, s, "alice")
	if _, err := l.Process().Stdin.Write([]byte("crash\n")); err != nil {
		t.Fatal(err)
	}
	l.Release()
	expectRun("crash")

	acquire(t, s, "alice").Release()
	acquire(t, s, "bob").Release() // alice makes room
	expectRun("eviction")
	if err := s.Stop("bob"); err != nil {
		t.Fatal(err)
	}

	acquire(t, s, "alice").Release()
	clock.Advance(time.Minute)
	expectRun("idle")

	acquire(t, s, "alice").Release()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	// Shutdown returned: the afterStop must already be done, without waiting.
	if lines := markerLines(t, marker); len(lines) != ends+1 {
		t.Fatalf("shutdown: afterStop not waited for: %q", lines)
	}
	if !strings.Contains(logText(log), "stopping: Sidekicks is quitting") {
		t.Errorf("log:\n%s", logText(log))
	}
	if _, err := s.Acquire(context.Background(), "alice"); err != ErrShuttingDown {
		t.Errorf("Acquire after shutdown: %v", err)
	}
}

// Shutdown waits for a slow afterStop.
func TestShutdownWaitsForAfterStop(t *testing.T) {
	a, marker := withAfterStop(t, testAgentConfig(t, "alice", "normal"), "sleep 0.3; ")
	a.Env["AGENT_TAG"] = "slow"
	s := newTestSupervisor(t, Options{Agents: []config.Agent{a}})
	acquire(t, s, "alice").Release()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if lines := markerLines(t, marker); len(lines) != 1 || !strings.HasPrefix(lines[0], "slow ") {
		t.Fatalf("afterStop not done when Shutdown returned: %q", lines)
	}
}

func TestAfterStopIsBounded(t *testing.T) {
	a := testAgentConfig(t, "alice", "normal")
	pidFile := filepath.Join(t.TempDir(), "pid")
	// It prints, leaves a child, and never ends by itself.
	a.AfterStop = []string{"/bin/sh", "-c", `echo "unloading"; sleep 1000 & echo $! > "$0"; wait`, pidFile}
	s := newTestSupervisor(t, Options{Agents: []config.Agent{a}, AfterStopTimeout: 300 * time.Millisecond})
	acquire(t, s, "alice").Release()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	log := s.Logs().Agent("alice")
	for _, want := range []string{"afterStop: unloading", "sidekicks: afterStop killed after 300ms"} {
		if !logHas(log, want) {
			t.Errorf("log lacks %q:\n%s", want, logText(log))
		}
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	processGone(t, pid)
}

func TestAfterStopMissingProgramIsAWarning(t *testing.T) {
	a := testAgentConfig(t, "alice", "normal")
	a.AfterStop = []string{filepath.Join(t.TempDir(), "no-such-script"), "unload"}
	s := newTestSupervisor(t, Options{Agents: []config.Agent{a}})
	acquire(t, s, "alice").Release()
	if err := s.Stop("alice"); err != nil {
		t.Fatal(err)
	}
	waitLog(t, s.Logs().Agent("alice"), "sidekicks: warning: afterStop program not found: "+a.AfterStop[0])
	// The agent starts again normally.
	acquire(t, s, "alice").Release()
}
