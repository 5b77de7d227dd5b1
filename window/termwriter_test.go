package window

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// writerFixture is a termWriter for xterm-256color writing into out, over a simulation
// screen of w×h cells whose canvas the test paints.
func writerFixture(t *testing.T, w, h int) (*termWriter, *canvas, *strings.Builder) {
	t.Helper()
	ti, err := tcell.LookupTerminfo("xterm-256color")
	if err != nil {
		t.Fatal(err)
	}
	screen := tcell.NewSimulationScreen("UTF-8")
	if err := screen.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(screen.Fini)
	screen.SetSize(w, h)
	out := &strings.Builder{}
	tw := newTermWriter(screen, out, ti)
	if tw == nil || tw.off {
		t.Fatalf("no writer for xterm-256color (%+v)", tw)
	}
	tw.drawn() // as after tcell's first frame
	cv := &canvas{}
	cv.frame(screen, w, h, false)
	return tw, cv, out
}

// TestTermWriterSendsOnlyChangedCells: a frame that changed one cell sends that cell, at
// its place, in its style, and the cursor; the frame after, which changed nothing, sends
// no cell.
func TestTermWriterSendsOnlyChangedCells(t *testing.T) {
	tw, cv, out := writerFixture(t, 20, 5)
	plain := cv.styleID(tcell.StyleDefault)
	for x := range 20 {
		cv.put(x, 2, "a", plain)
	}
	cv.flush()
	if !tw.write(cv, cursorState{}) {
		t.Fatal("the writer left a plain frame to tcell")
	}
	out.Reset()
	cv.put(7, 2, "Z", cv.styleID(tcell.StyleDefault.Bold(true)))
	cv.flush()
	if !tw.write(cv, cursorState{x: 8, y: 2, visible: true}) {
		t.Fatal("the writer left a plain frame to tcell")
	}
	got := out.String()
	for _, want := range []string{tw.ti.TGoto(7, 2) + tw.ti.AttrOff + tw.ti.Bold + "Z", tw.ti.TGoto(8, 2) + tw.ti.ShowCursor} {
		if !strings.Contains(got, want) {
			t.Errorf("the frame sent %q, without %q", got, want)
		}
	}
	if strings.Count(got, "a") > 0 {
		t.Errorf("the frame sent unchanged cells again: %q", got)
	}
	out.Reset()
	cv.flush()
	tw.write(cv, cursorState{})
	if strings.Contains(out.String(), "Z") {
		t.Errorf("a frame that changed nothing sent %q", out.String())
	}
}

// TestTermWriterWideCharacters: the right half of a wide character is not written over
// it, and a wide character replaced by a narrow one has its right cell written again.
func TestTermWriterWideCharacters(t *testing.T) {
	tw, cv, out := writerFixture(t, 10, 3)
	plain := cv.styleID(tcell.StyleDefault)
	cv.put(2, 1, "日", plain)
	cv.put(3, 1, " ", plain) // what Region.covered puts there
	cv.flush()
	tw.write(cv, cursorState{})
	if got := out.String(); !strings.Contains(got, "日") || strings.Contains(got, tw.ti.TGoto(3, 1)) {
		t.Errorf("the wide character went out as %q: its right half must not follow it", got)
	}
	out.Reset()
	cv.put(2, 1, "x", plain)
	cv.flush()
	tw.write(cv, cursorState{})
	if got := out.String(); !strings.Contains(got, "x ") {
		t.Errorf("a narrow character over a wide one went out as %q, without the cell it uncovers", got)
	}
}

// TestTermWriterLeavesToTcell: the frames the writer does not draw as tcell would — a
// link, an underline of another shape or color, the bottom-right cell of a terminal that
// scrolls when it is written — are left to tcell's Show.
func TestTermWriterLeavesToTcell(t *testing.T) {
	for _, c := range []struct {
		what  string
		x, y  int
		style tcell.Style
		wraps bool // the terminal scrolls when its last cell is written, and cannot be told not to
	}{
		{"a link", 1, 1, tcell.StyleDefault.Url("https://example.com"), false},
		{"a curly underline", 1, 1, tcell.StyleDefault.Underline(tcell.UnderlineStyleCurly), false},
		{"an underline in a color", 1, 1, tcell.StyleDefault.Underline(tcell.ColorRed), false},
		{"the bottom-right cell", 9, 2, tcell.StyleDefault, true},
	} {
		tw, cv, out := writerFixture(t, 10, 3)
		if c.wraps {
			ti := *tw.ti
			ti.AutoMargin, ti.DisableAutoMargin, ti.InsertChar = true, "", "\x1b[@"
			tw.ti = &ti
		}
		cv.put(c.x, c.y, "q", cv.styleID(c.style))
		cv.flush()
		if tw.write(cv, cursorState{}) || out.Len() > 0 {
			t.Errorf("%s: the writer sent %q instead of leaving the frame to tcell", c.what, out.String())
		}
	}
}

// TestTermWriterLinks: a link drawn by Region.Link goes out as an OSC 8 link around its
// text, with no control character of its address, and is closed by the end of the frame.
func TestTermWriterLinks(t *testing.T) {
	tw, cv, out := writerFixture(t, 30, 3)
	r := Region{screen: cv.screen, cv: cv, origin: Rect{0, 0, 30, 3}, clip: Rect{0, 0, 30, 3}, theme: darkTheme()}
	r.Text(0, 1, "see ", ClassText)
	r.Link(4, 1, "docs", ClassLink, "https://example.com/a\x1b]b")
	r.Text(8, 1, " now", ClassText)
	cv.flush()
	if !tw.write(cv, cursorState{}) {
		t.Fatal("the writer left a frame with a link it knows to tcell")
	}
	got := out.String()
	got = got[strings.Index(got, "see "):] // after what closes a link tcell's last frame left open
	enter := "\x1b]8;;https://example.com/a]b\x1b\\"
	a, b := strings.Index(got, enter), strings.Index(got, "docs")
	c, d := strings.Index(got, tw.exitLink), strings.Index(got, " now")
	if a < 0 || !(a < b && b < c && c < d) {
		t.Fatalf("the frame went out as %q: want %q, docs, %q, then the text after the link", got, enter, tw.exitLink)
	}
	if n := strings.Count(got, "\x1b]8;"); n != 2 { // one opened, one closed
		t.Errorf("the frame opens or closes links %d times, want 2: %q", n, got)
	}
}

// TestTermWriterRedrawsAfterAResize: after a resize the writer clears the screen and writes
// every cell of the new size itself (tcell's Sync took 3–6 ms for a 200×60 screen in
// tmux), and a terminal without a clear sequence is left to tcell.
func TestTermWriterRedrawsAfterAResize(t *testing.T) {
	tw, cv, out := writerFixture(t, 20, 5)
	plain := cv.styleID(tcell.StyleDefault)
	for x := range 20 {
		cv.put(x, 2, "a", plain)
	}
	cv.flush()
	tw.write(cv, cursorState{})
	// The new size: every cell painted again, as a frame after a resize does.
	if !cv.frame(cv.screen, 12, 4, true) {
		t.Fatal("the canvas did not start afresh at a new size")
	}
	plain = cv.styleID(tcell.StyleDefault)
	for y := range 4 {
		for x := range 12 {
			cv.put(x, y, string(rune('a'+y)), plain)
		}
	}
	cv.flush()
	out.Reset()
	if !tw.redraw(cv, cursorState{}) {
		t.Fatal("the writer left the redraw after a resize to tcell")
	}
	got := out.String()
	clear := strings.Index(got, tw.ti.Clear)
	if clear < 0 || clear > strings.Index(got, "a") {
		t.Errorf("the redraw did not clear the screen before its cells: %q", got)
	}
	for y, c := range []string{"a", "b", "c", "d"} {
		if n := strings.Count(got, c); n != 12 {
			t.Errorf("row %d: %d cells sent, want 12", y, n)
		}
	}
	noClear := *tw.ti
	noClear.Clear = ""
	tw.ti = &noClear // no clear sequence: tcell's Sync
	if tw.redraw(cv, cursorState{}) {
		t.Error("the writer redrew on a terminal it cannot clear")
	}
}
