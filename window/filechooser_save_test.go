package window_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	. "git.rickub.com/bots-garden/sidekicks/window"
)

// openSaver opens a chooser in save mode on dir, proposing name, and waits for its listing.
func openSaver(h *harness, dir, name string) *chooserRig {
	h.t.Helper()
	return openChooserOf(h, FileChooser{Title: "Export", Dir: dir, Extensions: []string{".md"}, Save: true, Name: name})
}

// In save mode the field holds the name proposed and the list is not filtered by it: Enter
// saves under that name in the folder listed.
func TestFileChooserSavesNewFile(t *testing.T) {
	configs := filepath.Join(chooserTree(t), "configs")
	h := newHarness(t, 80, 24)
	r := openSaver(h, configs, "out.md")
	r.wantRows([]string{"../", "Archive/", "team/", "README.md"}, "Archive/")
	if s := h.text(); !strings.Contains(s, "Name or path: out.md") || !strings.Contains(s, "Enter saves under the name typed") {
		t.Fatalf("the save mode is not shown:\n%s", s)
	}
	h.press(tcell.KeyEnter)
	r.waitRead()
	if r.got != 1 || !r.ok || r.path != filepath.Join(configs, "out.md") {
		t.Fatalf("answer %d %v %q, want %s", r.got, r.ok, r.path, filepath.Join(configs, "out.md"))
	}
}

// ↑↓ then Enter opens a folder, the name kept; a name that is a folder opens it; a file
// that exists is replaced only once the user says so; a missing folder is said.
func TestFileChooserSaveNavigatesAndConfirms(t *testing.T) {
	home := chooserTree(t)
	configs := filepath.Join(home, "configs")
	h := newHarness(t, 80, 24)
	r := openSaver(h, configs, "out.md")
	h.press(tcell.KeyDown) // team/
	h.press(tcell.KeyEnter)
	r.waitRead()
	if got := r.folder(); got != filepath.Join(configs, "team") {
		t.Fatalf("folder %q after ↓ Enter on team/", got)
	}
	if !strings.Contains(h.text(), "Name or path: out.md") {
		t.Fatalf("the name was not kept:\n%s", h.text())
	}
	// Typing a folder's name and Enter goes there, the name proposed back in the field.
	h.press(tcell.KeyBackspace2) // the field is not empty: it edits
	for range len("out.m") {
		h.press(tcell.KeyBackspace2)
	}
	h.typeText("..")
	h.press(tcell.KeyEnter)
	r.waitRead() // the check
	r.waitRead() // the listing
	if got := r.folder(); got != configs {
		t.Fatalf("folder %q after .. Enter", got)
	}
	// A file that exists: a confirmation, No keeps the chooser open, Yes takes it.
	for range len("out.md") {
		h.press(tcell.KeyBackspace2)
	}
	h.typeText("README.md")
	h.press(tcell.KeyEnter)
	r.waitRead()
	if !strings.Contains(h.text(), "~/configs/README.md exists. Replace it?") {
		t.Fatalf("no confirmation:\n%s", h.text())
	}
	h.press(tcell.KeyEnter) // No has the focus
	if r.got != 0 || dialogCount(h) != 1 {
		t.Fatalf("No: %d answers, %d dialogs", r.got, dialogCount(h))
	}
	h.press(tcell.KeyEnter)
	r.waitRead()
	h.press(tcell.KeyLeft)
	h.press(tcell.KeyEnter)
	if r.got != 1 || !r.ok || r.path != filepath.Join(configs, "README.md") {
		t.Fatalf("answer %d %v %q after Yes", r.got, r.ok, r.path)
	}
	// A path into a folder that does not exist is refused, and said.
	r = openSaver(h, configs, "out.md")
	h.press(tcell.KeyCtrlU)
	h.typeText("~/nowhere/out.md")
	h.press(tcell.KeyEnter)
	r.waitRead()
	if r.got != 0 || !strings.Contains(h.text(), "~/nowhere does not exist.") {
		t.Fatalf("a missing folder: %d answers\n%s", r.got, h.text())
	}
	if _, err := os.Stat(filepath.Join(home, "nowhere")); err == nil {
		t.Error("the chooser made a folder")
	}
}
