package window_test

// These tests run the App on windowtest's harness, which imports window: they cannot be in
// package window (an import cycle), so they are in package window_test and import window
// with a dot, as the Go code review comments advise for this very case. export_test.go
// gives them what they read of the App's inside.

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"github.com/gdamore/tcell/v2"

	. "git.rickub.com/bots-garden/sidekicks/window"
	"git.rickub.com/bots-garden/sidekicks/window/windowtest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// harness runs an App on windowtest's simulation screen, with a clock the tests move.
type harness struct {
	*windowtest.Harness
	t     *testing.T
	sim   tcell.SimulationScreen
	app   *App
	clock *windowtest.Clock
}

type harnessOption func(*Options)

func withTheme(th *Theme) harnessOption      { return func(o *Options) { o.Theme = th } }
func withLanguage(l i18n.Lang) harnessOption { return func(o *Options) { o.Language = l } }

// newHarness runs an App on a w × hgt simulation screen. An option may wrap the screen
// (Options.Screen, a simulation screen): windowtest's screen then wraps what it gives.
func newHarness(t *testing.T, w, hgt int, opts ...harnessOption) *harness {
	t.Helper()
	clock := windowtest.NewClock()
	o := Options{Screen: tcell.NewSimulationScreen("UTF-8"), Theme: DarkTheme(), Language: i18n.English, Now: clock.Now}
	for _, f := range opts {
		f(&o)
	}
	wh := windowtest.Start(t, windowtest.Config{Screen: o.Screen, Options: o})
	hs := &harness{Harness: wh, t: t, sim: wh.Sim, app: wh.App, clock: clock}
	hs.resize(w, hgt)
	return hs
}

// sync waits until every event posted so far has been handled and a frame drawn.
func (h *harness) sync() {
	h.t.Helper()
	h.Sync()
}

// do runs f on the UI goroutine and waits for it and the next frame.
func (h *harness) do(f func()) {
	h.t.Helper()
	h.Post(f)
	h.sync()
}

func (h *harness) resize(w, hgt int) {
	h.t.Helper()
	h.Resize(w, hgt)
}

func (h *harness) key(k tcell.Key, r rune, mod tcell.ModMask) {
	h.t.Helper()
	h.sim.InjectKey(k, r, mod)
	h.sync()
}

func (h *harness) alt(r rune)        { h.key(tcell.KeyRune, r, tcell.ModAlt) }
func (h *harness) press(k tcell.Key) { h.key(k, 0, tcell.ModNone) }
func (h *harness) typeText(s string) {
	h.t.Helper()
	for _, r := range s {
		h.sim.InjectKey(tcell.KeyRune, r, tcell.ModNone)
	}
	h.sync()
}

func (h *harness) click(x, y int) {
	h.t.Helper()
	h.sim.InjectMouse(x, y, tcell.Button1, tcell.ModNone)
	h.sim.InjectMouse(x, y, tcell.ButtonNone, tcell.ModNone)
	h.sync()
}

func (h *harness) addWindows(n int) []*Window {
	var wins []*Window
	h.do(func() {
		for i := 0; i < n; i++ {
			v := NewTextView()
			v.SetText(fmt.Sprintf("Content of window %d.\nSecond line.", len(h.app.Windows())+1))
			w, err := h.app.AddWindow(fmt.Sprintf("Window %d", len(h.app.Windows())+1), v)
			if err != nil {
				h.t.Fatal(err)
			}
			wins = append(wins, w)
		}
	})
	return wins
}

// onUI reads a value on the UI goroutine.
func onUI[T any](h *harness, f func() T) T {
	var v T
	h.do(func() { v = f() })
	return v
}

// frame copies the screen's cells on the UI goroutine, so that no frame is being drawn
// meanwhile, and waits for the next frame, as onUI does.
func (h *harness) frame() windowtest.Frame {
	h.t.Helper()
	f := h.Read()
	h.sync()
	return f
}

// contents copies the simulation screen's cells (frame).
func (h *harness) contents() ([]tcell.SimCell, int, int) {
	f := h.frame()
	return f.Cells, f.W, f.H
}

// text returns the screen's rows, trailing spaces removed.
func (h *harness) text() string { return h.frame().Text() }

// row returns row y of the screen.
func (h *harness) row(y int) string {
	return strings.Split(h.text(), "\n")[y]
}

// styleAt returns the style of the cell (x, y).
func (h *harness) styleAt(x, y int) tcell.Style { return h.frame().Style(x, y) }

// styles returns a compact map of the screen's styles: one letter per cell, and a legend.
func (h *harness) styles() string { return h.frame().Styles() }

// golden compares the screen (text and styles), once the App is idle, with
// testdata/name.golden.
func (h *harness) golden(name string) {
	h.t.Helper()
	h.Golden(filepath.Join("testdata", name+".golden"), *update)
}

// recorder is a widget that records what it receives.
type recorder struct {
	mu     sync.Mutex
	events []Event
	busy   bool
	hints  []Hint
	fill   string
}

func (r *recorder) Draw(reg Region, focused bool) {
	W, H := reg.Size()
	for y := 0; y < H; y++ {
		reg.Line(y, strings.Repeat(r.fill, W), ClassText)
	}
}

func (r *recorder) HandleEvent(ev Event) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ev)
	return true
}

func (r *recorder) Busy() bool    { return r.busy }
func (r *recorder) Hints() []Hint { return r.hints }

func (r *recorder) got() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Event(nil), r.events...)
}
