package window_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	. "git.rickub.com/bots-garden/sidekicks/window"
)

func TestTilingGolden(t *testing.T) {
	for _, c := range []struct{ w, h, n int }{
		{80, 24, 1}, {80, 24, 2}, {80, 24, 3}, {80, 24, 5}, {80, 24, 9},
		{120, 40, 4}, {120, 40, 7}, {200, 60, 9},
	} {
		t.Run(fmt.Sprintf("%dx%d-%d", c.w, c.h, c.n), func(t *testing.T) {
			h := newHarness(t, c.w, c.h)
			h.do(func() { h.app.SetMenus(SampleMenus(h.app)) })
			wins := h.addWindows(c.n)
			h.do(func() { wins[0].Focus() })
			h.golden(fmt.Sprintf("tile-%dx%d-%d", c.w, c.h, c.n))
			// Every window is drawn where the layout put it, numbered.
			rects, _ := Tile(c.n, Rect{0, 1, c.w, c.h - 2})
			for i, r := range rects {
				top := []rune(h.row(r.Y))
				frag := string(top[r.X : r.X+r.W])
				if !strings.Contains(frag, fmt.Sprintf(" %d ", i+1)) || !strings.Contains(frag, "[x]") || !strings.Contains(frag, "[■]") {
					t.Errorf("window %d's top edge %q lacks its number or buttons", i+1, frag)
				}
			}
		})
	}
}

func TestTooSmall(t *testing.T) {
	h := newHarness(t, 39, 10)
	h.addWindows(2)
	if !strings.Contains(h.text(), "Terminal too small: 39×10") {
		t.Fatalf("no too-small message:\n%s", h.text())
	}
	h.golden("too-small")
	// Keys still work, and growing the terminal shows everything again.
	h.press(tcell.KeyF6)
	h.resize(80, 24)
	if !strings.Contains(h.text(), "Window 1") || !strings.Contains(h.text(), "Window 2") {
		t.Fatalf("windows lost after growing the terminal:\n%s", h.text())
	}
	if f := onUI(h, func() int { return h.app.Focused().Number() }); f != 1 {
		t.Errorf("F6 while too small: focus on %d, want 1", f)
	}
}

func TestResizeRetiles(t *testing.T) {
	h := newHarness(t, 80, 24)
	wins := h.addWindows(4)
	h.do(func() { wins[2].Focus() })
	h.resize(200, 60)
	for i, r := range onUI(h, func() []Rect {
		var rs []Rect
		for _, w := range h.app.Windows() {
			rs = append(rs, WindowRect(w))
		}
		return rs
	}) {
		want, _ := Tile(4, Rect{0, 1, 200, 58})
		if r != want[i] {
			t.Errorf("after resize window %d at %+v, want %+v", i+1, r, want[i])
		}
	}
	if n := onUI(h, func() int { return h.app.Focused().Number() }); n != 3 {
		t.Errorf("focus moved to %d on resize", n)
	}
	// Tiles too small for 9 windows: the focused one fills the desktop.
	h.addWindows(5)
	h.resize(50, 12)
	got := onUI(h, func() []Rect {
		var rs []Rect
		for _, w := range h.app.Windows() {
			rs = append(rs, WindowRect(w))
		}
		return rs
	})
	for i, r := range got {
		if i == 8 && r != (Rect{0, 1, 50, 10}) {
			t.Errorf("focused window at %+v, want the whole desktop", r)
		}
		if i != 8 && !r.Empty() {
			t.Errorf("hidden window %d drawn at %+v", i+1, r)
		}
	}
	h.golden("stacked-50x12")
}

func focused(h *harness) int { return onUI(h, func() int { return h.app.Focused().Number() }) }

func TestFocusKeys(t *testing.T) {
	h := newHarness(t, 120, 40)
	h.addWindows(4)
	if focused(h) != 4 {
		t.Fatalf("a new window takes the focus: got %d", focused(h))
	}
	h.press(tcell.KeyF6)
	if focused(h) != 1 {
		t.Errorf("F6 from 4: %d, want 1", focused(h))
	}
	h.key(tcell.KeyF6, 0, tcell.ModShift)
	if focused(h) != 4 {
		t.Errorf("Shift-F6 from 1: %d, want 4", focused(h))
	}
	h.press(tcell.KeyF18) // Shift-F6 as terminfo terminals report it
	if focused(h) != 3 {
		t.Errorf("F18 from 4: %d, want 3", focused(h))
	}
	h.alt('2')
	if focused(h) != 2 {
		t.Errorf("Alt-2: %d", focused(h))
	}
	for _, c := range []struct {
		r    rune
		want int
	}{{'&', 1}, {'é', 2}, {'"', 3}, {'\'', 4}} {
		h.alt(c.r)
		if focused(h) != c.want {
			t.Errorf("Alt-%c (AZERTY): %d, want %d", c.r, focused(h), c.want)
		}
	}
	h.alt('9') // no window 9: nothing moves
	if focused(h) != 4 {
		t.Errorf("Alt-9 with 4 windows moved the focus to %d", focused(h))
	}
	// The focused window has the double frame.
	h.alt('1')
	if !strings.HasPrefix(h.row(1), "╔[x]") || !strings.Contains(h.row(1), "┌[x]") {
		t.Errorf("focused frame not double:\n%s", h.row(1))
	}
}

func TestWindowListAltZero(t *testing.T) {
	h := newHarness(t, 80, 24)
	wins := h.addWindows(3)
	h.do(func() {
		wins[0].MarkUnread()
		wins[1].SetAttention(true)
	})
	h.alt('0')
	h.golden("window-list")
	if !strings.Contains(h.text(), "● unread") || !strings.Contains(h.text(), "! waiting for you") {
		t.Fatalf("marks missing from the list:\n%s", h.text())
	}
	h.typeText("2")
	h.press(tcell.KeyEnter)
	if focused(h) != 2 {
		t.Errorf("choosing window 2 from the list focused %d", focused(h))
	}
	// The AZERTY Alt-à is Alt-0 too; Esc closes the list without moving.
	h.alt('à')
	if n := onUI(h, func() int { return len(Dialogs(h.app)) }); n != 1 {
		t.Fatalf("Alt-à did not open the list")
	}
	h.press(tcell.KeyEsc)
	if n := onUI(h, func() int { return len(Dialogs(h.app)) }); n != 0 || focused(h) != 2 {
		t.Errorf("Esc: %d dialogs, focus %d", n, focused(h))
	}
}

func TestMaximiseRestore(t *testing.T) {
	h := newHarness(t, 80, 24)
	wins := h.addWindows(3)
	h.do(func() { wins[1].Focus() })
	h.press(tcell.KeyF5)
	if !onUI(h, h.app.Maximised) {
		t.Fatal("F5 did not maximise")
	}
	if r := onUI(h, func() Rect { return WindowRect(wins[1]) }); r != (Rect{0, 1, 80, 22}) {
		t.Errorf("maximised window at %+v", r)
	}
	h.golden("maximised")
	// F6 keeps the maximised view on the next window.
	h.press(tcell.KeyF6)
	if r := onUI(h, func() Rect { return WindowRect(wins[2]) }); r != (Rect{0, 1, 80, 22}) {
		t.Errorf("after F6 window 3 at %+v, want maximised", r)
	}
	h.press(tcell.KeyF5)
	if onUI(h, h.app.Maximised) {
		t.Fatal("F5 did not restore")
	}
	// [■] with the mouse maximises the window clicked, and restores.
	r := onUI(h, func() Rect { return WindowRect(wins[0]) })
	h.click(r.X+r.W-3, r.Y)
	if !onUI(h, h.app.Maximised) || focused(h) != 1 {
		t.Errorf("clicking [■] of window 1: maximised %v, focus %d", onUI(h, h.app.Maximised), focused(h))
	}
	h.click(80-3, 1)
	if onUI(h, h.app.Maximised) {
		t.Error("clicking [■] again did not restore")
	}
}

func TestCloseRetiles(t *testing.T) {
	h := newHarness(t, 80, 24)
	wins := h.addWindows(3)
	closed := map[int]bool{}
	h.do(func() {
		for i, w := range wins {
			i := i
			w.OnClose(func() { closed[i] = true })
		}
	})
	h.key(tcell.KeyF3, 0, tcell.ModAlt)
	if !onUI(h, func() bool { return closed[2] }) || onUI(h, func() int { return len(h.app.Windows()) }) != 2 {
		t.Fatal("Alt-F3 did not close window 3")
	}
	if focused(h) != 2 {
		t.Errorf("after closing 3 the focus is on %d, want 2", focused(h))
	}
	// The two left are side by side now.
	if r := onUI(h, func() Rect { return WindowRect(wins[1]) }); r != (Rect{40, 1, 40, 22}) {
		t.Errorf("window 2 at %+v after retiling", r)
	}
	// [x] of window 1, then Ctrl-W (no widget takes it) on the last.
	h.click(2, 1)
	if !onUI(h, func() bool { return closed[0] }) {
		t.Fatal("clicking [x] did not close window 1")
	}
	if n := onUI(h, func() int { return wins[1].Number() }); n != 1 {
		t.Errorf("the window left is number %d, want 1", n)
	}
	h.key(tcell.KeyCtrlW, 'w', tcell.ModCtrl)
	if !onUI(h, func() bool { return closed[1] }) {
		t.Fatal("Ctrl-W did not close the last window")
	}
	if !strings.Contains(h.text(), "No window open") {
		t.Errorf("empty desktop message missing:\n%s", h.text())
	}
}

func TestTooManyWindows(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.addWindows(MaxWindows)
	var err error
	h.do(func() { _, err = h.app.AddWindow("ten", NewTextView()) })
	if err == nil {
		t.Fatal("a tenth window was opened")
	}
	if !strings.Contains(h.row(23), "At most 9 windows") {
		t.Errorf("no message in the status bar: %q", h.row(23))
	}
}

func TestUnreadUntilFocused(t *testing.T) {
	h := newHarness(t, 80, 24)
	wins := h.addWindows(2)
	h.do(func() {
		wins[0].MarkUnread()
		wins[1].MarkUnread() // focused: not unread
	})
	if !strings.Contains(h.row(1), "1●") || strings.Contains(h.row(1), "2●") {
		t.Fatalf("unread marks wrong: %q", h.row(1))
	}
	h.alt('1')
	if strings.Contains(h.row(1), "●") || onUI(h, wins[0].Unread) {
		t.Errorf("focusing did not clear the mark: %q", h.row(1))
	}
}

func TestSpinnerFromClock(t *testing.T) {
	h := newHarness(t, 80, 24)
	a, b := &recorder{}, &recorder{}
	h.do(func() {
		_, _ = h.app.AddWindow("alice", a)
		_, _ = h.app.AddWindow("bob", b)
	})
	if strings.ContainsAny(h.row(1), strings.Join(SpinnerFrames, "")) {
		t.Fatalf("spinner while idle: %q", h.row(1))
	}
	h.do(func() { a.busy, b.busy = true, true })
	first := SpinnerFrame(h.clock.Now())
	row := []rune(h.row(1))
	if string(row[5]) != first || string(row[40+5]) != first {
		t.Fatalf("spinners %q and %q, want both %q: %q", string(row[5]), string(row[45]), first, string(row))
	}
	if !strings.Contains(string(row), " alice ") {
		t.Errorf("title changed while busy: %q", string(row))
	}
	h.clock.Advance(SpinnerStep)
	h.do(func() {})
	next := SpinnerFrame(h.clock.Now())
	if next == first {
		t.Fatal("the spinner does not move with the clock")
	}
	row = []rune(h.row(1))
	if string(row[5]) != next || string(row[45]) != next {
		t.Errorf("after a step: %q and %q, want %q", string(row[5]), string(row[45]), next)
	}
	// The loop wakes itself for the next step while something spins.
	if at := onUI(h, func() time.Time { return TimerAt(h.app) }); at.IsZero() {
		t.Error("no wake-up scheduled while a spinner turns")
	}
}

func TestFlashFades(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.do(func() { h.app.Flash("3 lines copied") })
	if !strings.Contains(h.row(23), "3 lines copied") {
		t.Fatalf("message not shown: %q", h.row(23))
	}
	h.clock.Advance(MessageLife + time.Millisecond)
	h.do(func() {})
	if strings.Contains(h.row(23), "copied") || !strings.Contains(h.row(23), "F10 Menu") {
		t.Errorf("message did not fade: %q", h.row(23))
	}
}

// Two messages said before any frame could show the first are shown together: neither is
// lost. Once a message was shown, the next replaces it.
func TestFlashKeepsAMessageNoFrameShowed(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.do(func() {
		h.app.Flash("first")
		h.app.Flash("second")
	})
	if !strings.Contains(h.row(23), "first · second") {
		t.Fatalf("status bar %q, want both messages", h.row(23))
	}
	h.do(func() { h.app.Flash("third") })
	if row := h.row(23); !strings.Contains(row, "third") || strings.Contains(row, "second") {
		t.Errorf("status bar %q, want the third alone", row)
	}
}

func TestStatusHintsFromWidget(t *testing.T) {
	h := newHarness(t, 80, 24)
	enter := Named(KeyEnter, 0)
	r := &recorder{hints: []Hint{{Keys: "Enter", Text: "Send", Key: &enter}}}
	h.do(func() { _, _ = h.app.AddWindow("alice", r) })
	if !strings.HasPrefix(h.row(23), " Enter Send  F1 Help  F10 Menu") {
		t.Fatalf("status bar %q", h.row(23))
	}
	// A click on a hint presses its key.
	h.click(2, 23)
	evs := r.got()
	if len(evs) == 0 || evs[len(evs)-1] != Event(enter) {
		t.Errorf("clicking the hint gave %v", evs)
	}
}
