package window

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/gdamore/tcell/v2"
)

// countingScreen counts the cells put on a simulation screen.
type countingScreen struct {
	tcell.SimulationScreen
	puts int
}

func (s *countingScreen) Put(x, y int, str string, st tcell.Style) (string, int) {
	s.puts++
	return s.SimulationScreen.Put(x, y, str, st)
}

// countingApp is an App on a counting 80×24 simulation screen, no window open.
func countingApp(t *testing.T) (*App, *countingScreen) {
	t.Helper()
	sim := tcell.NewSimulationScreen("UTF-8")
	if err := sim.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sim.Fini)
	sim.SetSize(80, 24)
	cs := &countingScreen{SimulationScreen: sim}
	a, err := New(Options{Screen: cs})
	if err != nil {
		t.Fatal(err)
	}
	return a, cs
}

// canvasApp is an App on a counting 80×24 simulation screen with two windows of text.
func canvasApp(t *testing.T) (*App, *countingScreen, []*TextView) {
	t.Helper()
	a, cs := countingApp(t)
	var views []*TextView
	for i := 0; i < 2; i++ {
		v := NewTextView()
		v.SetText(fmt.Sprintf("window %d: 世界 and some text\nsecond line", i))
		views = append(views, v)
		if _, err := a.AddWindow(fmt.Sprintf("W%d", i), v); err != nil {
			t.Fatal(err)
		}
	}
	return a, cs, views
}

// sameScreens fails unless the two screens show the same cells in the same styles (but the
// cells a wide character covers, which the terminal does not draw).
func sameScreens(t *testing.T, got, want tcell.SimulationScreen) {
	t.Helper()
	got.Show()
	want.Show()
	gc, w, h := got.GetContents()
	wc, _, _ := want.GetContents()
	for i := range gc {
		if i%w > 0 && TextWidth(string(wc[i-1].Runes)) == 2 {
			continue
		}
		if string(gc[i].Runes) != string(wc[i].Runes) || gc[i].Style != wc[i].Style {
			t.Fatalf("cell (%d, %d) of %d×%d: %q %v, a full redraw has %q %v", i%w, i/w, w, h,
				string(gc[i].Runes), gc[i].Style, string(wc[i].Runes), wc[i].Style)
		}
	}
}

// TestFramePutsOnlyChanges: a frame puts on tcell's screen only the cells that changed
// since the last one (a key typed costs a few cells, not the whole screen), and the screen
// then shows what a full redraw would; a resize, or the screen redrawn in full, puts every
// cell again.
func TestFramePutsOnlyChanges(t *testing.T) {
	a, cs, views := canvasApp(t)
	a.draw()
	if cs.puts < 80*24 {
		t.Fatalf("the first frame put %d cells, want every one of %d", cs.puts, 80*24)
	}
	cs.puts = 0
	a.draw()
	if cs.puts != 0 {
		t.Errorf("a frame with nothing changed put %d cells", cs.puts)
	}

	views[1].SetText("window 1: 世界 and some text\nsecond line, longer")
	cs.puts = 0
	a.draw()
	if cs.puts == 0 || cs.puts > 20 {
		t.Errorf("a frame where 9 cells changed put %d", cs.puts)
	}
	fresh, fcs, fviews := canvasApp(t)
	fviews[1].SetText("window 1: 世界 and some text\nsecond line, longer")
	fresh.draw()
	sameScreens(t, cs.SimulationScreen, fcs.SimulationScreen)

	// A resize: every cell again, as a full redraw at the new size.
	cs.SetSize(70, 20)
	fcs.SetSize(70, 20)
	a.handle(tcell.NewEventResize(70, 20))
	cs.puts = 0
	a.draw()
	if cs.puts < 70*20 {
		t.Errorf("the frame after a resize put %d cells, want every one of %d", cs.puts, 70*20)
	}
	fresh.draw()
	sameScreens(t, cs.SimulationScreen, fcs.SimulationScreen)

	// The screen's content lost (a program ran in the terminal meanwhile): Suspend's
	// frame after it puts every cell.
	cs.Clear()
	if err := a.Suspend(func() error { return nil }); err != nil {
		t.Fatal(err)
	}
	cs.puts = 0
	a.draw()
	if cs.puts < 70*20 {
		t.Errorf("the frame after Suspend put %d cells, want every one of %d", cs.puts, 70*20)
	}
	sameScreens(t, cs.SimulationScreen, fcs.SimulationScreen)
}

// overpaint paints its region blank, then its text over it, in every frame: as a window
// that fills its background before its rows does.
type overpaint struct{ text string }

func (w *overpaint) Draw(r Region, focused bool) {
	r.Fill(ClassText)
	r.Text(0, 0, w.text, ClassText)
}

func (w *overpaint) HandleEvent(Event) bool { return false }

// TestOverpaintedCellsStayUnsent: a cell painted blank then written again with what it
// held reaches tcell in no later frame, so the terminal is sent nothing for it. On the
// canvas that passed on each paint, every cell of the text went to tcell twice a frame, and
// tcell, which marks a cell whose text changed even for a moment, sent the whole text to
// the terminal in every frame (440 bytes for each key typed in an empty agent window).
func TestOverpaintedCellsStayUnsent(t *testing.T) {
	a, cs := countingApp(t)
	sim := cs.SimulationScreen
	w := &overpaint{text: "Type a message; Enter sends it."}
	if _, err := a.AddWindow("W", w); err != nil {
		t.Fatal(err)
	}
	a.draw()
	cs.puts = 0
	a.draw()
	if cs.puts != 0 {
		t.Errorf("a frame that painted the same cells again put %d of them on tcell's screen", cs.puts)
	}
	w.text = "Type a message; Enter sends it!"
	a.draw()
	if cs.puts != 1 {
		t.Errorf("a frame where one cell changed put %d cells, want 1", cs.puts)
	}
	sim.Show()
	cells, width, _ := sim.GetContents()
	var b strings.Builder
	for i, c := range cells {
		if i%width == 0 {
			b.WriteByte('\n')
		}
		b.WriteString(string(c.Runes))
	}
	if !strings.Contains(b.String(), "Enter sends it!") {
		t.Fatalf("the screen does not show the changed text:%s", b.String())
	}
}

// TestWideCharactersComeAndGo: text whose wide characters move from frame to frame shows
// what a whole redraw shows, every frame: tcell passes over the cell after a wide character,
// and a canvas that sends only what changed must not leave stale text there once the
// character before it is narrow again (a version that kept tcell's cells locked between
// frames did).
func TestWideCharactersComeAndGo(t *testing.T) {
	a, cs, views := canvasApp(t)
	texts := []string{"世界abc def", "ab世界c def", "abcde fgh", "a世b界c🔭d", "abcdefghij", "世界世界世界", "x"}
	for round := 0; round < 3; round++ {
		for i, text := range texts {
			views[1].SetText(text + "\nsecond 世 line")
			a.draw()
			fresh, fcs, fviews := canvasApp(t)
			fviews[1].SetText(text + "\nsecond 世 line")
			fresh.draw()
			t.Run(fmt.Sprintf("round %d text %d", round, i), func(t *testing.T) {
				sameScreens(t, cs.SimulationScreen, fcs.SimulationScreen)
			})
		}
	}
}

// links is a widget that shows n links, each to a URL of its own: each a style of its own
// for the canvas.
type links struct{ from, n int }

func (l *links) Draw(r Region, focused bool) {
	r.Fill(ClassText)
	for i := 0; i < l.n; i++ {
		r.Link(i%4*16, i/4, fmt.Sprintf("link %d", l.from+i), ClassText, fmt.Sprintf("https://example.org/%d", l.from+i))
	}
}

func (l *links) HandleEvent(Event) bool { return false }

// TestManyStylesStayBounded: styles are numbered by the canvas, and a conversation full of
// links, each a style of its own, does not grow that numbering without bound: past
// maxStyles the next frame starts afresh, and every frame shows what a whole redraw does.
func TestManyStylesStayBounded(t *testing.T) {
	a, cs := countingApp(t)
	l := &links{n: 60}
	if _, err := a.AddWindow("W", l); err != nil {
		t.Fatal(err)
	}
	for frame := 0; frame*l.n < 3*maxStyles; frame++ {
		l.from = frame * l.n
		a.draw()
		if got := len(a.canvas.styles); got > maxStyles+24*80 {
			t.Fatalf("frame %d: the canvas numbers %d styles", frame, got)
		}
		if frame%20 == 0 || frame*l.n > 2*maxStyles {
			fresh, fcs := countingApp(t)
			if _, err := fresh.AddWindow("W", &links{from: l.from, n: l.n}); err != nil {
				t.Fatal(err)
			}
			fresh.draw()
			sameScreens(t, cs.SimulationScreen, fcs.SimulationScreen)
		}
	}
}

// TestCellsHoldNoPartOfTheText: the cells keep copies of what they show, not substrings of
// the text drawn, so a large text (a long reply's buffer, since replaced by a larger one)
// is not kept alive by the few of its characters on the screen. A cluster longer than
// tcell can send is held as the "?" the terminal shows for it.
func TestCellsHoldNoPartOfTheText(t *testing.T) {
	a, _ := countingApp(t)
	var b strings.Builder
	b.WriteString("plain ASCII, é and 日本 and e\u0301 ")
	b.WriteString("x" + strings.Repeat("\u0301", 200) + " ")
	b.WriteString(strings.Repeat("filler ", 1<<14)) // a text far larger than what shows
	text := b.String()
	w := &overpaint{text: text}
	if _, err := a.AddWindow("W", w); err != nil {
		t.Fatal(err)
	}
	a.draw()
	from := uintptr(unsafe.Pointer(unsafe.StringData(text)))
	to := from + uintptr(len(text))
	var shown strings.Builder
	for i, c := range a.canvas.sent {
		if c.str == "" {
			continue
		}
		if p := uintptr(unsafe.Pointer(unsafe.StringData(c.str))); p >= from && p < to {
			t.Fatalf("cell %d holds %q, a part of the text drawn", i, c.str)
		}
		if i/a.canvas.w == 2 { // the window's first row, under the menu bar and its frame
			shown.WriteString(c.str)
		}
	}
	if !strings.Contains(shown.String(), "plain ASCII, é and 日 本  and e\u0301 ? filler") {
		t.Errorf("the first row shows %q", shown.String())
	}
}
