package workbench

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// workspaceFiles is the workspace every Files test starts from.
var workspaceFiles = map[string]string{
	"AGENTS.md":           "# Agent\n",
	"README.md":           "Hello\n",
	"app.py":              "def main():\n    return 42\n",
	"agent.yaml":          "model: small\n",
	"secret.txt":          "s3cret\n",
	"skills/web/SKILL.md": "web\n",
	"notes/todo.txt":      "todo\n",
	"notes/keep.lock":     "lock\n",
	"src/lib/util.go":     "package lib\n",
	"old/x.txt":           "x\n",
	".git/HEAD":           "ref: refs/heads/main\n",
}

// filesAgent is an agent whose workspace holds workspaceFiles and an empty folder docs/,
// protecting secret.txt, notes/*.lock and src/lib/*.go, with agent.yaml as its
// configuration file.
func filesAgent(t *testing.T) config.Agent {
	t.Helper()
	a := testAgentConfig(t, "alice", "Alice", "🦊")
	a.Workspace = filepath.Join(a.Workspace, "alice")
	a.Runtime.WorkspacePath = a.Workspace
	a.Args = []string{"--config", "agent.yaml"}
	a.Protect = []string{"secret.txt", "notes/*.lock", "src/lib/*.go"}
	for name, content := range workspaceFiles {
		p := filepath.Join(a.Workspace, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(a.Workspace, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	return a
}

// openFiles opens the Files window of an agent and waits for its root listing.
func openFiles(t *testing.T, h *harness, a config.Agent) *Files {
	t.Helper()
	var f *Files
	h.do(func() {
		var err error
		if f, _, err = OpenFiles(FilesOptions{App: h.app, Agent: a}); err != nil {
			t.Fatal(err)
		}
	})
	h.waitText("README.md")
	return f
}

// selectPath highlights a path, opening the folders above it.
func selectPath(t *testing.T, h *harness, f *Files, p string) {
	t.Helper()
	dirs := strings.Split(p, "/")
	for i := 1; i < len(dirs); i++ {
		dir := strings.Join(dirs[:i], "/")
		h.do(func() {
			if !f.Select(dir) {
				t.Fatalf("%s is not in the tree", dir)
			}
		})
		if !onUI(h, func() bool { return f.isOpen(f.rows[f.sel]) }) {
			h.press(tcell.KeyRight)
		}
		h.waitText(dirs[i])
	}
	h.do(func() {
		if !f.Select(p) {
			t.Fatalf("%s is not in the tree", p)
		}
	})
}

func exists(t *testing.T, a config.Agent, p string) bool {
	t.Helper()
	_, err := os.Lstat(filepath.Join(a.Workspace, filepath.FromSlash(p)))
	return err == nil
}

func TestFilesTreeAndViewer(t *testing.T) {
	a := filesAgent(t)
	h := newHarness(t, 100, 20, i18n.English)
	f := openFiles(t, h, a)
	// Folders first, .git hidden, protected files marked.
	fr := h.waitText("docs/")
	if strings.Contains(fr.text(), ".git") {
		t.Errorf(".git shows:\n%s", fr.text())
	}
	rows := onUI(h, func() []string {
		var out []string
		for _, r := range f.rows[1:] {
			out = append(out, r.info.Name)
		}
		return out
	})
	want := []string{"docs", "notes", "old", "skills", "src", "AGENTS.md", "README.md", "agent.yaml", "app.py", "secret.txt"}
	if strings.Join(rows, " ") != strings.Join(want, " ") {
		t.Errorf("rows %q, want %q", rows, want)
	}
	for _, p := range []string{"AGENTS.md 🔒", "agent.yaml 🔒", "secret.txt 🔒"} {
		h.waitText(p)
	}
	if strings.Contains(fr.text(), "README.md 🔒") {
		t.Error("README.md is marked protected")
	}

	// The viewer highlights by file name: "def" is a Python keyword.
	selectPath(t, h, f, "app.py")
	fr = h.waitText("1 def main():", "2     return 42")
	x, y, _ := fr.find("def main")
	if got, want := fr.style(x, y), h.app.Theme().Style(window.ClassKeyword); got != want {
		t.Errorf("def is drawn %v, want the keyword's %v", got, want)
	}
	h.golden("files")

	// Folders open and close; an open folder says when it is empty.
	h.do(func() { f.Select("docs") })
	h.press(tcell.KeyRight)
	h.waitText("▾ docs/  (empty)")
	selectPath(t, h, f, "src/lib/util.go")
	h.waitText("    ▾ lib/", "util.go", "1 package lib")
	h.do(func() { f.Select("src") })
	h.press(tcell.KeyLeft)
	h.waitGone("util.go")
}

func TestFilesAsciiMarks(t *testing.T) {
	a := filesAgent(t)
	h := newHarness(t, 80, 16, i18n.English)
	h.do(func() {
		if _, _, err := OpenFiles(FilesOptions{App: h.app, Agent: a, ASCII: true}); err != nil {
			t.Fatal(err)
		}
	})
	h.waitText("AGENTS.md [p]", "> notes/", "v alice/")
}

func TestFilesProtectionRefusals(t *testing.T) {
	a := filesAgent(t)
	h := newHarness(t, 110, 24, i18n.English)
	f := openFiles(t, h, a)
	const refusal = "is protected: the configuration"
	for _, p := range []string{"AGENTS.md", "skills/web/SKILL.md", "agent.yaml", "secret.txt", "notes/keep.lock"} {
		func() {
			selectPath(t, h, f, p)
			for _, k := range []func(){
				func() { h.press(tcell.KeyDelete) },
				func() { h.typeText("r") },
				func() { h.typeText("e") },
				func() { h.typeText("E") },
			} {
				h.do(func() { f.msg = ""; f.Select(p) })
				k()
				h.waitText("“" + p + "” " + refusal)
				if got, want := onUI(h, func() string { return f.msg }), catalogue.Text(i18n.English, tProtected, p); got != want {
					t.Errorf("message %q, want %q", got, want)
				}
			}
			if !exists(t, a, p) {
				t.Fatalf("%s is gone", p)
			}
			if b, _ := os.ReadFile(filepath.Join(a.Workspace, p)); string(b) != workspaceFiles[p] {
				t.Errorf("%s changed: %q", p, b)
			}
		}()
	}
	// A folder holding a protected file: asked, then refused, saying which file.
	for _, tt := range []struct{ dir, inside string }{{"src", "src/lib/util.go"}, {"notes", "notes/keep.lock"}} {
		func() {
			h.do(func() { f.msg = ""; f.Select(tt.dir) })
			h.press(tcell.KeyDelete)
			h.waitText("Delete the folder “" + tt.dir + "” and everything in it?")
			h.typeText("y")
			h.waitText("The folder “"+tt.dir+"” cannot be deleted or moved: it contains a protected file", "("+tt.inside+")")
			if !exists(t, a, tt.inside) {
				t.Fatalf("%s is gone", tt.inside)
			}
			// Renaming it is refused too.
			h.typeText("r")
			h.waitText("New name of “" + tt.dir + "”")
			h.typeText("2")
			h.press(tcell.KeyEnter)
			h.waitText("The folder “" + tt.dir + "” cannot be deleted or moved")
			if !exists(t, a, tt.inside) {
				t.Fatalf("%s moved", tt.inside)
			}
		}()
	}
	// skills/** covers the folder itself.
	h.do(func() { f.msg = ""; f.Select("skills") })
	h.press(tcell.KeyDelete)
	h.waitText("“skills” " + refusal)
	// Creating a protected file is refused before anything runs.
	h.do(func() { f.msg = ""; f.Select(rootPath) })
	h.typeText("n")
	h.waitText("New file", "Name, in ./:")
	h.typeText("other.lock") // notes/*.lock does not cover the root
	h.press(tcell.KeyEnter)
	h.waitText("Created “other.lock”.")
	if !exists(t, a, "other.lock") {
		t.Fatal("other.lock was not created")
	}
	h.do(func() { f.Select("notes") })
	h.typeText("n")
	h.typeText("new.lock")
	h.press(tcell.KeyEnter)
	h.waitText("“notes/new.lock” " + refusal)
	if exists(t, a, "notes/new.lock") {
		t.Fatal("notes/new.lock was created")
	}
}

func TestFilesRefusalInFrench(t *testing.T) {
	a := filesAgent(t)
	h := newHarness(t, 110, 24, i18n.French)
	f := openFiles(t, h, a)
	h.do(func() { f.Select("AGENTS.md") })
	h.press(tcell.KeyDelete)
	h.waitText("« AGENTS.md » est protégé : la configuration")
	h.do(func() { f.Select("notes") })
	h.press(tcell.KeyDelete)
	h.waitText("Supprimer le dossier « notes » et tout son contenu ?")
	h.typeText("o")
	h.waitText("Le dossier « notes » ne peut être ni supprimé ni déplacé : il contient un fichier protégé")
}

func TestFilesActionsElsewhere(t *testing.T) {
	a := filesAgent(t)
	h := newHarness(t, 100, 24, i18n.English)
	f := openFiles(t, h, a)

	// New file in the highlighted folder; a name already there is refused in the dialog.
	h.do(func() { f.Select("docs") })
	h.typeText("n")
	h.waitText("Name, in docs/:")
	h.typeText("plan.md")
	h.press(tcell.KeyEnter)
	h.waitText("Created “docs/plan.md”.")
	if b, err := os.ReadFile(filepath.Join(a.Workspace, "docs", "plan.md")); err != nil || len(b) != 0 {
		t.Fatalf("docs/plan.md: %q, %v", b, err)
	}
	// The highlight moves to the new file once its folder has been listed again, off the
	// screen's goroutine, after the message.
	highlighted := func() string { return onUI(h, func() string { r, _ := f.current(); return r.info.Path }) }
	h.waitFrame("docs/plan.md highlighted", func(screenFrame) bool { return highlighted() == "docs/plan.md" })
	h.typeText("n")
	h.typeText("plan.md")
	h.press(tcell.KeyEnter)
	h.waitText("“plan.md” already exists.")
	h.press(tcell.KeyEsc)
	h.waitGone("already exists")

	// New folder.
	h.do(func() { f.Select(rootPath) })
	h.typeText("N")
	h.waitText("New folder", "Name, in ./:")
	h.typeText("build")
	h.press(tcell.KeyEnter)
	h.waitText("Created “build”.")
	if st, err := os.Stat(filepath.Join(a.Workspace, "build")); err != nil || !st.IsDir() {
		t.Fatalf("build: %v", err)
	}

	// Rename, in its folder.
	h.do(func() { f.Select("README.md") })
	h.typeText("r")
	h.waitText("New name of “README.md”:")
	for range "README.md" {
		h.press(tcell.KeyBackspace)
	}
	h.typeText("INTRO.md")
	h.press(tcell.KeyEnter)
	h.waitText("Renamed to “INTRO.md”.")
	if exists(t, a, "README.md") || !exists(t, a, "INTRO.md") {
		t.Fatal("README.md was not renamed")
	}

	// Delete a file, then a folder with no protected file: asked first.
	h.do(func() { f.Select("app.py") })
	h.press(tcell.KeyDelete)
	h.waitText("Delete the file “app.py”?")
	h.press(tcell.KeyEnter) // No has the focus: nothing is deleted
	h.waitGone("Delete the file")
	if !exists(t, a, "app.py") {
		t.Fatal("Enter on the question deleted app.py")
	}
	h.press(tcell.KeyDelete)
	h.typeText("y")
	h.waitText("Deleted “app.py”.")
	if exists(t, a, "app.py") {
		t.Fatal("app.py is still there")
	}
	h.do(func() { f.Select("old") })
	h.press(tcell.KeyDelete)
	h.waitText("Delete the folder “old” and everything in it?")
	h.typeText("y")
	h.waitText("Deleted “old”.")
	if exists(t, a, "old") {
		t.Fatal("old is still there")
	}
}

func TestFilesShowWhatTheAgentChanged(t *testing.T) {
	a := filesAgent(t)
	h := newHarness(t, 100, 24, i18n.English)
	f := openFiles(t, h, a)
	write := func(p, content string) {
		if err := os.WriteFile(filepath.Join(a.Workspace, p), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Ctrl-R lists again, and the file viewed is read again when it changed.
	h.do(func() { f.Select("README.md") })
	h.waitText("1 Hello")
	write("made-by-agent.txt", "x")
	write("README.md", "Hello again, longer\n")
	h.ctrl('r')
	h.waitText("made-by-agent.txt", "1 Hello again, longer")

	// On focus: another window in front, a change, then the Files window again.
	h.do(func() {
		if _, err := h.app.AddWindow("Other", window.NewTextView()); err != nil {
			t.Fatal(err)
		}
	})
	write("away.txt", "y")
	h.do(func() { h.app.FocusNumber(1) })
	h.waitText("away.txt")
}

func TestFilesHostileAndLargeFiles(t *testing.T) {
	a := filesAgent(t)
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(a.Workspace, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("evil\x1b[2J\x07.txt", []byte("\x1b]52;c;aGk=\x07text\x1b[31m red\n"))
	big := strings.Repeat("0123456789abcdef\n", 20000) // 340 KB
	write("big.txt", []byte(big))
	// A sparse file: its size says 17 MB, nothing is read.
	if err := os.Truncate(filepath.Join(a.Workspace, "huge.log"), 17<<20); err != nil {
		write("huge.log", nil)
		if err := os.Truncate(filepath.Join(a.Workspace, "huge.log"), 17<<20); err != nil {
			t.Fatal(err)
		}
	}
	h := newHarness(t, 120, 24, i18n.English)
	f := openFiles(t, h, a)

	noRawControls := func(fr screenFrame) {
		t.Helper()
		for _, c := range fr.Cells {
			for _, r := range c.Runes {
				if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
					t.Fatalf("a raw control character %U reached the screen:\n%s", r, fr.text())
				}
			}
		}
	}
	h.do(func() { f.Select("evil\x1b[2J\x07.txt") })
	noRawControls(h.waitText("evil␛[2J␇.txt", "]52;c;aGk=", "text", "[31m red"))

	h.do(func() { f.Select("big.txt") })
	fr := h.waitText("… truncated: only the first 262.1 KB of 340.0 KB are shown.", "1 0123456789abcdef")
	noRawControls(fr)

	h.do(func() { f.Select("huge.log") })
	h.waitText("Too large to show here (17.8 MB).")
}

func TestLexerForFileNames(t *testing.T) {
	for name, want := range map[string]string{
		"app.py": "Python", "main.go": "Go", "Dockerfile": "Docker", "notes.txt": "plaintext", "x.unknown-ext": "",
	} {
		if got := lexerFor(name); got != want {
			t.Errorf("lexerFor(%q) = %q, want %q", name, got, want)
		}
	}
	lexerMu.Lock()
	_, cached := lexerNames["app.py"]
	lexerMu.Unlock()
	if !cached {
		t.Error("the lexer of app.py was not remembered")
	}
}

// TestFilesViewerRefusesPipesAndDevices: the listing says 0 bytes for a named pipe and a
// device; the viewer must not read them (a pipe nobody writes to would block the reads
// queue for good) and says why, then shows the next file.
func TestFilesViewerRefusesPipesAndDevices(t *testing.T) {
	a := filesAgent(t)
	if err := syscall.Mkfifo(filepath.Join(a.Workspace, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	names := []string{"pipe"}
	if err := syscall.Mknod(filepath.Join(a.Workspace, "null"), syscall.S_IFCHR|0o644, 1<<8|3); err == nil {
		names = append(names, "null")
	} else {
		t.Logf("no device tested: %v", err)
	}
	h := newHarness(t, 120, 24, i18n.English)
	f := openFiles(t, h, a)
	for _, name := range names {
		h.do(func() { f.Select(name) })
		h.waitText("“" + name + "” is not a regular file")
		h.do(func() { f.Select("README.md") })
		h.waitText("Hello")
	}
}
