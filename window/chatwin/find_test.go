package chatwin

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/store"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// A long message shows folded, in French; a click on the marker unfolds it; Ctrl-F counts
// and marks the matches, the one shown in the selection's colours, and moves among them.
func TestFoldClickAndFindMarks(t *testing.T) {
	t.Parallel()
	wd := newWorld(t, withLang(i18n.French), withSize(60, 60))
	var b strings.Builder
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&b, "ligne %d\n", i)
	}
	wd.paste(strings.TrimSuffix(b.String(), "\n"))
	wd.press(tcell.KeyEnter)
	wd.started()
	wd.turnEnded()
	wd.waitText("… 20 lignes de plus — Entrée déplie")
	// The agent's answer repeats the lines; the user's message, above it, is folded.
	if _, y := wd.find("ligne 11 "); y < wd.at("A Alice") {
		t.Fatalf("a folded line is shown:\n%s", wd.text())
	}
	wd.click("lignes de plus", tcell.ModNone)
	wd.sync()
	if _, y := wd.find("ligne 11 "); y > wd.at("A Alice") {
		t.Fatalf("a click on the marker does not unfold:\n%s", wd.text())
	}
	if x, _ := wd.find("lignes de plus"); x >= 0 {
		t.Fatalf("the marker stays:\n%s", wd.text())
	}

	wd.ctrl('f')
	wd.waitText("Enter plus ancien · Shift-F3")
	wd.typeText("ligne 2")
	// ligne 2, ligne 20…29, in the message and in the answer: the newest shown.
	wd.waitText("résultat 22 sur 22")
	theme := wd.app.Theme()
	if x, y := wd.last("ligne 29"); x < 0 || wd.styleAt(x, y) != theme.Style(window.ClassSelection) {
		t.Fatalf("the match shown is not marked as the selection:\n%s", wd.styles())
	}
	if x, y := wd.last("ligne 28"); x < 0 || wd.styleAt(x, y) != theme.Style(window.ClassListSelected) {
		t.Fatalf("another match on screen is not marked:\n%s", wd.styles())
	}
	if x, y := wd.last("ligne 29"); wd.styleAt(x+len("ligne 2"), y) == theme.Style(window.ClassSelection) {
		t.Fatal("the mark goes past the match")
	}
	wd.key(tcell.KeyF3, tcell.ModShift)
	wd.waitText("rien de plus récent")
	wd.press(tcell.KeyEnter)
	wd.waitText("résultat 21 sur 22")
	if x, y := wd.last("ligne 28"); x < 0 || wd.styleAt(x, y) != theme.Style(window.ClassSelection) {
		t.Fatalf("Enter did not show the match before:\n%s", wd.styles())
	}
	wd.typeText("Z") // a capital: case counts, and nothing matches
	wd.waitText("rien dans ce qui est chargé")
	wd.press(tcell.KeyEsc)
	wd.sync()
	if x, _ := wd.find("rien dans ce qui"); x >= 0 {
		t.Fatalf("Esc does not close the find field:\n%s", wd.text())
	}
}

// at returns the first row of the screen that shows text.
func (wd *world) at(text string) int {
	wd.t.Helper()
	_, y := wd.find(text)
	if y < 0 {
		wd.t.Fatalf("%q is not on the screen:\n%s", text, wd.text())
	}
	return y
}

// last returns where the last row that shows text shows it, -1, -1 when none does.
func (wd *world) last(text string) (int, int) {
	rows := wd.rows()
	for y := len(rows) - 1; y >= 0; y-- {
		if i := strings.Index(rows[y], text); i >= 0 {
			return len([]rune(rows[y][:i])), y
		}
	}
	return -1, -1
}

// On a long conversation, a frame searches a bounded part of it: the search goes on over
// several frames and then counts every match.
func TestFindWorkPerFrameIsBounded(t *testing.T) {
	t.Parallel()
	const n = 3000
	wd := newWorld(t, withHold(2*n), withSize(60, 20))
	streamLines(wd, n)
	wd.sync()
	// "of the memory" is in every entry, not only in those the view laid out.
	scanned := onUI(wd.harness, func() int {
		wd.w.openFind()
		wd.w.setQuery("of the memory")
		wd.w.findStep()
		return wd.w.view.ID(wd.w.view.Len()) - wd.w.find.lo
	})
	if held := onUI(wd.harness, func() int { return wd.w.view.Len() }); scanned >= held || scanned == 0 {
		t.Fatalf("one frame searched %d of %d entries", scanned, held)
	}
	wd.waitText(fmt.Sprintf("match %d of %d", n, n))
}

// A word said long ago, in entries that left memory: Enter reads older pages back from the
// history, keeping them while it searches, until it finds the word and shows it.
func TestFindReadsOlderPages(t *testing.T) {
	t.Parallel()
	st, err := store.Open(filepath.Join(t.TempDir(), "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	const hold, n = 300, 2000
	wd := newWorld(t, withHistory(keeperHistory{st: st}, 200), withHold(hold), withSize(80, 20))
	streamLines(wd, n)
	wd.sync()
	wd.sync()
	if held := onUI(wd.harness, func() int { return wd.w.Conversation().Len() }); held > hold+1 {
		t.Fatalf("the conversation holds %d entries", held)
	}
	word := lineText(5)[:len("line 00000005")]
	wd.ctrl('f')
	wd.typeText(word)
	wd.waitText("no match in what is loaded")
	wd.press(tcell.KeyEnter)
	wd.waitText("match 1 of 1")
	wd.waitText(word)
	// Once it is shown, the pages read for it may leave again.
	wd.press(tcell.KeyEsc)
	wd.press(tcell.KeyEnd)
	wd.sync()
	wd.sync()
	if held := onUI(wd.harness, func() int { return wd.w.Conversation().Len() }); held > hold+1 {
		t.Fatalf("back at the end, the conversation still holds %d entries", held)
	}
}
