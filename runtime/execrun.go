package runtime

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"strconv"
	"strings"
)

// execResult is what one workspace operation in a container or sandbox gave.
type execResult struct {
	out  []byte   // its standard output
	root string   // the workspace root it ran in (resolved when it was a link)
	rels []string // the paths it ran on, relative to root
}

// Exit statuses of execScript.
const (
	exitDangling  = 64
	exitRecheck   = 65
	exitExists    = 66
	exitMissing   = 67
	exitIsFolder  = 68
	exitNoRoot    = 69
	exitIrregular = 70
	exitTooLarge  = 71
)

// maxExecOutput bounds what one operation other than a read may print (a listing, a walk):
// past it the command is stopped and the operation fails.
const maxExecOutput = 64 << 20

// outputOverError is an operation stopped because it printed more than its cap.
type outputOverError struct{ limit int64 }

func (e *outputOverError) Error() string {
	return fmt.Sprintf("the answer passed %d bytes; stopped", e.limit)
}

// cappedBuffer collects a command's output up to limit bytes; the write that passes it
// fails and calls stop (which kills the command).
type cappedBuffer struct {
	buf   bytes.Buffer
	limit int64
	over  bool
	stop  func()
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if b.over {
		return 0, &outputOverError{b.limit}
	}
	if int64(b.buf.Len())+int64(len(p)) > b.limit {
		b.over = true
		b.stop()
		return 0, &outputOverError{b.limit}
	}
	return b.buf.Write(p)
}

// op runs one operation of execScript on the paths (relative to the workspace), checking
// each with check (when set) as asked and again as resolved in the container. The command
// is stopped once it printed more than limit bytes (the error is an *outputOverError).
func (w *ExecWorkspace) op(ctx context.Context, op string, limit int64, stdin []byte, check func(string) error, paths ...string) (execResult, error) {
	res := execResult{root: w.root}
	for _, p := range paths {
		clean, err := cleanRel(w.root, p)
		if err != nil {
			return res, err
		}
		if check != nil {
			if err := check(clean); err != nil {
				return res, err
			}
		}
		res.rels = append(res.rels, clean)
	}
	for attempt := 0; ; attempt++ {
		out, err := w.run(ctx, op, limit, stdin, res.root, res.rels)
		if err == nil {
			res.out = out
			return res, nil
		}
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != exitRecheck {
			return res, err
		}
		if attempt > 0 {
			return res, errors.New("the workspace changed while it was being checked")
		}
		// Links were followed: check where they lead, then run on the resolved paths.
		fields := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
		if len(fields) != len(res.rels)+1 || !path.IsAbs(fields[0]) {
			return res, errors.New("unexpected answer while resolving the path")
		}
		res.root = path.Clean(fields[0])
		for i, p := range fields[1:] {
			p = path.Clean(p)
			if !within(res.root, p) {
				return res, fmt.Errorf("%q: %w", paths[i], ErrOutside)
			}
			rel := "."
			if p != res.root {
				rel = strings.TrimPrefix(p[len(res.root):], "/")
			}
			if check != nil {
				if err := check(rel); err != nil {
					return res, err
				}
			}
			res.rels[i] = rel
		}
	}
}

// run starts the engine once. Its error is an *exec.ExitError (with stdout returned) for
// exit 65, an *outputOverError when the command printed more than limit bytes (it is then
// stopped), an *EngineTimeoutError when it did not end within the workspace's timeout
// (it is then stopped), and a meaningful error for the script's other statuses.
func (w *ExecWorkspace) run(ctx context.Context, op string, limit int64, stdin []byte, root string, rels []string) ([]byte, error) {
	ctx, cancel, timedOut := withEngineTimeout(ctx, w.timeout)
	defer cancel()
	args := []string{"exec", "-i", w.target, "sh", "-c", execScript, "sidekicks", op, root}
	for _, r := range rels {
		args = append(args, path.Join(root, r))
	}
	cmd := exec.CommandContext(ctx, w.engine, args...)
	cmd.Env = append(os.Environ(), w.env...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	stdout := &cappedBuffer{limit: limit, stop: cancel}
	stderr := &tailBuffer{max: 2048}
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	killGroup(cmd)
	err := cmd.Run()
	if stdout.over {
		return nil, &outputOverError{limit}
	}
	if err == nil {
		return stdout.buf.Bytes(), nil
	}
	if timedOut() {
		return nil, engineTimeout(w.engine, w.env, w.engine+" exec "+w.target, w.timeout)
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		return nil, fmt.Errorf("running %s exec: %w", w.engine, err)
	}
	switch exit.ExitCode() {
	case exitRecheck:
		return stdout.buf.Bytes(), err
	case exitDangling:
		return nil, fmt.Errorf("a symbolic link that cannot be followed: %w", ErrOutside)
	case exitExists:
		return nil, fs.ErrExist
	case exitMissing:
		return nil, fs.ErrNotExist
	case exitIsFolder:
		return nil, errIsFolder
	case exitIrregular:
		return nil, ErrNotRegular
	case exitTooLarge:
		size, _ := strconv.ParseInt(strings.TrimSpace(stdout.buf.String()), 10, 64)
		return nil, &TooLargeError{Size: size} // the caller sets Limit
	case exitNoRoot:
		return nil, fmt.Errorf("the workspace folder %q is missing in %q", root, w.target)
	case exitLacking:
		return nil, &ToolsMissingError{Engine: w.engine, Target: w.target, Missing: stdout.buf.String()}
	}
	// docker prints on stdout that it found no sh.
	if missingShell(exit.ExitCode(), stdout.buf.String()+stderr.String()) {
		return nil, &ToolsMissingError{Engine: w.engine, Target: w.target, Missing: "sh"}
	}
	return nil, fmt.Errorf("%s exec in %q: %s: %w", w.engine, w.target, cleanLine(stderr.String()), err)
}

// envList turns an env map into KEY=VALUE entries.
func envList(env map[string]string) []string {
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	return out
}
