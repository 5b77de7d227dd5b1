// Package testagents holds the agents that tests start as real child processes: the test
// binary runs itself again as the built-in demo agent or as a small misbehaving agent, and
// the entries of test configurations that start them. Only tests import it.
package testagents

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/demoagent"
)

// The environment that makes a test binary an agent instead of running its tests.
const (
	demoEnv     = "SIDEKICKS_TEST_DEMO_AGENT" // "1": the demo agent
	demoArgsEnv = "SIDEKICKS_TEST_DEMO_ARGS"  // its arguments, a JSON array
	modeEnv     = "SIDEKICKS_TEST_AGENT"      // a misbehaving agent's mode (serveTestAgent)
)

// Main runs the test agent this process was started as, when it was started as one, and
// the package's tests otherwise. A test package whose configurations name DemoEntry or
// ModeEntry agents calls it from TestMain.
func Main(m *testing.M) { MainWith(m, runDemo) }

// MainWith is Main with the demo agent run by demo, which takes the agent's arguments
// (--name, --delay) and returns its exit status: the command line's tests run their own
// `demo-agent` command.
func MainWith(m *testing.M, demo func(args []string) int) {
	runIfAgent(demo)
	os.Exit(m.Run())
}

// RunIfAgent runs the test agent this process was started as, and exits; it returns when
// the process was not started as one. A TestMain with work of its own before m.Run (the
// end-to-end tests build the binary) calls it first.
func RunIfAgent() { runIfAgent(runDemo) }

func runIfAgent(demo func(args []string) int) {
	if os.Getenv(demoEnv) == "1" {
		var args []string
		if err := json.Unmarshal([]byte(os.Getenv(demoArgsEnv)), &args); err != nil {
			os.Exit(100)
		}
		os.Exit(demo(args))
	}
	if mode := os.Getenv(modeEnv); mode != "" {
		os.Exit(serveTestAgent(mode, os.Stdin, os.Stdout, os.Stderr))
	}
}

// runDemo runs the demo agent on the process's stdin and stdout.
func runDemo(args []string) int {
	fs := flag.NewFlagSet("demo-agent", flag.ContinueOnError)
	name := fs.String("name", "demo", "")
	delay := fs.Duration("delay", demoagent.DefaultWordDelay, "")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := demoagent.Run(ctx, os.Stdin, os.Stdout, demoagent.Options{Name: *name, WordDelay: *delay, Log: os.Stderr})
	if err != nil {
		fmt.Fprintf(os.Stderr, "demo-agent: %v\n", err)
		return 1
	}
	return 0
}

// Env isolates what the tests read from the environment, moves the test to a new folder
// and returns it.
func Env(t testing.TB) string {
	t.Helper()
	t.Setenv("LANG", "C")
	t.Setenv("LC_ALL", "") // they come before LANG for the language of messages
	t.Setenv("LC_MESSAGES", "")
	t.Setenv(acp.TraceEnv, "")
	t.Setenv("SIDEKICKS_CONFIG", "")
	// A child built with -race sleeps a second as it exits unless told otherwise.
	t.Setenv("GORACE", "atexit_sleep_ms=0")
	// The trust store of project agents files (config.Allow) is the test's own.
	t.Setenv("SIDEKICKS_STATE_DIR", t.TempDir())
	dir := t.TempDir()
	t.Chdir(dir)
	return dir
}

// Binary is the running test binary, which the agents of DemoEntry and ModeEntry run.
func Binary(t testing.TB) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// DemoEnv is the part of an agent's env that makes it the demo agent, introducing itself
// as name and pausing delay between words ("0": as fast as it can): two YAML lines
// indented for an entry's env.
func DemoEnv(name, delay string) string {
	args, _ := json.Marshal([]string{"--name", name, "--delay", delay})
	return fmt.Sprintf("      %s: \"1\"\n      %s: %q\n", demoEnv, demoArgsEnv, string(args))
}

// DemoEntry is a demo agent of a test configuration working in ws and keeping its sessions
// in state, streaming as fast as it can; extra is added to its entry.
func DemoEntry(t testing.TB, name, ws, state, extra string) string {
	t.Helper()
	return fmt.Sprintf(`  - name: %s
    command: %q
    env:
%s      SIDEKICKS_DEMO_STATE: %q
    workspace: %q
%s`, name, Binary(t), DemoEnv(name, "0"), state, ws, extra)
}

// ModeEntry is a misbehaving agent of a test configuration, in the given mode (see
// serveTestAgent), working in ws.
func ModeEntry(t testing.TB, name, mode, ws string) string {
	t.Helper()
	return fmt.Sprintf(`  - name: %s
    command: %q
    env:
      %s: %q
    workspace: %q
`, name, Binary(t), modeEnv, mode, ws)
}

// ModeEnv is the KEY=VALUE that makes the test binary the misbehaving agent of mode, for a
// configuration that starts it its own way (through a shell, say).
func ModeEnv(mode string) string { return modeEnv + "=" + mode }

// WriteConfig writes a configuration of these agents in dir and returns its path.
func WriteConfig(t testing.TB, dir string, maxRunning int, entries ...string) string {
	t.Helper()
	p := filepath.Join(dir, "sidekicks.yaml")
	text := fmt.Sprintf("version: 1\nlimits:\n  maxRunningAgents: %d\nagents:\n%s", maxRunning, strings.Join(entries, ""))
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
