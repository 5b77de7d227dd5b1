package agentstack

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/store"
)

// maxEmbedded is the largest file a prompt carries whole (a resource block); a bigger
// one goes as a link for the agent to read.
const maxEmbedded = 1 << 20

// filesTimeout bounds one look at the workspace (a container's is a docker exec).
const filesTimeout = 10 * time.Second

// workspaceFiles is an agent's workspace as prompt building sees it, for one prompt: a
// mention is a file when its folder's listing holds it (each folder listed once).
type workspaceFiles struct {
	ws    runtime.Workspace
	lists map[string]map[string]bool // folder → its files (not folders)
}

func newWorkspaceFiles(ws runtime.Workspace) *workspaceFiles {
	return &workspaceFiles{ws: ws, lists: make(map[string]map[string]bool)}
}

// Known reports whether p, relative to the workspace, is a file of its listing; paths
// that are not plain relative paths, and what is under .git, are never files.
func (f *workspaceFiles) Known(p string) bool {
	if p == "" || path.IsAbs(p) || path.Clean(p) != p || p == ".." || strings.HasPrefix(p, "../") ||
		p == ".git" || strings.HasPrefix(p, ".git/") {
		return false
	}
	dir, name := path.Split(p)
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" {
		dir = "."
	}
	files, ok := f.lists[dir]
	if !ok {
		files = make(map[string]bool)
		ctx, cancel := context.WithTimeout(context.Background(), filesTimeout)
		infos, err := f.ws.List(ctx, dir)
		cancel()
		if err == nil {
			for _, fi := range infos {
				if !fi.Dir {
					files[fi.Name] = true
				}
			}
		}
		f.lists[dir] = files
	}
	return files[name]
}

// Read returns a file's text, refusing one over maxEmbedded without loading it, and what
// is not a regular file (a named pipe, a device) without blocking.
func (f *workspaceFiles) Read(p string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), filesTimeout)
	defer cancel()
	data, err := f.ws.ReadFile(ctx, p, maxEmbedded)
	if errors.Is(err, runtime.ErrTooLarge) {
		return "", fmt.Errorf("%s is over the %d bytes a prompt carries whole: %w", p, maxEmbedded, err)
	}
	if err != nil {
		return "", err
	}
	return string(data), nil
}

// URI is the file:// URI of the file as the agent sees it.
func (f *workspaceFiles) URI(p string) string {
	return (&url.URL{Scheme: "file", Path: path.Join(f.ws.Root(), p)}).String()
}

// OwnFiles returns Sidekicks' own files for the configuration file at configPath and
// Sidekicks running in dir: that configuration, preferences.json, dir's project agents
// file, the configuration's history database (with its -wal, -shm, -journal and .lock), the logs
// folder, the approvals of project agents files and the trace file SIDEKICKS_ACP_TRACE names. No agent writes them through the
// client, and the Files window shows them locked. A path that cannot be found (no home
// folder) is left out.
func OwnFiles(configPath, dir string) runtime.OwnFiles {
	var own runtime.OwnFiles
	add := func(p string, err error, kind runtime.OwnKind, folder bool) {
		if err == nil && p != "" {
			if abs, err := filepath.Abs(p); err == nil {
				own = append(own, runtime.OwnFile{Path: abs, Kind: kind, Folder: folder})
			}
		}
	}
	if configPath != "" {
		add(configPath, nil, runtime.OwnConfig, false)
		db, err := store.DefaultPath(configPath)
		for _, suffix := range []string{"", "-wal", "-shm", "-journal", ".lock"} {
			add(db+suffix, err, runtime.OwnHistory, false)
		}
	}
	prefs, err := config.PreferencesPath()
	add(prefs, err, runtime.OwnPreferences, false)
	if dir != "" {
		add(filepath.Join(dir, filepath.FromSlash(config.ProjectFile)), nil, runtime.OwnProjectAgents, false)
	}
	logs, err := runtime.LogsDir()
	add(logs, err, runtime.OwnLogs, true)
	trust, err := config.TrustFile()
	add(trust, err, runtime.OwnApprovals, false)
	return WithTrace(own, os.Getenv(acp.TraceEnv))
}

// WithTrace adds the ACP trace file at path (SIDEKICKS_ACP_TRACE, ask's --trace; "" for
// none) to own: an agent that rewrote it would falsify what the user reads to debug it.
func WithTrace(own runtime.OwnFiles, path string) runtime.OwnFiles {
	if path == "" {
		return own
	}
	if abs, err := filepath.Abs(path); err == nil {
		own = append(own, runtime.OwnFile{Path: abs, Kind: runtime.OwnTrace})
	}
	return own
}
