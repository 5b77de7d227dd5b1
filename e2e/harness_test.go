// Package e2e drives the real sidekicks binary: as a command, and on a real terminal in tmux.
package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// binary is the sidekicks executable built once for the whole package.
var binary string

func TestMain(m *testing.M) {
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
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = env
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
	var peak int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		peak = ru.Maxrss // KiB on Linux
	}
	return result{out.String(), errb.String(), code, peak}
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
