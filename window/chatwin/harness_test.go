package chatwin

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/window"
	"git.rickub.com/bots-garden/sidekicks/window/windowtest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// deadline bounds every wait of the tests.
const deadline = 10 * time.Second

// harness runs a real App on windowtest's screen, with a clock that moves only when the
// test says.
type harness struct {
	*windowtest.Harness
	t     testing.TB
	sim   tcell.SimulationScreen // nil on another kind of screen
	app   *window.App
	clock *windowtest.Clock
	w, h  int
}

// newHarness runs an App on a width × height simulation screen.
func newHarness(t testing.TB, width, height int, lang i18n.Lang) *harness {
	t.Helper()
	return startHarness(t, windowtest.Config{Width: width, Height: height}, lang)
}

// startHarness runs an App as cfg says (its screen and size, whether frames are copied),
// in lang, and waits for its first frame.
func startHarness(t testing.TB, cfg windowtest.Config, lang i18n.Lang) *harness {
	t.Helper()
	clk := windowtest.NewClock()
	cfg.Deadline = deadline
	cfg.Options = window.Options{Language: lang, Now: clk.Now}
	wh := windowtest.Start(t, cfg)
	h := &harness{Harness: wh, t: t, sim: wh.Sim, app: wh.App, clock: clk, w: cfg.Width, h: cfg.Height}
	h.sync()
	return h
}

// sync waits until every event injected so far has been handled and a frame drawn.
func (h *harness) sync() {
	h.t.Helper()
	h.Sync()
}

func (h *harness) resize(width, height int) {
	h.t.Helper()
	h.w, h.h = width, height
	h.Resize(width, height)
}

// do runs f on the screen's goroutine, then waits for a frame.
func (h *harness) do(f func()) {
	h.t.Helper()
	h.Post(f)
	h.sync()
}

// onUI returns what f computes on the screen's goroutine.
func onUI[T any](h *harness, f func() T) T {
	var v T
	h.do(func() { v = f() })
	return v
}

// inject puts an event in the screen's queue, after those before it.
func (h *harness) inject(ev tcell.Event) { h.Screen.PostEventWait(ev) }

func (h *harness) injectKey(k tcell.Key, r rune, mod tcell.ModMask) { h.Key(k, r, mod) }

func (h *harness) key(k tcell.Key, mod tcell.ModMask) {
	h.injectKey(k, 0, mod)
	h.sync()
}

func (h *harness) press(k tcell.Key) { h.key(k, tcell.ModNone) }

func (h *harness) ctrl(r rune) { h.key(tcell.Key(r-'a'+1), tcell.ModCtrl) }

func (h *harness) typeText(s string) {
	h.Type(s)
	h.sync()
}

// paste sends a bracketed paste, as a terminal does: its start, its characters, its end.
func (h *harness) paste(s string) {
	h.Paste(s)
	h.sync()
}

func (h *harness) mouse(x, y int, b tcell.ButtonMask, mod tcell.ModMask) {
	h.Mouse(x, y, b, mod)
	h.sync()
}

// text returns the screen's rows, trailing spaces removed.
func (h *harness) text() string {
	h.t.Helper()
	return h.Read().Text()
}

func (h *harness) rows() []string { return strings.Split(h.text(), "\n") }

// find returns the position of the first cell where s is written, (-1, -1) when none.
func (h *harness) find(s string) (int, int) {
	h.t.Helper()
	x, y, ok := h.Read().Find(s)
	if !ok {
		return -1, -1
	}
	return x, y
}

// styleAt returns the style of the cell (x, y).
func (h *harness) styleAt(x, y int) tcell.Style {
	h.t.Helper()
	return h.Read().Style(x, y)
}

// styles returns one letter per cell, the same letter for the same style, and a legend.
func (h *harness) styles() string {
	h.t.Helper()
	return h.Read().Styles()
}

// golden compares the screen (text and styles), once the App is idle, with
// testdata/name.golden.
func (h *harness) golden(name string) {
	h.t.Helper()
	if !h.Golden(filepath.Join("testdata", name+".golden"), *update) {
		h.t.FailNow()
	}
}

// settle waits until the calls w made to the service so far have run (its queue's idle
// barrier), then until the screen's goroutine has run what they posted and drawn a frame.
func (h *harness) settle(w *Widget) {
	h.t.Helper()
	select {
	case <-w.calls.Idle():
	case <-time.After(deadline):
		h.t.Fatalf("the window's calls to the service did not end; screen:\n%s", h.text())
	}
	h.do(func() {})
}

// settled waits as settle does, then fails unless cond holds on the screen's goroutine.
func (h *harness) settled(w *Widget, what string, cond func() bool) {
	h.t.Helper()
	h.settle(w)
	if !onUI(h, cond) {
		h.t.Fatalf("no %s once the window's calls to the service had run; screen:\n%s", what, h.text())
	}
}

// waitFor polls cond on the screen's goroutine until it holds: for what comes from another
// goroutine (an agent's reply, a walk) with no event of its own to wait on.
func (h *harness) waitFor(what string, cond func() bool) {
	h.t.Helper()
	end := time.Now().Add(deadline)
	for !onUI(h, cond) {
		if time.Now().After(end) {
			h.t.Fatalf("timed out waiting for %s; screen:\n%s", what, h.text())
		}
	}
}

// waitText waits until the screen shows s.
func (h *harness) waitText(s string) {
	h.t.Helper()
	end := time.Now().Add(deadline)
	for !strings.Contains(h.text(), s) {
		if time.Now().After(end) {
			h.t.Fatalf("timed out waiting for %q on the screen:\n%s", s, h.text())
		}
	}
}
