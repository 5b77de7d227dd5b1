package window_test

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	. "git.rickub.com/bots-garden/sidekicks/window"
)

// sampleForm is a form with a field of each kind; the text field must hold at least two
// characters, the choice must be made.
func sampleForm() Form {
	return Form{
		Title:   "Deploy",
		Message: "Deploy settings",
		Link:    "https://example.com/doc",
		Fields: []FormField{
			{Label: "Name", Required: true, Kind: FormText, Validate: func(s string) string {
				if len([]rune(s)) < 2 {
					return "at least 2 characters"
				}
				return ""
			}},
			{Label: "Confirm", Kind: FormBool},
			{Label: "Region", Required: true, Kind: FormChoice, Choices: []string{"Europe", "America"}, Selected: -1,
				Validate: func(s string) string {
					if s == "-1" {
						return "pick one of the choices"
					}
					return ""
				}},
			{Label: "Tags", Kind: FormMulti, Choices: []string{"fast", "cheap", "safe"}, Help: "pick at most 2"},
		},
		Buttons: []string{"Accept", "Decline", "Cancel"},
	}
}

func TestFormDialog(t *testing.T) {
	h := newHarness(t, 80, 30)
	h.addWindows(1)
	var got FormResult
	var ok, done bool
	h.do(func() {
		h.app.AskForm(sampleForm(), func(r FormResult, k bool) { got, ok, done = r, k, true })
	})
	screen := h.text()
	for _, want := range []string{"Deploy settings", "https://example.com/doc", "Name *", "[ ]", "( ) Europe", "[ ] fast", "pick at most 2", "[ Accept ]"} {
		if !strings.Contains(screen, want) {
			t.Fatalf("the form does not show %q:\n%s", want, screen)
		}
	}
	// Accept with nothing typed: both required fields say why, the form stays.
	h.press(tcell.KeyEnter)
	screen = h.text()
	if done || !strings.Contains(screen, "at least 2 characters") || !strings.Contains(screen, "pick one of the choices") {
		t.Fatalf("an invalid form was accepted (%v), or says nothing:\n%s", done, screen)
	}
	h.typeText("web")
	if strings.Contains(h.text(), "at least 2 characters") {
		t.Error("the problem stays once the field changes")
	}
	h.press(tcell.KeyTab)
	h.typeText(" ") // the box
	h.press(tcell.KeyTab)
	h.press(tcell.KeyRight)
	h.typeText(" ") // America
	h.press(tcell.KeyTab)
	h.typeText(" ") // fast
	h.press(tcell.KeyRight)
	h.press(tcell.KeyRight)
	h.typeText(" ") // safe
	if s := h.text(); !strings.Contains(s, "(•) America") || !strings.Contains(s, "[x] fast") || !strings.Contains(s, "[x] safe") {
		t.Fatalf("the choices are not shown:\n%s", s)
	}
	h.press(tcell.KeyEnter)
	if !done || !ok || got.Button != 0 || got.Texts[0] != "web" || !got.On[1] || got.Selected[2] != 1 ||
		!got.Picked[3][0] || got.Picked[3][1] || !got.Picked[3][2] {
		t.Fatalf("result %+v ok %v done %v", got, ok, done)
	}
	if dialogCount(h) != 0 {
		t.Error("the form stayed open")
	}
	// Decline is pressed without checking the fields; Esc cancels.
	done = false
	h.do(func() {
		h.app.AskForm(sampleForm(), func(r FormResult, k bool) { got, ok, done = r, k, true })
	})
	y, x := findOnScreen(h, "[ Decline ]")
	h.click(x+2, y)
	if !done || !ok || got.Button != 1 {
		t.Errorf("Decline: %+v %v", got, ok)
	}
	done = false
	h.do(func() {
		h.app.AskForm(sampleForm(), func(r FormResult, k bool) { got, ok, done = r, k, true })
	})
	h.press(tcell.KeyEsc)
	if !done || ok {
		t.Errorf("Esc: %+v %v", got, ok)
	}
}

// TestFormScrollsToTheFocusedField: a form taller than the screen keeps the focused field
// and the buttons in view.
func TestFormScrollsToTheFocusedField(t *testing.T) {
	h := newHarness(t, 60, 16)
	h.addWindows(1)
	f := Form{Title: "Many", Buttons: []string{"OK"}}
	for i := 0; i < 12; i++ {
		f.Fields = append(f.Fields, FormField{Label: "Field " + string(rune('A'+i)), Kind: FormText})
	}
	h.do(func() { h.app.AskForm(f, func(FormResult, bool) {}) })
	for i := 0; i < 11; i++ {
		h.press(tcell.KeyTab)
	}
	if s := h.text(); !strings.Contains(s, "Field L") || !strings.Contains(s, "[ OK ]") || strings.Contains(s, "Field A") {
		t.Fatalf("the last field is not in view:\n%s", s)
	}
}
