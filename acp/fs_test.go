package acp_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/runtime"
)

// fsCase is one fs operation of the test agent and what the client must answer.
type fsCase struct {
	op fsOp
	// content is the expected content of a successful read; error, when not empty, a
	// part of the expected error message.
	content string
	error   string
	code    int
}

func intp(n int) *int { return &n }

// snapshot lists every file under dir with its content (links as "-> target").
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out[rel] = "-> " + target
		case d.IsDir():
			out[rel+"/"] = ""
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFilesInsideOutsideAndProtected runs fs requests against the runtime's real local
// workspace: its refusals (runtime.ErrOutside, runtime.ErrProtected) must reach the agent
// with the code of a refusal (-32602), not of a failure.
func TestFilesInsideOutsideAndProtected(t *testing.T) {
	ws := workspaceDir(t)
	outside := filepath.Join(filepath.Dir(ws), "outside")
	writeFiles(t, ws, map[string]string{
		"notes.txt":   "one\ntwo\nthree\n",
		"AGENTS.md":   "rules",
		"skills/s.md": "skill",
		"secret.txt":  "mine",
		"agent.yaml":  "config",
	})
	writeFiles(t, outside, map[string]string{"target.txt": "outside secret"})
	agent := config.Agent{Name: "tester", Workspace: ws, Protect: []string{"secret.txt"}, Args: []string{"--config", filepath.Join(ws, "agent.yaml")}}
	var workspace acp.Workspace = runtime.NewLocalWorkspace(ws, runtime.Protections(agent))
	outsideBefore := snapshot(t, outside)

	in := func(name string) string { return ws + "/" + name }
	cases := []fsCase{
		{op: fsOp{Op: "read", Path: in("notes.txt")}, content: "one\ntwo\nthree\n"},
		{op: fsOp{Op: "read", Path: in("notes.txt"), Line: intp(2), Limit: intp(1)}, content: "two\n"},
		{op: fsOp{Op: "read", Path: in("notes.txt"), Line: intp(2)}, content: "two\nthree\n"},
		{op: fsOp{Op: "read", Path: in("notes.txt"), Limit: intp(2)}, content: "one\ntwo\n"},
		{op: fsOp{Op: "read", Path: in("notes.txt"), Line: intp(10)}, content: ""},
		{op: fsOp{Op: "read", Path: in("sub/../notes.txt")}, content: "one\ntwo\nthree\n"},
		{op: fsOp{Op: "read", Path: in("notes.txt"), Line: intp(0)}, error: "line must be 1 or more", code: -32602},
		{op: fsOp{Op: "read", Path: in("../outside/target.txt")}, error: "outside the agent's workspace", code: -32602},
		{op: fsOp{Op: "read", Path: outside + "/target.txt"}, error: "outside the agent's workspace", code: -32602},
		{op: fsOp{Op: "read", Path: "/etc/passwd"}, error: "outside the agent's workspace", code: -32602},
		{op: fsOp{Op: "read", Path: "notes.txt"}, error: "not absolute", code: -32602},
		{op: fsOp{Op: "read", Path: ws}, error: "the workspace itself", code: -32602},
		{op: fsOp{Op: "read", Path: in("missing.txt")}, error: "no such file", code: -32002},
		{op: fsOp{Op: "write", Path: in("new/dir/file.txt"), Content: "hello"}},
		{op: fsOp{Op: "read", Path: in("new/dir/file.txt")}, content: "hello"},
		{op: fsOp{Op: "write", Path: in("../outside/evil.txt"), Content: "x"}, error: "outside the agent's workspace", code: -32602},
		{op: fsOp{Op: "write", Path: outside + "/evil.txt", Content: "x"}, error: "outside the agent's workspace", code: -32602},
		{op: fsOp{Op: "write", Path: in("AGENTS.md"), Content: "x"}, error: "protected"},
		{op: fsOp{Op: "write", Path: in("skills/new.md"), Content: "x"}, error: "protected"},
		{op: fsOp{Op: "write", Path: in("skills/s.md"), Content: "x"}, error: "protected"},
		{op: fsOp{Op: "write", Path: in("secret.txt"), Content: "x"}, error: "protected"},
		{op: fsOp{Op: "write", Path: in("agent.yaml"), Content: "x"}, error: "protected"},
		// Symbolic links planted by the agent.
		{op: fsOp{Op: "symlink", Path: in("link"), Target: outside}},
		{op: fsOp{Op: "read", Path: in("link/target.txt")}, error: "leaves the workspace"},
		{op: fsOp{Op: "write", Path: in("link/evil.txt"), Content: "x"}, error: "leaves the workspace"},
		{op: fsOp{Op: "symlink", Path: in("abs-link.txt"), Target: outside + "/target.txt"}},
		{op: fsOp{Op: "read", Path: in("abs-link.txt")}, error: "leaves the workspace"},
		{op: fsOp{Op: "write", Path: in("abs-link.txt"), Content: "x"}, error: "leaves the workspace"},
		{op: fsOp{Op: "symlink", Path: in("rules-link.md"), Target: "AGENTS.md"}},
		{op: fsOp{Op: "write", Path: in("rules-link.md"), Content: "x"}, error: "protected"},
	}
	ops := make([]fsOp, len(cases))
	for i, c := range cases {
		ops[i] = c.op
	}
	_, s, rec := session(t, "basic", acp.Options{Workspace: workspace})
	opsJSON, _ := json.Marshal(ops)
	prompt(t, s, "fs "+string(opsJSON))

	checkFSResults(t, rec.textOf(acp.AgentMessageChunk), cases)

	// Nothing outside the workspace, nor any protected file, was touched.
	if after := snapshot(t, outside); !equalMaps(outsideBefore, after) {
		t.Errorf("the folder outside changed: %v -> %v", outsideBefore, after)
	}
	got := snapshot(t, ws)
	want := map[string]string{
		"./": "", "notes.txt": "one\ntwo\nthree\n", "AGENTS.md": "rules", "skills/": "", "skills/s.md": "skill",
		"secret.txt": "mine", "agent.yaml": "config", "new/": "", "new/dir/": "", "new/dir/file.txt": "hello",
		"link": "-> " + outside, "abs-link.txt": "-> " + outside + "/target.txt", "rules-link.md": "-> AGENTS.md",
	}
	if !equalMaps(got, want) {
		t.Errorf("workspace = %v\nwant %v", keys(got), keys(want))
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s = %q, want %q", k, got[k], v)
			}
		}
	}
}

func TestFilesWithoutWorkspaceAreRefused(t *testing.T) {
	_, s, rec := session(t, "basic", acp.Options{})
	ops, _ := json.Marshal([]fsOp{{Op: "read", Path: "/work/x"}, {Op: "write", Path: "/work/x", Content: "x"}})
	prompt(t, s, "fs "+string(ops))
	for _, l := range strings.Split(strings.TrimSpace(rec.textOf(acp.AgentMessageChunk)), "\n") {
		var r fsResult
		json.Unmarshal([]byte(l), &r)
		if r.OK || !strings.Contains(r.Message, "no access to files") {
			t.Errorf("got %+v, want a refusal", r)
		}
	}
}

func TestRelativePath(t *testing.T) {
	for _, tc := range []struct{ root, p, rel, err string }{
		{"/ws", "/ws/a.txt", "a.txt", ""},
		{"/ws/", "/ws/a/b/../c.txt", "a/c.txt", ""},
		{"/ws", "/ws/../ws/a", "a", ""},
		{"/ws", "/wsx/a", "", "outside"},
		{"/ws", "/ws/../etc/passwd", "", "outside"},
		{"/ws", "/ws", "", "workspace itself"},
		{"/ws", "a.txt", "", "not absolute"},
		{"/ws", "", "", "empty"},
		{"/ws", "/ws/a\x00b", "", "NUL"},
		{"/", "/etc/passwd", "etc/passwd", ""},
	} {
		rel, err := acp.RelativePath(tc.root, tc.p)
		switch {
		case tc.err == "" && (err != nil || rel != tc.rel):
			t.Errorf("RelativePath(%q, %q) = %q, %v; want %q", tc.root, tc.p, rel, err, tc.rel)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("RelativePath(%q, %q) = %q, %v; want an error saying %q", tc.root, tc.p, rel, err, tc.err)
		}
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// checkFSResults checks the fs agent's reply, one JSON result a line, against the cases:
// each succeeds with its content, or is refused with its message (and its code, when the
// case gives one; a refusal's code otherwise).
func checkFSResults(t *testing.T, reply string, cases []fsCase) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(reply, "\n"), "\n")
	if len(lines) != len(cases) {
		t.Fatalf("the agent reported %d results for %d operations:\n%s", len(lines), len(cases), strings.Join(lines, "\n"))
	}
	for i, c := range cases {
		var r fsResult
		if err := json.Unmarshal([]byte(lines[i]), &r); err != nil {
			t.Fatalf("result %d: %v", i, err)
		}
		switch {
		case c.error == "" && (!r.OK || r.Content != c.content):
			t.Errorf("%s %s: got %+v, want success with %q", c.op.Op, c.op.Path, r, c.content)
		case c.error != "" && (r.OK || !strings.Contains(r.Message, c.error)):
			t.Errorf("%s %s: got %+v, want an error saying %q", c.op.Op, c.op.Path, r, c.error)
		case c.code != 0 && r.Code != c.code:
			t.Errorf("%s %s: code %d, want %d", c.op.Op, c.op.Path, r.Code, c.code)
		case c.error != "" && r.Code != -32602 && r.Code != -32002:
			t.Errorf("%s %s: code %d, want -32602 for a refusal", c.op.Op, c.op.Path, r.Code)
		}
	}
}
