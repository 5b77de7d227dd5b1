package workbench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"github.com/gdamore/tcell/v2"
)

func readWS(t *testing.T, root, p string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestBuiltInEditor(t *testing.T) {
	a := filesAgent(t)
	h := newHarness(t, 100, 24, i18n.English)
	f := openFiles(t, h, a)

	// e opens README.md in the editor; typing, Enter, a paste, then Ctrl-S saves through
	// the workspace.
	h.do(func() { f.Select("README.md") })
	h.typeText("e")
	h.waitText("README.md — Alice", "Line 1, column 1")
	h.press(tcell.KeyEnd)
	h.typeText(", world")
	h.press(tcell.KeyEnter)
	h.paste("pasted\nlines")
	h.waitText("● README.md — Alice", "2 pasted", "3 lines", "modified")
	h.ctrl('s')
	h.waitText("Saved “README.md”.")
	h.waitGone("● README.md")
	if got, want := readWS(t, a.Workspace, "README.md"), "Hello, world\npasted\nlines\n"; got != want {
		t.Fatalf("README.md holds %q, want %q", got, want)
	}
	// The Files window lists again after a save: its viewer shows the new text.
	h.waitText("1 Hello, world")

	// Esc with changes asks; "Close without saving" leaves the file as it was.
	h.typeText("X")
	h.press(tcell.KeyEsc)
	h.waitText("“README.md” was changed", "Save and close", "Close without saving", "Keep editing")
	h.press(tcell.KeyEsc) // keep editing
	h.waitGone("was changed")
	h.waitText("● README.md — Alice")
	h.press(tcell.KeyEsc)
	h.waitText("“README.md” was changed")
	h.typeText("close without")
	h.press(tcell.KeyEnter)
	h.waitGone("README.md — Alice")
	if got := readWS(t, a.Workspace, "README.md"); got != "Hello, world\npasted\nlines\n" {
		t.Fatalf("closing without saving changed README.md to %q", got)
	}

	// "Save and close".
	h.do(func() { f.Select("app.py") })
	h.typeText("e")
	h.waitText("app.py — Alice")
	h.typeText("# ")
	h.press(tcell.KeyEsc)
	h.waitText("“app.py” was changed")
	h.typeText("save and")
	h.press(tcell.KeyEnter)
	h.waitGone("app.py — Alice")
	if got := readWS(t, a.Workspace, "app.py"); got != "# def main():\n    return 42\n" {
		t.Fatalf("app.py holds %q", got)
	}

	// A binary file is not opened.
	if err := os.WriteFile(filepath.Join(a.Workspace, "blob.bin"), []byte("a\x00b"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.ctrl('r')
	h.waitText("blob.bin")
	h.do(func() { f.msg = ""; f.Select("blob.bin") })
	h.waitText("Binary file (3 B): not shown.")
	h.typeText("e")
	h.waitText("“blob.bin” cannot be edited here")
}

// editorScript is an $EDITOR that appends a line to the file and records where it ran
// and on which file.
const editorScript = `#!/bin/sh
printf '%s\n' "$1" >> "$EDITOR_RECORD"
printf 'edited\n' >> "$1"
`

func installEditor(t *testing.T) (record string) {
	t.Helper()
	dir := t.TempDir()
	script := filepath.Join(dir, "fake editor")
	if err := os.WriteFile(script, []byte(editorScript), 0o755); err != nil {
		t.Fatal(err)
	}
	record = filepath.Join(dir, "record")
	// A name with a space, quoted the way a user would write it in EDITOR.
	t.Setenv("EDITOR", "'"+script+"'")
	t.Setenv("EDITOR_RECORD", record)
	quietTerminal(t)
	return record
}

// quietTerminal gives what is lent the terminal files instead of the test's terminal.
func quietTerminal(t *testing.T) (out string) {
	t.Helper()
	out = filepath.Join(t.TempDir(), "terminal")
	saved := lendTerminal
	lendTerminal = func() (*os.File, *os.File, *os.File, func()) {
		in, err := os.Open(os.DevNull)
		if err != nil {
			t.Error(err)
		}
		o, err := os.OpenFile(out, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			t.Error(err)
		}
		return in, o, o, func() { in.Close(); o.Close() }
	}
	t.Cleanup(func() { lendTerminal = saved })
	return out
}

func TestExternalEditorLocal(t *testing.T) {
	record := installEditor(t)
	a := filesAgent(t)
	h := newHarness(t, 100, 24, i18n.English)
	f := openFiles(t, h, a)
	h.do(func() { f.Select("README.md") })
	h.waitText("1 Hello")
	h.typeText("E")
	// The file is edited where it is, and the viewer reads it again.
	h.waitText("2 edited")
	if got := readWS(t, a.Workspace, "README.md"); got != "Hello\nedited\n" {
		t.Fatalf("README.md holds %q", got)
	}
	if got, want := strings.TrimSpace(readFile(t, record)), filepath.Join(a.Workspace, "README.md"); got != want {
		t.Errorf("the editor got %q, want %q", got, want)
	}
	// A protected file is refused before the editor runs.
	h.do(func() { f.Select("AGENTS.md") })
	h.typeText("E")
	h.waitText("“AGENTS.md” is protected")
	if got := strings.Count(readFile(t, record), "\n"); got != 1 {
		t.Errorf("the editor ran %d times", got)
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestExternalEditorInContainer(t *testing.T) {
	eng := installEngines(t)
	record := installEditor(t)
	a := inEngine(filesAgent(t), "container", boxLifecycle)
	h := newHarness(t, 100, 24, i18n.English)
	f := openFiles(t, h, a)
	h.do(func() { f.Select("README.md") })
	h.waitText("1 Hello")
	eng.calls()
	h.typeText("E")
	h.waitText("Saved “README.md”.", "2 edited")
	if got := readWS(t, a.Workspace, "README.md"); got != "Hello\nedited\n" {
		t.Fatalf("README.md holds %q", got)
	}
	// The editor had a copy outside the workspace, under the file's name, removed since.
	edited := strings.TrimSpace(readFile(t, record))
	if filepath.Base(edited) != "README.md" || strings.HasPrefix(edited, a.Workspace) {
		t.Errorf("the editor got %q", edited)
	}
	if _, err := os.Stat(edited); !os.IsNotExist(err) {
		t.Errorf("the copy %s is still there: %v", edited, err)
	}
	// The file went out and back through docker exec in the container.
	var execs int
	for _, c := range eng.calls() {
		if len(c.args) > 3 && c.args[0] == "docker" && c.args[1] == "exec" && c.args[3] == "box" {
			execs++
		}
	}
	if execs < 2 {
		t.Errorf("%d docker exec calls, want the read and the write at least", execs)
	}
}
