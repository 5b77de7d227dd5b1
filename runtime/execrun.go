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
	"strings"
	"time"
)

// execResult is what one workspace operation in a container or sandbox gave.
type execResult struct {
	out  []byte   // its standard output
	root string   // the workspace root it ran in (resolved when it was a link)
	rels []string // the paths it ran on, relative to root
}

// Exit statuses of execScript.
const (
	exitDangling = 64
	exitRecheck  = 65
	exitExists   = 66
	exitMissing  = 67
	exitIsFolder = 68
	exitNoRoot   = 69
)

// op runs one operation of execScript on the paths (relative to the workspace), checking
// each with check (when set) as asked and again as resolved in the container.
func (w *ExecWorkspace) op(ctx context.Context, op string, stdin []byte, check func(string) error, paths ...string) (execResult, error) {
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
		out, err := w.run(ctx, op, stdin, res.root, res.rels)
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
// exit 65, and a meaningful error for the script's other statuses.
func (w *ExecWorkspace) run(ctx context.Context, op string, stdin []byte, root string, rels []string) ([]byte, error) {
	args := []string{"exec", "-i", w.target, "sh", "-c", execScript, "sidekicks", op, root}
	for _, r := range rels {
		args = append(args, path.Join(root, r))
	}
	cmd := exec.CommandContext(ctx, w.engine, args...)
	cmd.Env = append(os.Environ(), w.env...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout bytes.Buffer
	stderr := &tailBuffer{max: 2048}
	cmd.Stdout = &stdout
	cmd.Stderr = stderr
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	if err == nil {
		return stdout.Bytes(), nil
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		return nil, fmt.Errorf("running %s exec: %w", w.engine, err)
	}
	switch exit.ExitCode() {
	case exitRecheck:
		return stdout.Bytes(), err
	case exitDangling:
		return nil, fmt.Errorf("a symbolic link that cannot be followed: %w", ErrOutside)
	case exitExists:
		return nil, fs.ErrExist
	case exitMissing:
		return nil, fs.ErrNotExist
	case exitIsFolder:
		return nil, errIsFolder
	case exitNoRoot:
		return nil, fmt.Errorf("the workspace folder %q is missing in %q", root, w.target)
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
