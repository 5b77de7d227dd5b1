package chatwin

import (
	"testing"

	"github.com/gdamore/tcell/v2"
)

// Emoji typed key by key (a terminal sends each character of a cluster as a key of its
// own, the joiners included) are whole clusters in the input: Backspace, Delete and the
// arrows treat each as one.
func TestInputKeepsTypedClustersWhole(t *testing.T) {
	t.Parallel()
	const (
		coder = "👩\u200d💻"                                                      // woman, ZWJ, laptop
		wales = "🏴\U000E0067\U000E0062\U000E0077\U000E006C\U000E0073\U000E007F" // black flag, tags
	)
	wd := newWorld(t)
	wd.typeText("a" + coder)
	if text, _ := wd.input(); text != "a"+coder {
		t.Fatalf("typed %q, the input holds %q", "a"+coder, text)
	}
	wd.press(tcell.KeyBackspace2)
	if text, cur := wd.input(); text != "a" || cur != 1 {
		t.Fatalf("Backspace after a%s left %q, cursor %d", coder, text, cur)
	}

	wd.typeText(coder + wales + "z")
	wd.press(tcell.KeyLeft)
	wd.press(tcell.KeyLeft) // before the flag
	wd.press(tcell.KeyDelete)
	if text, cur := wd.input(); text != "a"+coder+"z" || cur != len("a"+coder) {
		t.Fatalf("Delete on the flag left %q, cursor %d", text, cur)
	}
	wd.press(tcell.KeyLeft)
	wd.typeText("|")
	wd.press(tcell.KeyRight)
	wd.typeText("|")
	if text, _ := wd.input(); text != "a|"+coder+"|z" {
		t.Fatalf("Left and Right around the emoji: %q", text)
	}
}
