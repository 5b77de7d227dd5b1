package runtime

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"
	"time"

	"git.rickub.com/bots-garden/sidekicks/config"
)

// ErrOutside is returned, wrapped with the path, for a path that leaves the workspace:
// ".." that climbs above it, an absolute path elsewhere, or a symbolic link that leads out.
var ErrOutside error = &refusal{text: "path leaves the workspace", outside: true}

// ErrProtected is returned, wrapped with the path, when an operation would modify or
// delete a protected file, or delete a folder that contains one.
var ErrProtected error = &refusal{text: "protected file"}

// refusal is the type of ErrOutside and ErrProtected. Its methods let the ACP client tell
// a deliberate refusal from a failure (acp.Refusal) without this package importing it.
type refusal struct {
	text    string
	outside bool
}

func (r *refusal) Error() string          { return r.text }
func (r *refusal) OutsideWorkspace() bool { return r.outside }
func (r *refusal) ProtectedFile() bool    { return !r.outside }

// ErrTooLarge is matched (errors.Is) by the error of a read refused because the file is
// over the limit asked; the error is a *TooLargeError.
var ErrTooLarge = errors.New("the file is over the limit")

// ErrNotRegular is returned, wrapped with the path, for a read of something that is not a
// regular file: a named pipe, a device, a socket. Such a thing may block the reader or
// never end, so it is refused before it is opened for reading.
var ErrNotRegular error = &readRefusal{text: "not a regular file"}

// TooLargeError is a read refused because the file is over the limit: nothing beyond the
// limit was read.
type TooLargeError struct {
	// Size is the file's size when it was known before reading, else 0 (it grew, or the
	// workspace only saw more than Limit bytes come).
	Size  int64
	Limit int64
}

func (e *TooLargeError) Error() string {
	if e.Size > 0 {
		return fmt.Sprintf("the file is %d bytes, over the limit of %d", e.Size, e.Limit)
	}
	return fmt.Sprintf("the file is over the limit of %d bytes", e.Limit)
}

// Is makes errors.Is(err, ErrTooLarge) true.
func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// TooLarge lets the ACP client tell this refusal without importing this package.
func (e *TooLargeError) TooLarge() bool { return true }

// readRefusal is the type of ErrNotRegular; its method lets the ACP client tell it.
type readRefusal struct{ text string }

func (r *readRefusal) Error() string        { return r.text }
func (r *readRefusal) NotRegularFile() bool { return true }

// FileInfo describes one entry of a workspace folder.
type FileInfo struct {
	Name string
	// Path is relative to the workspace, with slashes.
	Path    string
	Dir     bool
	Size    int64
	ModTime time.Time
	// Protected is true when the entry itself matches a protection pattern or is one of
	// Sidekicks' own files (a folder that merely contains a protected file is not marked,
	// though it cannot be deleted).
	Protected bool
	// Own says which of Sidekicks' own files the entry is (OwnNone: none).
	Own OwnKind
}

// Workspace is an agent's files, wherever the agent runs. Paths are relative to the
// workspace with slashes (an absolute path inside Root is accepted too). Every operation
// is confined to the workspace and refuses to modify protected files and Sidekicks' own
// files (an *OwnFileError, which matches ErrProtected).
type Workspace interface {
	// Root is the workspace's absolute path as the agent sees it (workspacePath in a
	// container or sandbox).
	Root() string
	// ReadFile returns the whole content of a regular file of at most max bytes. A bigger
	// file is refused with a *TooLargeError, having read at most max+1 bytes of it; what
	// is not a regular file (a named pipe, a device) with ErrNotRegular, without blocking.
	ReadFile(ctx context.Context, rel string, max int64) ([]byte, error)
	// ReadLines returns the lines [line, line+limit) of a regular file (line is 1-based,
	// a negative limit means to the end; a line ends after its newline), reading the file
	// only as far as needed: a file of any size is served in bounded memory. A text over
	// max bytes is refused with a *TooLargeError, what is not a regular file with
	// ErrNotRegular.
	ReadLines(ctx context.Context, rel string, line, limit int, max int64) ([]byte, error)
	// WriteFile replaces a file atomically, creating it and its folders when missing. An
	// existing file keeps its permissions.
	WriteFile(ctx context.Context, rel string, data []byte) error
	// List returns the entries of a folder, sorted by name.
	List(ctx context.Context, rel string) ([]FileInfo, error)
	// Mkdir creates a folder and its parents.
	Mkdir(ctx context.Context, rel string) error
	// Rename moves a file or folder; the destination must not exist. Neither side may be
	// protected, nor may a moved folder contain a protected file.
	Rename(ctx context.Context, from, to string) error
	// Delete removes a file, or a folder recursively; a folder that contains a protected
	// file is refused.
	Delete(ctx context.Context, rel string) error
	// Protected reports whether changes to the path are refused: it matches a protection
	// pattern, or it is one of Sidekicks' own files.
	Protected(rel string) bool
	// Own says which of Sidekicks' own files the path is (OwnNone: none), symbolic links
	// resolved.
	Own(rel string) OwnKind
}

// WorkspaceOptions say who reaches an agent's workspace, and what stays out of reach.
type WorkspaceOptions struct {
	// Own are Sidekicks' own files: never changed through the workspace.
	Own OwnFiles
	// ForAgent makes it the workspace as the agent reaches it through the client
	// (fs/write_text_file): protect and the files always protected do not apply, since
	// they guard the Files window only ("l'agent lui-même, le terminal ou le Finder n'y
	// sont pas soumis"); confinement and Sidekicks' own files do.
	ForAgent bool
}

// WorkspaceFor returns the workspace of an agent as the Files window reaches it, with its
// protections and without knowing Sidekicks' own files (NewWorkspace knows them).
func WorkspaceFor(a config.Agent) Workspace { return NewWorkspace(a, WorkspaceOptions{}) }

// NewWorkspace returns the workspace of an agent, reached the way its runtime says: the
// local folder, docker exec in its container, or sbx exec in its sandbox. In a container
// or sandbox, Sidekicks' own files that sit in the agent's local folder (its workspace
// key) are refused at the same place under workspacePath, the folder being mounted there.
func NewWorkspace(a config.Agent, o WorkspaceOptions) Workspace {
	var protect []string
	if !o.ForAgent {
		protect = Protections(a)
	}
	switch a.Runtime.Type {
	case "container":
		w := NewContainerWorkspace(a.Runtime.Container, workspacePath(a), a.Env, protect)
		w.own, w.host = o.Own, a.Workspace
		return w
	case "sbx":
		w := NewSandboxWorkspace(a.Runtime.Sandbox, workspacePath(a), a.Env, protect)
		w.own, w.host = o.Own, a.Workspace
		return w
	default:
		w := NewLocalWorkspace(a.Workspace, protect)
		w.own = o.Own
		return w
	}
}

// workspacePath is the workspace as the agent sees it.
func workspacePath(a config.Agent) string {
	if a.Runtime.WorkspacePath != "" {
		return a.Runtime.WorkspacePath
	}
	return a.Workspace
}

// cleanRel turns a path given to a workspace into a clean slash path relative to root
// ("." for root itself). An absolute path is accepted when it is inside root.
func cleanRel(root, rel string) (string, error) {
	if strings.IndexByte(rel, 0) >= 0 {
		return "", fmt.Errorf("%q: invalid path", rel)
	}
	p := strings.ReplaceAll(rel, "\\", "/")
	if p == "" {
		return ".", nil
	}
	if path.IsAbs(p) {
		p = path.Clean(p)
		r := path.Clean(strings.ReplaceAll(root, "\\", "/"))
		switch {
		case p == r:
			return ".", nil
		case r == "/":
			return p[1:], nil
		case strings.HasPrefix(p, r+"/"):
			return p[len(r)+1:], nil
		}
		return "", fmt.Errorf("%q: %w", rel, ErrOutside)
	}
	p = path.Clean(p)
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", fmt.Errorf("%q: %w", rel, ErrOutside)
	}
	return p, nil
}

// within reports whether p is root or below it (both clean, absolute, slash or OS paths).
func within(root, p string) bool {
	if root == "/" {
		return strings.HasPrefix(p, "/")
	}
	return p == root || strings.HasPrefix(p, root+"/")
}
