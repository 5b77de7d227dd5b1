package runtime

import (
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// ExecWorkspace is a workspace inside a Docker container (docker exec) or an sbx sandbox
// (sbx exec). Every operation is one run of "ENGINE exec -i TARGET sh -c SCRIPT" with the
// paths as separate arguments (see execScript), bounded by DefaultExecTimeout (an
// *EngineTimeoutError then), with the agent's env added to the command's environment, so
// that DOCKER_HOST or DOCKER_CONTEXT in env reach the engine that holds the agent.
// Protection patterns are checked here before any command runs; symbolic links are
// resolved inside the container, and a path whose resolution differs from what was asked
// is checked here again (inside the root? protected?) before the operation runs on the
// resolved path. Something inside the container that swaps a folder for a link between
// that check and the operation (a few milliseconds) is not caught.
type ExecWorkspace struct {
	engine  string // "docker" or "sbx"
	target  string // the container or the sandbox
	root    string
	env     []string
	protect *protector
	// own are Sidekicks' own files; those in host, the agent's local folder mounted at
	// root, are refused at the same place under root.
	own  OwnFiles
	host string
	// timeout bounds each run of the engine (DefaultExecTimeout; tests shorten it).
	timeout time.Duration
}

// NewContainerWorkspace returns the workspace at root (an absolute path inside the
// container) reached with docker exec, with env added to docker's environment.
func NewContainerWorkspace(container, root string, env map[string]string, protect []string) *ExecWorkspace {
	return newExecWorkspace("docker", container, root, env, protect)
}

// NewSandboxWorkspace returns the workspace at root (an absolute path inside the sandbox)
// reached with sbx exec, with env added to sbx's environment.
func NewSandboxWorkspace(sandbox, root string, env map[string]string, protect []string) *ExecWorkspace {
	return newExecWorkspace("sbx", sandbox, root, env, protect)
}

func newExecWorkspace(engine, target, root string, env map[string]string, protect []string) *ExecWorkspace {
	return &ExecWorkspace{
		engine: engine, target: target, root: path.Clean(root),
		env: envList(env), protect: newProtector(protect), timeout: DefaultExecTimeout,
	}
}

// Root returns the workspace as the agent sees it.
func (w *ExecWorkspace) Root() string { return w.root }

// Protected reports whether changes to the path are refused: it matches a protection
// pattern, or it is one of Sidekicks' own files.
func (w *ExecWorkspace) Protected(rel string) bool {
	r, err := cleanRel(w.root, rel)
	return err == nil && (w.protect.match(r) || w.ownIn(r) != OwnNone)
}

// Own says which of Sidekicks' own files the path is, as asked (the links inside the
// container are resolved when a change is checked).
func (w *ExecWorkspace) Own(rel string) OwnKind {
	r, err := cleanRel(w.root, rel)
	if err != nil {
		return OwnNone
	}
	return w.ownIn(r)
}

// ownIn says which of Sidekicks' own files the clean relative path is: the local file at
// the same place under the agent's local folder.
func (w *ExecWorkspace) ownIn(rel string) OwnKind {
	return w.ownLookup()(rel)
}

// ownLookup returns ownIn with the own files and the local folder resolved once, for the
// many paths of a listing or a walk.
func (w *ExecWorkspace) ownLookup() func(rel string) OwnKind {
	if len(w.own) == 0 || w.host == "" || !filepath.IsAbs(w.host) {
		return func(string) OwnKind { return OwnNone }
	}
	own, host := w.own.resolve(), realLocal(w.host)
	return func(rel string) OwnKind { return own.lookup(filepath.Join(host, filepath.FromSlash(rel))) }
}

// ReadFile returns the content of a regular file of at most max bytes. The script refuses
// what is not a regular file and a file over max before reading it, and copies at most
// max+1 bytes of it; this side stops the command once more than max bytes came (a file
// that grew meanwhile), and refuses the file with a *TooLargeError.
func (w *ExecWorkspace) ReadFile(ctx context.Context, rel string, limit int64) ([]byte, error) {
	limit = max(limit, 0)
	// The cap leaves room for the paths a first run prints when links were followed.
	r, err := w.op(ctx, "read="+strconv.FormatInt(limit, 10), max(limit+1, 64<<10), nil, nil, rel)
	var over *outputOverError
	var large *TooLargeError
	switch {
	case errors.As(err, &over):
		err = &TooLargeError{Limit: limit}
	case errors.As(err, &large):
		large.Limit = limit
	case err == nil && int64(len(r.out)) > limit:
		err = &TooLargeError{Limit: limit}
	}
	if err != nil {
		return nil, fmt.Errorf("reading %q: %w", rel, err)
	}
	return r.out, nil
}

// ReadLines returns the lines [line, line+limit) of a regular file: the script cuts them
// with tail and head, and copies at most max+1 bytes of them (head -c); this side stops
// the command once more than max bytes came.
func (w *ExecWorkspace) ReadLines(ctx context.Context, rel string, line, limit int, maxBytes int64) ([]byte, error) {
	line, limit, maxBytes = max(line, 1), max(limit, -1), max(maxBytes, 0)
	op := fmt.Sprintf("lines=%d,%d,%d", line, limit, maxBytes)
	r, err := w.op(ctx, op, max(maxBytes+1, 64<<10), nil, nil, rel)
	var over *outputOverError
	switch {
	case errors.As(err, &over):
		err = &TooLargeError{Limit: maxBytes}
	case err == nil && int64(len(r.out)) > maxBytes:
		err = &TooLargeError{Limit: maxBytes}
	}
	if err != nil {
		return nil, fmt.Errorf("reading %q: %w", rel, err)
	}
	return r.out, nil
}

// WriteFile replaces a file: the data goes to a temporary file beside it, which is then
// renamed over it; an existing file keeps its permissions.
func (w *ExecWorkspace) WriteFile(ctx context.Context, rel string, data []byte) error {
	_, err := w.op(ctx, "write", maxExecOutput, data, w.refuseProtected, rel)
	if err != nil {
		return fmt.Errorf("writing %q: %w", rel, err)
	}
	return nil
}

// List returns the entries of a folder, sorted by name.
func (w *ExecWorkspace) List(ctx context.Context, rel string) ([]FileInfo, error) {
	r, err := w.op(ctx, "list", maxExecOutput, nil, nil, rel)
	if err != nil {
		return nil, fmt.Errorf("listing %q: %w", rel, err)
	}
	clean, _ := cleanRel(w.root, rel)
	ownIn := w.ownLookup()
	fields := strings.Split(string(r.out), "\x00")
	var list []FileInfo
	for i := 0; i+2 < len(fields); i += 3 {
		var size, mtime int64
		if sm := strings.Fields(fields[i+1]); len(sm) == 2 {
			size, _ = strconv.ParseInt(sm[0], 10, 64)
			mtime, _ = strconv.ParseInt(sm[1], 10, 64)
		}
		name := fields[i+2]
		p := path.Join(clean, name)
		own := ownIn(p)
		list = append(list, FileInfo{
			Name: name, Path: p, Dir: fields[i] == "d", Size: size,
			ModTime: time.Unix(mtime, 0), Protected: w.protect.match(p) || own != OwnNone, Own: own,
		})
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
	return list, nil
}

// Mkdir creates a folder and its parents.
func (w *ExecWorkspace) Mkdir(ctx context.Context, rel string) error {
	if _, err := w.op(ctx, "mkdir", maxExecOutput, nil, w.refuseProtected, rel); err != nil {
		return fmt.Errorf("creating folder %q: %w", rel, err)
	}
	return nil
}

// Rename moves a file or a folder; the destination must not exist.
func (w *ExecWorkspace) Rename(ctx context.Context, from, to string) error {
	err := func() error {
		r, err := w.op(ctx, "walk", maxExecOutput, nil, w.refuseProtected, from)
		if err != nil {
			return err
		}
		clean, err := cleanRel(w.root, to)
		if err != nil {
			return err
		}
		if err := w.refuseProtected(clean); err != nil {
			return err
		}
		ownIn := w.ownLookup()
		for _, p := range r.walked() {
			if err := w.lockedBy(ownIn, p); err != nil {
				return fmt.Errorf("contains %q: %w", p, err)
			}
			if err := w.lockedBy(ownIn, clean+strings.TrimPrefix(p, r.rels[0])); err != nil {
				return err
			}
		}
		_, err = w.op(ctx, "rename", maxExecOutput, nil, w.refuseProtected, from, to)
		return err
	}()
	if err != nil {
		return fmt.Errorf("renaming %q to %q: %w", from, to, err)
	}
	return nil
}

// Delete removes a file or a folder with everything in it, unless it holds a protected
// file.
func (w *ExecWorkspace) Delete(ctx context.Context, rel string) error {
	err := func() error {
		r, err := w.op(ctx, "walk", maxExecOutput, nil, w.refuseProtected, rel)
		if err != nil {
			return err
		}
		ownIn := w.ownLookup()
		for _, p := range r.walked() {
			if err := w.lockedBy(ownIn, p); err != nil {
				return fmt.Errorf("contains %q: %w", p, err)
			}
		}
		_, err = w.op(ctx, "delete", maxExecOutput, nil, w.refuseProtected, rel)
		return err
	}()
	if err != nil {
		return fmt.Errorf("deleting %q: %w", rel, err)
	}
	return nil
}

// walked turns the NUL-separated absolute paths printed by "walk" into paths relative to
// the workspace.
func (r execResult) walked() []string {
	var out []string
	base := strings.TrimSuffix(r.root, "/") + "/"
	for _, p := range strings.Split(string(r.out), "\x00") {
		if rel, ok := strings.CutPrefix(p, base); ok && rel != "" {
			out = append(out, rel)
		}
	}
	return out
}

// refuseProtected is the check run on every path that an operation modifies, as asked
// and once more as resolved.
func (w *ExecWorkspace) refuseProtected(rel string) error {
	if rel == "." {
		return errIsRoot
	}
	return w.locked(rel)
}

// locked returns why the clean relative path may not be changed: one of Sidekicks' own
// files (an *OwnFileError), or a protected file; nil when it may.
func (w *ExecWorkspace) locked(rel string) error { return w.lockedBy(w.ownLookup(), rel) }

// lockedBy is locked with the own files looked up by ownIn (see ownLookup).
func (w *ExecWorkspace) lockedBy(ownIn func(string) OwnKind, rel string) error {
	if k := ownIn(rel); k != OwnNone {
		return &OwnFileError{Path: rel, Kind: k}
	}
	if w.protect.match(rel) {
		return fmt.Errorf("%q: %w", rel, ErrProtected)
	}
	return nil
}
