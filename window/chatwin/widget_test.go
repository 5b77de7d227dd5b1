package chatwin

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/window"
)

func TestReplyStreamsWithHighlightedCode(t *testing.T) {
	t.Parallel()
	wd := newWorld(t)
	wd.send("hello")
	wd.turnEnded()
	wd.codeHighlighted()
	wd.golden("hello")

	// The keyword "def" of the Python block is in the keyword class, "greet" is not.
	x, y := wd.find("def greet")
	if x < 0 {
		t.Fatalf("no code on screen:\n%s", wd.text())
	}
	kw := wd.app.Theme().Style(window.ClassKeyword)
	if got := wd.styleAt(x, y); got != kw {
		t.Errorf("style of \"def\" = %v, want the keyword style %v", got, kw)
	}
	if got := wd.styleAt(x+4, y); got == kw {
		t.Errorf("\"greet\" is drawn as a keyword")
	}
	// The user's label and the agent's.
	if _, y := wd.find("You"); y < 0 {
		t.Errorf("no label of the user:\n%s", wd.text())
	}
	if _, y := wd.find("A Alice"); y < 0 {
		t.Errorf("no label of the agent, with the letter of its icon:\n%s", wd.text())
	}
}

func TestInputStartsFocused(t *testing.T) {
	t.Parallel()
	wd := newWorld(t)
	wd.typeText("abc")
	if text, cur := wd.input(); text != "abc" || cur != 3 {
		t.Fatalf("input = %q cursor %d", text, cur)
	}
	if !strings.Contains(wd.text(), "abc") {
		t.Errorf("the input is not drawn:\n%s", wd.text())
	}
	wd.press(tcell.KeyEnter)
	wd.started()
	wd.turnEnded()
	if text, _ := wd.input(); text != "" {
		t.Errorf("the input was not emptied by Enter: %q", text)
	}
	wd.waitText("re: abc")
}
