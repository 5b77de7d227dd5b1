package runtime

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// ownFixture is a workspace that holds Sidekicks' own files, as the default workspace
// (the configuration's folder) does: the configuration, the preferences, the project
// agents file, the history database (its -wal does not exist yet) and the logs folder;
// plus a protect-listed file.
type ownFixture struct {
	fixture
	own OwnFiles
}

func newOwnFixture(t *testing.T) ownFixture {
	t.Helper()
	f := ownFixture{fixture: newFixture(t)}
	mustWrite(t, filepath.Join(f.root, "config.yaml"), "version: 1\n")
	mustWrite(t, filepath.Join(f.root, "preferences.json"), "{}")
	mustMkdir(t, filepath.Join(f.root, ".sidekicks"))
	mustWrite(t, filepath.Join(f.root, ".sidekicks", "acp.toml"), "# agents\n")
	mustWrite(t, filepath.Join(f.root, "history.db"), "db")
	mustMkdir(t, filepath.Join(f.root, "logs", "agents"))
	mustWrite(t, filepath.Join(f.root, "logs", "agents", "demo.log"), "log")
	mustWrite(t, filepath.Join(f.root, "listed.txt"), "listed")
	f.own = OwnFiles{
		{Path: filepath.Join(f.root, "config.yaml"), Kind: OwnConfig},
		{Path: filepath.Join(f.root, "preferences.json"), Kind: OwnPreferences},
		{Path: filepath.Join(f.root, ".sidekicks", "acp.toml"), Kind: OwnProjectAgents},
		{Path: filepath.Join(f.root, "history.db"), Kind: OwnHistory},
		{Path: filepath.Join(f.root, "history.db-wal"), Kind: OwnHistory},
		{Path: filepath.Join(f.root, "logs"), Kind: OwnLogs, Folder: true},
	}
	return f
}

// agent is the agent of the fixture's workspace, running as rt says.
func (f ownFixture) agent(rt config.Runtime) config.Agent {
	return config.Agent{Name: "a", Workspace: f.root, Protect: []string{"listed.txt"}, Runtime: rt}
}

// ownWrites are the writes that must reach Sidekicks' own files, and which they are:
// directly, through "./" and "..", by an absolute path, and through links planted in the
// workspace (to the file, relative and absolute, and to its folder).
func ownWrites(f ownFixture) []struct {
	path string
	kind OwnKind
} {
	return []struct {
		path string
		kind OwnKind
	}{
		{"config.yaml", OwnConfig},
		{"./config.yaml", OwnConfig},
		{"docs/../config.yaml", OwnConfig},
		{f.root + "/./docs/deep/../../config.yaml", OwnConfig},
		{"cfg-link", OwnConfig},
		{"cfg-abs-link", OwnConfig},
		{"docs/up/config.yaml", OwnConfig},
		{"preferences.json", OwnPreferences},
		{"./prefs-link", OwnPreferences},
		{".sidekicks/acp.toml", OwnProjectAgents},
		{"proj/acp.toml", OwnProjectAgents},
		{"history.db", OwnHistory},
		{"history.db-wal", OwnHistory},
		{"wal-link", OwnHistory},
		{"logs/agents/demo.log", OwnLogs},
		{"logs/new.log", OwnLogs},
	}
}

func plantLinks(t *testing.T, f ownFixture) {
	t.Helper()
	mustLink(t, "config.yaml", filepath.Join(f.root, "cfg-link"))
	mustLink(t, filepath.Join(f.root, "config.yaml"), filepath.Join(f.root, "cfg-abs-link"))
	mustLink(t, "..", filepath.Join(f.root, "docs", "up"))
	mustLink(t, "preferences.json", filepath.Join(f.root, "prefs-link"))
	mustLink(t, ".sidekicks", filepath.Join(f.root, "proj"))
	mustLink(t, "history.db-wal", filepath.Join(f.root, "wal-link")) // dangling
}

// An agent's writes to Sidekicks' own files are refused, whatever path leads there, and
// say which file it is; nothing is written. Its writes to AGENTS.md, skills/** and a
// protect-listed file are its own business (the seed), while the Files window still
// refuses them.
func TestAgentWorkspaceRefusesSidekicksOwnFiles(t *testing.T) {
	eng := newFakeEngines(t)
	for _, rt := range []config.Runtime{
		{Type: "local"},
		{Type: "container", Container: "box"},
		{Type: "sbx", Sandbox: "sandy"},
	} {
		t.Run(rt.Type, func(t *testing.T) {
			f := newOwnFixture(t)
			plantLinks(t, f)
			ctx := context.Background()
			agentWS := NewWorkspace(f.agent(rt), WorkspaceOptions{Own: f.own, ForAgent: true})
			before := snapshot(t, f.root)
			for _, w := range ownWrites(f) {
				err := agentWS.WriteFile(ctx, w.path, []byte("command: evil\n"))
				if w.path == "wal-link" && rt.Type != "local" {
					// The script in the container refuses to follow a dangling link.
					if !errors.Is(err, ErrOutside) {
						t.Errorf("writing %s: %v, want it refused", w.path, err)
					}
					continue
				}
				own := OwnFileOf(err)
				if !errors.Is(err, ErrProtected) || own == nil || own.Kind != w.kind {
					t.Errorf("writing %s: %v, want it refused as %v", w.path, err, w.kind.Reason(i18n.English))
				}
			}
			if after := snapshot(t, f.root); !maps.Equal(before, after) {
				t.Errorf("the workspace changed:\nbefore %q\nafter  %q", before, after)
			}
			if _, err := os.Lstat(filepath.Join(f.root, "history.db-wal")); err == nil {
				t.Error("history.db-wal was created")
			}
			// The agent's own files: allowed.
			for _, p := range []string{"AGENTS.md", "skills/web/SKILL.md", "skills/new/x.md", "listed.txt"} {
				if err := agentWS.WriteFile(ctx, p, []byte("by the agent")); err != nil {
					t.Errorf("the agent writing %s: %v", p, err)
				} else if got := readOr(t, filepath.Join(f.root, p)); got != "by the agent" {
					t.Errorf("%s holds %q", p, got)
				}
			}
			// The Files window: protect applies, and Sidekicks' own files are locked.
			filesWS := NewWorkspace(f.agent(rt), WorkspaceOptions{Own: f.own})
			for _, p := range []string{"AGENTS.md", "skills/web/SKILL.md", "listed.txt"} {
				err := filesWS.WriteFile(ctx, p, []byte("by the user"))
				if !errors.Is(err, ErrProtected) || OwnFileOf(err) != nil {
					t.Errorf("the Files window writing %s: %v, want ErrProtected", p, err)
				}
			}
			for _, p := range []string{"config.yaml", "logs", ".sidekicks"} {
				if err := filesWS.Delete(ctx, p); !errors.Is(err, ErrProtected) {
					t.Errorf("the Files window deleting %s: %v, want it refused", p, err)
				}
			}
			if err := filesWS.Rename(ctx, "config.yaml", "moved.yaml"); OwnFileOf(err) == nil {
				t.Errorf("the Files window moving config.yaml: %v, want it refused", err)
			}
			if err := filesWS.Rename(ctx, "notes.txt", "preferences.json.new"); err != nil {
				t.Errorf("moving notes.txt: %v", err)
			}
			if !filesWS.Protected("config.yaml") || filesWS.Own("./config.yaml") != OwnConfig || filesWS.Own("notes.txt") != OwnNone {
				t.Error("Protected and Own do not know config.yaml")
			}
			eng.calls()
		})
	}
}

// Listing marks Sidekicks' own files, and a link to one of them, with what they are.
func TestListMarksSidekicksOwnFiles(t *testing.T) {
	f := newOwnFixture(t)
	plantLinks(t, f)
	ws := NewWorkspace(f.agent(config.Runtime{Type: "local"}), WorkspaceOptions{Own: f.own})
	list, err := ws.List(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]OwnKind{"config.yaml": OwnConfig, "cfg-link": OwnConfig, "preferences.json": OwnPreferences,
		"history.db": OwnHistory, "logs": OwnLogs, "notes.txt": OwnNone, ".sidekicks": OwnNone}
	for _, fi := range list {
		if k, ok := want[fi.Name]; ok && (fi.Own != k || fi.Protected != (k != OwnNone)) {
			t.Errorf("%s: own %v, protected %v; want %v", fi.Name, fi.Own, fi.Protected, k)
		}
	}
}

// A configuration that is itself a link (to a file in the workspace) is known by where
// it leads.
func TestOwnFileThroughItsOwnLink(t *testing.T) {
	f := newFixture(t)
	mustWrite(t, filepath.Join(f.root, "real.yaml"), "version: 1\n")
	cfg := filepath.Join(f.outside, "config.yaml")
	mustLink(t, filepath.Join(f.root, "real.yaml"), cfg)
	ws := NewWorkspace(config.Agent{Workspace: f.root}, WorkspaceOptions{Own: OwnFiles{{Path: cfg, Kind: OwnConfig}}, ForAgent: true})
	if err := ws.WriteFile(context.Background(), "real.yaml", []byte("x")); OwnFileOf(err) == nil {
		t.Errorf("writing real.yaml: %v, want it refused", err)
	}
	if got := readOr(t, filepath.Join(f.root, "real.yaml")); got != "version: 1\n" {
		t.Errorf("real.yaml holds %q", got)
	}
}

// snapshot maps every path below root to its content (a link to its target).
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		switch {
		case fi.Mode()&os.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out[p] = "-> " + target
		case fi.Mode().IsRegular():
			out[p] = readOr(t, p)
		default:
			out[p] = "folder"
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
