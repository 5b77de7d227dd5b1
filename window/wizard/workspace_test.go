package wizard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// previewLocalAgent fills the form with a local agent whose folder is ~/agents/<name>, and
// waits for the preview.
func (h *harness) previewLocalAgent(name string) string {
	h.t.Helper()
	h.open("en")
	h.fill(name)
	h.fill("")
	h.fill("")
	h.fill("")
	h.fill("~/agents/" + name)
	h.press(tcell.KeyTab) // on this computer
	h.typeText("/bin/sh")
	h.press(tcell.KeyEnter)
	return h.waitText("These lines will be added to")
}

// waitAdded waits for onAdded and returns the name it was given.
func (h *harness) waitAdded() string {
	h.t.Helper()
	select {
	case name := <-h.added:
		return name
	case <-timeout():
		h.t.Fatalf("onAdded was not called; the screen shows:\n%s", h.screen.current())
		return ""
	}
}

// TestMissingFolderCreatedOnAdd: the preview warns that the folder does not exist; Add
// asks whether to create it; Esc goes back to the preview with nothing written; "Create
// the folder" creates it, then adds the agent.
func TestMissingFolderCreatedOnAdd(t *testing.T) {
	h := newHarness(t, "original.yaml", i18n.English)
	folder := filepath.Join(os.Getenv("HOME"), "agents", "scout")
	s := h.previewLocalAgent("scout")
	if !strings.Contains(s, "its workspace") || !strings.Contains(s, "not exist, so the agent cannot start") {
		t.Errorf("the preview does not warn about the missing folder:\n%s", s)
	}
	original := h.fileText()

	h.press(tcell.KeyEnter) // Add
	h.waitText("~/agents/scout does not exist")
	h.waitText("Create the folder, then add the agent")
	h.press(tcell.KeyEscape)
	h.waitScreen("the preview again", func(s string) bool {
		return strings.Contains(s, "These lines will be added to") && !strings.Contains(s, "~/agents/scout does not exist")
	})
	if _, err := os.Stat(folder); err == nil || h.fileText() != original {
		t.Fatalf("Esc created the folder (%v) or wrote the file", err)
	}

	h.press(tcell.KeyEnter) // Add
	h.waitText("Create the folder, then add the agent")
	h.press(tcell.KeyEnter) // the first entry
	if name := h.waitAdded(); name != "scout" {
		t.Errorf("onAdded(%q)", name)
	}
	if fi, err := os.Stat(folder); err != nil || !fi.IsDir() {
		t.Errorf("the folder was not created: %v", err)
	}
	if !strings.Contains(h.fileText(), "  - name: scout\n") {
		t.Errorf("the agent was not added:\n%s", h.fileText())
	}
}

// TestMissingFolderLeftAlone: "Add the agent without it" adds the agent and creates nothing.
func TestMissingFolderLeftAlone(t *testing.T) {
	h := newHarness(t, "original.yaml", i18n.English)
	h.previewLocalAgent("scout")
	h.press(tcell.KeyEnter) // Add
	h.waitText("Add the agent without it")
	h.press(tcell.KeyDown)
	h.press(tcell.KeyEnter)
	h.waitAdded()
	if _, err := os.Stat(filepath.Join(os.Getenv("HOME"), "agents", "scout")); err == nil {
		t.Error("the folder was created")
	}
}

// TestMissingFolderThatCannotBeCreated: a folder the system refuses to create (its parent
// became a file since the preview) is said in the preview, and the file is not written.
func TestMissingFolderThatCannotBeCreated(t *testing.T) {
	h := newHarness(t, "original.yaml", i18n.English)
	h.previewLocalAgent("scout")
	original := h.fileText()
	h.press(tcell.KeyEnter) // Add
	h.waitText("Create the folder, then add the agent")
	if err := os.WriteFile(filepath.Join(os.Getenv("HOME"), "agents"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	h.press(tcell.KeyEnter)
	h.waitText("The folder ~/agents/scout could not be created: the system refused.")
	if problems, _, onPreview, open := h.state(); !open || !onPreview || len(problems) != 1 {
		t.Errorf("problems %q, on the preview %v, open %v", problems, onPreview, open)
	}
	if h.fileText() != original {
		t.Errorf("the file was written although the folder could not be created")
	}
}
