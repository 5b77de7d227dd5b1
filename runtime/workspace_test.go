package runtime

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every workspace implementation must pass the same contract: local, and the container
// and sbx ones through the stand-in engines (which run the script on this machine).
type workspaceMaker func(t *testing.T, root string, protect []string) Workspace

func workspaceKinds() map[string]workspaceMaker {
	return map[string]workspaceMaker{
		"local": func(t *testing.T, root string, protect []string) Workspace {
			return NewLocalWorkspace(root, protect)
		},
		"container": func(t *testing.T, root string, protect []string) Workspace {
			newFakeEngines(t)
			return NewContainerWorkspace("box", root, nil, protect)
		},
		"sbx": func(t *testing.T, root string, protect []string) Workspace {
			newFakeEngines(t)
			return NewSandboxWorkspace("sandy", root, nil, protect)
		},
	}
}

// fixture is a workspace folder beside an "outside" folder holding a secret.
type fixture struct {
	root, outside string
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	base := t.TempDir()
	base, _ = filepath.EvalSymlinks(base)
	f := fixture{root: filepath.Join(base, "ws"), outside: filepath.Join(base, "outside")}
	mustMkdir(t, f.root)
	mustMkdir(t, f.outside)
	mustWrite(t, filepath.Join(f.outside, "secret"), "secret")
	mustWrite(t, filepath.Join(f.root, "AGENTS.md"), "be nice")
	mustWrite(t, filepath.Join(f.root, "notes.txt"), "hello")
	mustMkdir(t, filepath.Join(f.root, "skills", "web"))
	mustWrite(t, filepath.Join(f.root, "skills", "web", "SKILL.md"), "skill")
	mustMkdir(t, filepath.Join(f.root, "docs", "deep"))
	mustWrite(t, filepath.Join(f.root, "docs", "deep", "a.txt"), "a")
	return f
}

func mustMkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func mustWrite(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustLink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func readOr(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

func TestWorkspaceReadWriteList(t *testing.T) {
	for kind, mk := range workspaceKinds() {
		t.Run(kind, func(t *testing.T) {
			f := newFixture(t)
			w := mk(t, f.root, []string{"AGENTS.md", "skills/**"})
			ctx := context.Background()
			if w.Root() != f.root {
				t.Errorf("Root = %q", w.Root())
			}
			got, err := w.ReadFile(ctx, "notes.txt", 1<<20)
			if err != nil || string(got) != "hello" {
				t.Fatalf("ReadFile = %q, %v", got, err)
			}
			if got, err := w.ReadFile(ctx, f.root+"/notes.txt", 1<<20); err != nil || string(got) != "hello" {
				t.Errorf("ReadFile of an absolute path inside = %q, %v", got, err)
			}
			if _, err := w.ReadFile(ctx, "missing.txt", 1<<20); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("ReadFile of a missing file: %v, want ErrNotExist", err)
			}
			if err := w.WriteFile(ctx, "new/sub/file.md", []byte("data\n")); err != nil {
				t.Fatal(err)
			}
			if s := readOr(t, filepath.Join(f.root, "new", "sub", "file.md")); s != "data\n" {
				t.Errorf("written file holds %q", s)
			}
			list, err := w.List(ctx, ".")
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, e := range list {
				names = append(names, e.Name)
				switch e.Name {
				case "AGENTS.md":
					if !e.Protected || e.Dir || e.Size != 7 || e.Path != "AGENTS.md" {
						t.Errorf("AGENTS.md listed as %+v", e)
					}
				case "skills":
					if !e.Dir || !e.Protected {
						t.Errorf("skills listed as %+v", e)
					}
				case "notes.txt":
					if e.Protected || e.Dir || e.ModTime.IsZero() {
						t.Errorf("notes.txt listed as %+v", e)
					}
				}
			}
			if want := "AGENTS.md docs new notes.txt skills"; strings.Join(names, " ") != want {
				t.Errorf("List = %q, want %q", names, want)
			}
			sub, err := w.List(ctx, "docs/deep")
			if err != nil || len(sub) != 1 || sub[0].Path != "docs/deep/a.txt" {
				t.Errorf("List(docs/deep) = %+v, %v", sub, err)
			}
			if err := w.Mkdir(ctx, "made/here"); err != nil {
				t.Fatal(err)
			}
			if fi, err := os.Stat(filepath.Join(f.root, "made", "here")); err != nil || !fi.IsDir() {
				t.Errorf("Mkdir made nothing: %v", err)
			}
			if err := w.Rename(ctx, "notes.txt", "docs/notes.txt"); err != nil {
				t.Fatal(err)
			}
			if s := readOr(t, filepath.Join(f.root, "docs", "notes.txt")); s != "hello" {
				t.Errorf("renamed file holds %q", s)
			}
			if err := w.Rename(ctx, "docs/notes.txt", "docs/deep/a.txt"); !errors.Is(err, fs.ErrExist) {
				t.Errorf("Rename over an existing file: %v, want ErrExist", err)
			}
			if err := w.Delete(ctx, "docs"); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Lstat(filepath.Join(f.root, "docs")); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("docs still there: %v", err)
			}
			if err := w.Delete(ctx, "docs"); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("Delete of a missing file: %v, want ErrNotExist", err)
			}
		})
	}
}

func TestWorkspaceAtomicWrite(t *testing.T) {
	for kind, mk := range workspaceKinds() {
		t.Run(kind, func(t *testing.T) {
			f := newFixture(t)
			w := mk(t, f.root, nil)
			ctx := context.Background()
			p := filepath.Join(f.root, "script.sh")
			mustWrite(t, p, "old")
			if err := os.Chmod(p, 0o750); err != nil {
				t.Fatal(err)
			}
			before, _ := os.Stat(p)
			if err := w.WriteFile(ctx, "script.sh", []byte("new content")); err != nil {
				t.Fatal(err)
			}
			after, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if after.Mode().Perm() != 0o750 {
				t.Errorf("mode %v, want 0750 kept", after.Mode().Perm())
			}
			if os.SameFile(before, after) {
				t.Error("the file was rewritten in place, not replaced by a rename")
			}
			if s := readOr(t, p); s != "new content" {
				t.Errorf("content %q", s)
			}
			entries, _ := os.ReadDir(f.root)
			for _, e := range entries {
				if strings.Contains(e.Name(), "sidekicks-tmp") {
					t.Errorf("temporary file left: %s", e.Name())
				}
			}
			if err := w.WriteFile(ctx, "skills", []byte("x")); err == nil {
				t.Error("writing over a folder must fail")
			}
		})
	}
}

func TestWorkspaceProtection(t *testing.T) {
	for kind, mk := range workspaceKinds() {
		t.Run(kind, func(t *testing.T) {
			f := newFixture(t)
			mustMkdir(t, filepath.Join(f.root, "conf", "sub"))
			mustWrite(t, filepath.Join(f.root, "conf", "sub", "prod.env"), "KEY=1")
			mustWrite(t, filepath.Join(f.root, "conf", "readme"), "r")
			mustMkdir(t, filepath.Join(f.root, "free"))
			mustWrite(t, filepath.Join(f.root, "free", "a.env"), "x")
			w := mk(t, f.root, []string{"AGENTS.md", "skills/**", "conf/**/*.env"})
			ctx := context.Background()
			refused := []struct {
				what string
				do   func() error
			}{
				{"write AGENTS.md", func() error { return w.WriteFile(ctx, "AGENTS.md", []byte("x")) }},
				{"write ./AGENTS.md", func() error { return w.WriteFile(ctx, "./docs/../AGENTS.md", []byte("x")) }},
				{"write under skills", func() error { return w.WriteFile(ctx, "skills/web/SKILL.md", []byte("x")) }},
				{"create under skills", func() error { return w.WriteFile(ctx, "skills/new.md", []byte("x")) }},
				{"write a matched env", func() error { return w.WriteFile(ctx, "conf/sub/prod.env", []byte("x")) }},
				{"mkdir under skills", func() error { return w.Mkdir(ctx, "skills/other") }},
				{"delete AGENTS.md", func() error { return w.Delete(ctx, "AGENTS.md") }},
				{"delete skills", func() error { return w.Delete(ctx, "skills") }},
				{"delete a folder holding a protected file", func() error { return w.Delete(ctx, "conf") }},
				{"rename from protected", func() error { return w.Rename(ctx, "AGENTS.md", "old.md") }},
				{"rename onto protected", func() error { return w.Rename(ctx, "notes.txt", "skills/x.md") }},
				{"rename a folder holding a protected file", func() error { return w.Rename(ctx, "conf", "conf2") }},
				{"rename a folder so that a file becomes protected", func() error { return w.Rename(ctx, "free", "conf/free") }},
			}
			for _, r := range refused {
				if err := r.do(); !errors.Is(err, ErrProtected) {
					t.Errorf("%s: %v, want ErrProtected", r.what, err)
				}
			}
			if err := w.Delete(ctx, "."); err == nil {
				t.Error("deleting the workspace itself must fail")
			}
			if s := readOr(t, filepath.Join(f.root, "AGENTS.md")); s != "be nice" {
				t.Errorf("AGENTS.md now holds %q", s)
			}
			if s := readOr(t, filepath.Join(f.root, "conf", "sub", "prod.env")); s != "KEY=1" {
				t.Errorf("prod.env now holds %q", s)
			}
			if _, err := os.Stat(filepath.Join(f.root, "free", "a.env")); err != nil {
				t.Errorf("free/a.env moved: %v", err)
			}
			err := w.WriteFile(ctx, "AGENTS.md", []byte("x"))
			if err == nil || !strings.Contains(err.Error(), `writing "AGENTS.md"`) {
				t.Errorf("error %v does not say what was refused", err)
			}
			// Reading a protected file is fine, and so is an unprotected one beside it.
			if _, err := w.ReadFile(ctx, "AGENTS.md", 1<<20); err != nil {
				t.Errorf("reading AGENTS.md: %v", err)
			}
			if err := w.Delete(ctx, "conf/readme"); err != nil {
				t.Errorf("deleting an unprotected file beside a protected one: %v", err)
			}
			if !w.Protected("skills/a/b") || w.Protected("notes.txt") || !w.Protected("conf/x/y/z.env") {
				t.Error("Protected disagrees with the patterns")
			}
		})
	}
}

func TestWorkspaceConfinement(t *testing.T) {
	for kind, mk := range workspaceKinds() {
		t.Run(kind, func(t *testing.T) {
			f := newFixture(t)
			mustLink(t, "/etc", filepath.Join(f.root, "etc"))
			mustLink(t, f.outside, filepath.Join(f.root, "sibling"))
			mustLink(t, "../outside/secret", filepath.Join(f.root, "secret-link"))
			mustLink(t, "hop2", filepath.Join(f.root, "hop1"))
			mustLink(t, "docs/../sibling", filepath.Join(f.root, "hop2"))
			mustLink(t, filepath.Join(f.outside, "new-file"), filepath.Join(f.root, "dangling"))
			mustLink(t, "docs/deep", filepath.Join(f.root, "inside-link"))
			mustLink(t, "notes.txt", filepath.Join(f.root, "notes-link"))
			mustLink(t, "AGENTS.md", filepath.Join(f.root, "agents-link"))
			w := mk(t, f.root, []string{"AGENTS.md"})
			ctx := context.Background()
			outside := []struct {
				what string
				do   func() error
			}{
				{"read ../", func() error { _, err := w.ReadFile(ctx, "../outside/secret", 1<<20); return err }},
				{"read a/../../", func() error { _, err := w.ReadFile(ctx, "docs/../../outside/secret", 1<<20); return err }},
				{"read an absolute path elsewhere", func() error { _, err := w.ReadFile(ctx, f.outside+"/secret", 1<<20); return err }},
				{"read /etc/passwd", func() error { _, err := w.ReadFile(ctx, "/etc/passwd", 1<<20); return err }},
				{"read through a link to /etc", func() error { _, err := w.ReadFile(ctx, "etc/passwd", 1<<20); return err }},
				{"list a link to /etc", func() error { _, err := w.List(ctx, "etc"); return err }},
				{"read through a link to a sibling", func() error { _, err := w.ReadFile(ctx, "sibling/secret", 1<<20); return err }},
				{"read a link to a file outside", func() error { _, err := w.ReadFile(ctx, "secret-link", 1<<20); return err }},
				{"read through a chain of links", func() error { _, err := w.ReadFile(ctx, "hop1/secret", 1<<20); return err }},
				{"write through a link to a file outside", func() error { return w.WriteFile(ctx, "secret-link", []byte("pwned")) }},
				{"write through a link to a folder outside", func() error { return w.WriteFile(ctx, "sibling/planted", []byte("pwned")) }},
				{"write through a chain", func() error { return w.WriteFile(ctx, "hop1/secret", []byte("pwned")) }},
				{"write through a dangling link", func() error { return w.WriteFile(ctx, "dangling", []byte("pwned")) }},
				{"mkdir through a link", func() error { return w.Mkdir(ctx, "sibling/dir") }},
				{"delete through a link", func() error { return w.Delete(ctx, "sibling/secret") }},
				{"rename out through a link", func() error { return w.Rename(ctx, "notes.txt", "sibling/notes.txt") }},
				{"rename in through a link", func() error { return w.Rename(ctx, "sibling/secret", "stolen") }},
				{"write ../", func() error { return w.WriteFile(ctx, "../outside/secret", []byte("pwned")) }},
			}
			for _, o := range outside {
				if err := o.do(); !errors.Is(err, ErrOutside) {
					t.Errorf("%s: %v, want ErrOutside", o.what, err)
				}
			}
			if s := readOr(t, filepath.Join(f.outside, "secret")); s != "secret" {
				t.Errorf("the outside secret now holds %q", s)
			}
			for _, name := range []string{"planted", "new-file", "dir", "notes.txt"} {
				if _, err := os.Lstat(filepath.Join(f.outside, name)); err == nil {
					t.Errorf("%s appeared outside", name)
				}
			}
			// Links that stay inside work, and writing through one to a protected file
			// is refused.
			if b, err := w.ReadFile(ctx, "inside-link/a.txt", 1<<20); err != nil || string(b) != "a" {
				t.Errorf("reading through an inside link: %q, %v", b, err)
			}
			if err := w.WriteFile(ctx, "notes-link", []byte("via link")); err != nil {
				t.Errorf("writing through an inside link: %v", err)
			}
			if s := readOr(t, filepath.Join(f.root, "notes.txt")); s != "via link" {
				t.Errorf("notes.txt holds %q after a write through its link", s)
			}
			if fi, err := os.Lstat(filepath.Join(f.root, "notes-link")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
				t.Errorf("the link was replaced: %v", err)
			}
			if err := w.WriteFile(ctx, "agents-link", []byte("x")); !errors.Is(err, ErrProtected) {
				t.Errorf("writing through a link to AGENTS.md: %v, want ErrProtected", err)
			}
			// Deleting a link deletes the link, not what it points to.
			if err := w.Delete(ctx, "sibling"); err != nil {
				t.Errorf("deleting a link: %v", err)
			}
			if s := readOr(t, filepath.Join(f.outside, "secret")); s != "secret" {
				t.Errorf("deleting the link touched the outside: %q", s)
			}
		})
	}
}

// A workspace whose own path goes through a symbolic link still works.
func TestWorkspaceRootIsALink(t *testing.T) {
	for kind, mk := range workspaceKinds() {
		t.Run(kind, func(t *testing.T) {
			f := newFixture(t)
			link := filepath.Join(filepath.Dir(f.root), "ws-link")
			mustLink(t, f.root, link)
			w := mk(t, link, []string{"AGENTS.md"})
			ctx := context.Background()
			if b, err := w.ReadFile(ctx, "notes.txt", 1<<20); err != nil || string(b) != "hello" {
				t.Errorf("ReadFile = %q, %v", b, err)
			}
			if err := w.WriteFile(ctx, "docs/out.txt", []byte("ok")); err != nil {
				t.Error(err)
			}
			if err := w.WriteFile(ctx, "AGENTS.md", []byte("x")); !errors.Is(err, ErrProtected) {
				t.Errorf("AGENTS.md: %v", err)
			}
			if _, err := w.ReadFile(ctx, "../outside/secret", 1<<20); !errors.Is(err, ErrOutside) {
				t.Errorf("escape: %v", err)
			}
			if kind == "local" {
				// The agent's own idea of its folder is the real path.
				if b, err := w.ReadFile(ctx, f.root+"/notes.txt", 1<<20); err != nil || string(b) != "hello" {
					t.Errorf("absolute real path: %q, %v", b, err)
				}
				if _, err := w.ReadFile(ctx, f.outside+"/secret", 1<<20); !errors.Is(err, ErrOutside) {
					t.Errorf("absolute path elsewhere: %v", err)
				}
			}
		})
	}
}
