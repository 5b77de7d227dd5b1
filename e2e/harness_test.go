// Package e2e drives the real sidekicks binary: as a command, and on a real terminal in tmux.
package e2e

import (
	"bytes"
	"context"
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

// binary is the sidekicks executable built once for the whole package.
var binary string

func TestMain(m *testing.M) {
	measureIfAsked()
	testagents.RunIfAgent()
	dir, err := os.MkdirTemp("", "sidekicks-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "sidekicks")
	build := exec.Command("go", "build", "-o", binary, "..")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: building sidekicks:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// isolate points every per-user folder Sidekicks uses at fresh temporary folders, so that a
// test never reads or writes the developer's own configuration, history or logs.
func isolate(t *testing.T) []string {
	t.Helper()
	home := t.TempDir()
	return append(os.Environ(),
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, "config"),
		"XDG_DATA_HOME="+filepath.Join(home, "data"),
		"XDG_STATE_HOME="+filepath.Join(home, "state"),
		"SIDEKICKS_CONFIG=",
		"LANG=C.UTF-8",
	)
}

// result is what one run of the binary produced.
type result struct {
	stdout, stderr string
	code           int
	peakKiB        int64 // the process's peak resident memory, its children's included
}

// runBinary runs sidekicks with args and returns its output and exit status; it fails the
// test when the command does not finish within the deadline.
func runBinary(t *testing.T, env []string, dir string, timeout time.Duration, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	// Run through this test binary (measureIfAsked), which measures sidekicks' peak from
	// a small process: Linux counts in a child's peak the memory its parent held when it
	// forked, and this test process may hold hundreds of MiB after the tests before.
	peakFile := filepath.Join(t.TempDir(), "peak")
	cmd := exec.CommandContext(ctx, os.Args[0], append([]string{binary}, args...)...)
	cmd.Env = append(append([]string{}, env...), measureEnv+"="+peakFile)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("sidekicks %s: no answer within %s\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), timeout, out.String(), errb.String())
	}
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("sidekicks %s: %v", strings.Join(args, " "), err)
		}
		code = ee.ExitCode()
	}
	peak, _ := strconv.ParseInt(strings.TrimSpace(readFileOrEmpty(peakFile)), 10, 64)
	return result{out.String(), errb.String(), code, peak}
}

// measureEnv names the file where this test binary, run by runBinary, writes the peak
// resident memory (KiB) of the command it ran, its children's included.
const measureEnv = "SIDEKICKS_E2E_MEASURE"

// measureIfAsked runs, when runBinary started this test binary to measure a command
// (measureEnv set), that command (os.Args[1:]) with this process's input, output and
// environment, writes its peak memory, and exits with its status. Started afresh, this
// process holds little memory when it forks the command.
func measureIfAsked() {
	out := os.Getenv(measureEnv)
	if out == "" {
		return
	}
	os.Unsetenv(measureEnv)
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // dies with the test's kill
	err := cmd.Run()
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, "e2e measure:", err)
		os.Exit(125)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		os.WriteFile(out, []byte(strconv.FormatInt(ru.Maxrss, 10)), 0o600) // KiB on Linux
	}
	os.Exit(cmd.ProcessState.ExitCode())
}

// readFileOrEmpty returns the file's text, "" when it cannot be read.
func readFileOrEmpty(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

// envValue is the value of key in env (KEY=VALUE entries) as a process would see it: the
// last entry wins; "" when there is none.
func envValue(env []string, key string) string {
	value := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, key+"="); ok {
			value = v
		}
	}
	return value
}
