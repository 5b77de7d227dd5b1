package runtime

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// ErrProgramNotFound is wrapped by errors of commands whose program does not exist.
var ErrProgramNotFound = errors.New("program not found")

// runLogged runs a command to its end with no stdin (a command that asks a question
// fails), its stdout and stderr going to the log line by line with a prefix. It runs in
// its own process group, killed when ctx ends. The error says the exit status and the
// last line it printed.
func runLogged(ctx context.Context, argv []string, dir string, env []string, log *AgentLog, prefix string) error {
	if len(argv) == 0 || argv[0] == "" {
		return fmt.Errorf("empty command: %w", ErrProgramNotFound)
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out := newLineWriter(log, prefix, 3)
	cmd.Stdout, cmd.Stderr = out, out
	killGroup(cmd)
	if err := cmd.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) || errors.Is(err, exec.ErrDot) {
			return fmt.Errorf("%s: %w", argv[0], ErrProgramNotFound)
		}
		return err
	}
	err := cmd.Wait()
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // what it left behind
	_ = out.Close()
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return fmt.Errorf("%w (%v)", ctx.Err(), err)
	}
	if tail := out.Tail(); len(tail) > 0 {
		return fmt.Errorf("%w: %s", err, strings.TrimPrefix(tail[len(tail)-1], prefix))
	}
	return err
}

// engineOutput runs a docker or sbx query with the agent's env and returns its stdout.
// Its stderr (bounded) is returned apart, for telling a missing container from an
// unreachable engine. The query runs in its own process group (an ssh:// engine's ssh
// goes with it) and is stopped after timeout (none when 0): its error is then an
// *EngineTimeoutError that says what, shortly, did not answer.
func engineOutput(ctx context.Context, timeout time.Duration, env []string, what string, argv ...string) (string, string, error) {
	ctx, cancel, timedOut := withEngineTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	var stdout bytes.Buffer
	stderr := &tailBuffer{max: 4096}
	cmd.Stdout = &stdout
	cmd.Stderr = stderr
	killGroup(cmd)
	err := cmd.Run()
	if stdout.Len() > 1<<20 {
		stdout.Truncate(1 << 20)
	}
	switch {
	case err != nil && timedOut():
		err = engineTimeout(argv[0], env, what, timeout)
	case err != nil && (errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist)):
		err = fmt.Errorf("%s: %w", argv[0], ErrProgramNotFound)
	}
	return stdout.String(), stderr.String(), err
}

// engineError is the error of an engine query that failed while doing something: its
// last line of stderr says why, unless it ran out of time.
func engineError(doing, errOut string, err error) error {
	var late *EngineTimeoutError
	said := cleanLine(lastLine(errOut))
	if errors.As(err, &late) || said == "" {
		// Nothing on stderr (a program not found says nothing): no empty part.
		return fmt.Errorf("%s: %w", doing, err)
	}
	return fmt.Errorf("%s: %s: %w", doing, said, err)
}

// killGroup makes cmd run in a process group of its own, killed whole when its context
// ends (what it started too), with a second for its pipes to close after.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
}
