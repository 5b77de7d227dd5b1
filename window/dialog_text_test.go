package window_test

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	. "git.rickub.com/bots-garden/sidekicks/window"
)

// An error longer than the dialog is wide is shown whole, wrapped over as many rows as it
// takes, the buttons below it still answering the mouse.
func TestTextEntryLongErrorWraps(t *testing.T) {
	h := newHarness(t, 60, 24)
	appDesktop(h)
	const problem = "Le nom d'une variable est fait de lettres, chiffres et soulignés, et ne commence pas par un chiffre : GEMINI_API_KEY, par exemple."
	var res result
	h.do(func() {
		h.app.AskText(TextEntry{Title: "Secret", Prompt: "Name:", Validate: func(s string) string {
			if s == "9" {
				return problem
			}
			return ""
		}}, func(s string, ok bool) { res = result{text: s, ok: ok, got: true} })
	})
	h.typeText("9")
	h.press(tcell.KeyEnter)
	var shown []string
	for _, line := range strings.Split(h.text(), "\n") {
		if i, j := strings.Index(line, "║"), strings.LastIndex(line, "║"); i >= 0 && j > i {
			shown = append(shown, line[i+len("║"):j])
		}
	}
	if got := strings.Join(strings.Fields(strings.Join(shown, " ")), " "); !strings.Contains(got, problem) {
		t.Fatalf("the error is not shown whole:\n%s", h.text())
	}
	h.press(tcell.KeyBackspace)
	h.typeText("A")
	y, x := findOnScreen(h, "[ OK ]")
	h.click(x+2, y)
	if !res.ok || res.text != "A" {
		t.Errorf("clicking OK after a long error: %+v", res)
	}
}
