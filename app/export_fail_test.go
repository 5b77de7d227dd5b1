package app

import (
	"path/filepath"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"github.com/gdamore/tcell/v2"
)

// An export to a place that cannot be written says why, naming the file chosen (not the
// hidden one written first), and Yes opens the chooser again with the name kept.
func TestExportFailureSaysWhyAndChoosesAgain(t *testing.T) {
	dir := appEnv(t)
	path := filepath.Join(dir, "sidekicks.yaml")
	writeFile(t, path, "version: 1\nagents:\n"+demoAgentYAML(t, "alice", "Alice", "A", ""))
	notDir := filepath.Join(dir, "plain.txt")
	writeFile(t, notDir, "a file, not a folder")
	target := filepath.Join(notDir, "sk.md")
	h := startApp(t, path, dir)
	h.onUI(func() { h.ap.export(chat.Key{Agent: "alice"}, "Alice", target) })
	// The dialog wraps the path where the temporary folder's name puts it: the words are
	// looked for with the screen's lines joined.
	s := h.waitScreen("the failure and the offer", func(s string) bool {
		joined := strings.Join(dialogLines(s), "")
		return strings.Contains(joined, target+" could not be written: not a directory.") && strings.Contains(joined, "Choose another place?")
	})
	if strings.Contains(s, ".sk.md.") {
		t.Fatalf("the hidden file is named:\n%s", s)
	}
	h.press(tcell.KeyLeft) // Yes
	h.press(tcell.KeyEnter)
	s = h.waitText("Export the conversation to Markdown", "Name or path: sk.md")
	if strings.Contains(s, "Choose another place?") {
		t.Fatalf("the question is still shown:\n%s", s)
	}
	h.press(tcell.KeyEscape)
	h.quit()
}

// dialogLines returns the text inside the double frame of the dialog on screen, a line
// each, without the frame and the padding.
func dialogLines(screen string) []string {
	var out []string
	for _, l := range strings.Split(screen, "\n") {
		a, b := strings.Index(l, "║"), strings.LastIndex(l, "║")
		if a < 0 || b <= a {
			continue
		}
		out = append(out, strings.TrimSpace(l[a+len("║"):b]))
	}
	return out
}
