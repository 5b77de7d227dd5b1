package window_test

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	. "git.rickub.com/bots-garden/sidekicks/window"
)

// A list whose every entry has a key is a menu: the key takes its entry (case counts),
// and there is no filter for it to fall into.
func TestChoiceKeysTakeTheirEntry(t *testing.T) {
	h := newHarness(t, 80, 24)
	appDesktop(h)
	got, ok := -1, false
	items := []ChoiceItem{{Text: "Stop", Mark: "x", Key: 'x'}, {Text: "Restart", Mark: "r", Key: 'r'}, {Text: "Remove", Mark: "X", Key: 'X'}}
	h.do(func() {
		h.app.Choose(Choice{Title: "Actions", Items: items}, func(i int, o bool) { got, ok = i, o })
	})
	if strings.Contains(h.text(), "Filter") {
		t.Errorf("a keyed list has a filter:\n%s", h.text())
	}
	h.typeText("X")
	if !ok || got != 2 {
		t.Errorf("X took %d (%v), want Remove (2)", got, ok)
	}
}

// A wide list takes the screen's width, so that a long path is read whole.
func TestChoiceWideShowsLongEntriesWhole(t *testing.T) {
	h := newHarness(t, 200, 24)
	appDesktop(h)
	long := "History: /" + strings.Repeat("folder/", 20) + "history.db"
	h.do(func() {
		h.app.Choose(Choice{Title: "About", Items: []ChoiceItem{{Text: long}}, Wide: true}, func(int, bool) {})
	})
	if !strings.Contains(h.text(), long) {
		t.Errorf("the entry is cut:\n%s", h.text())
	}
	h.press(tcell.KeyEsc)
}
