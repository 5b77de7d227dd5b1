package windowtest

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/window"
)

// Config says how to start a harness.
type Config struct {
	// Screen is the screen to run the App on; nil for a new UTF-8 simulation screen.
	Screen tcell.Screen
	// Width and Height, when not zero, are the simulation screen's size as the App starts it.
	Width, Height int
	// Options are the App's; Start sets their Screen.
	Options window.Options
	// Deadline bounds every wait of the harness; zero for the package's Deadline.
	Deadline time.Duration
	// NoCopy keeps no copy of the frames shown (ScreenConfig.NoCopy): for benchmarks.
	NoCopy bool
}

// Harness runs a real window.App on a watched screen until the test ends.
type Harness struct {
	T      testing.TB
	Screen *Screen
	Sim    tcell.SimulationScreen // the simulation screen under Screen; nil if it is not one
	App    *window.App
	ended  chan struct{} // closed once Run has returned
	err    error         // what Run returned, once ended is closed
	wait   time.Duration
}

// Start runs an App on cfg's screen, waits until the App has started the screen, and quits
// it when the test ends.
func Start(t testing.TB, cfg Config) *Harness {
	t.Helper()
	scr := NewScreen(ScreenConfig{Screen: cfg.Screen, Width: cfg.Width, Height: cfg.Height, NoCopy: cfg.NoCopy})
	opts := cfg.Options
	opts.Screen = scr
	app, err := window.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	h := &Harness{T: t, Screen: scr, Sim: scr.sim, App: app, ended: make(chan struct{}), wait: cfg.Deadline}
	if h.wait <= 0 {
		h.wait = Deadline
	}
	go func() {
		h.err = app.Run()
		close(h.ended)
	}()
	select {
	case <-scr.started:
	case <-h.ended:
		t.Fatalf("Run returned before starting: %v", h.err)
	case <-time.After(h.wait):
		t.Fatal("the screen did not start")
	}
	t.Cleanup(h.stop)
	return h
}

func (h *Harness) stop() {
	h.App.Quit()
	select {
	case <-h.ended:
		if h.err != nil {
			h.T.Errorf("Run: %v", h.err)
		}
	case <-time.After(h.wait):
		h.T.Error("Run did not return after Quit")
	}
}

// Ended returns a channel closed once the App's Run has returned (Quit, or a test that
// quits the App itself); Err then says what it returned.
func (h *Harness) Ended() <-chan struct{} { return h.ended }

// Err is what Run returned: read it once Ended is closed.
func (h *Harness) Err() error {
	select {
	case <-h.ended:
		return h.err
	default:
		h.T.Fatal("Err read while Run is still running")
		return nil
	}
}

// Post runs f on the screen's goroutine and waits until it has run.
func (h *Harness) Post(f func()) {
	h.T.Helper()
	ran := make(chan struct{})
	h.App.Post(func() { f(); close(ran) })
	select {
	case <-ran:
	case <-time.After(h.wait):
		h.T.Fatal("posted work did not run")
	}
}

// Do runs f on the screen's goroutine and waits for the frame shown after it.
func (h *Harness) Do(f func()) {
	h.T.Helper()
	var n uint64
	h.Post(func() {
		f()
		last, _ := h.Screen.Last()
		n = last.N
	})
	h.WaitFrame("the frame after posted work", func(f Frame) bool { return f.N > n })
}

// Value returns what f computes on the screen's goroutine.
func Value[T any](h *Harness, f func() T) T {
	var v T
	h.Post(func() { v = f() })
	return v
}

// Read copies the simulation screen's cells on the screen's goroutine, where no frame is
// being drawn.
func (h *Harness) Read() Frame {
	h.T.Helper()
	if h.Sim == nil {
		h.T.Fatal("reading the screen needs a simulation screen")
	}
	return Value(h, func() Frame { return contents(h.Sim) })
}

// Sync waits until every event put in the screen's queue so far has been handled and a
// frame drawn after them (window.App.Drawn). Work posted from other goroutines is not
// waited for: Idle waits for that too.
func (h *Harness) Sync() {
	h.T.Helper()
	select {
	case <-h.App.Drawn():
	case <-time.After(h.wait):
		h.T.Fatal("the screen did not draw")
	}
}

// Idle waits until every event put in the screen's queue so far has been handled and the
// App is idle: no posted work pending, nothing left to draw (window.App.Idle). It returns
// the last frame shown, which is then what the screen shows until something new arrives
// (with NoCopy, a frame that holds only its number).
func (h *Harness) Idle() Frame {
	h.T.Helper()
	select {
	case <-h.App.Idle():
	case <-time.After(h.wait):
		h.T.Fatal("the screen did not settle")
	}
	f, _ := h.Screen.Last()
	return f
}

// Golden waits until the App is idle (Idle), then compares the screen, its text and its
// styles, with the file at path, once: a difference is reported at once (t.Errorf), and
// Golden says whether there was none. With update set it rewrites the file instead (each
// test binary has its own -update flag). It reads the screen (Read), so it works with
// NoCopy too.
func (h *Harness) Golden(path string, update bool) bool {
	h.T.Helper()
	h.Idle()
	f := h.Read()
	return Golden(h.T, path, f.Text()+"--- styles\n"+f.Styles(), update)
}

// Redraw waits until every event put in the screen's queue so far has been handled and the
// whole screen redrawn: a resize to width×height goes through the queue after them, and the
// App redraws the whole screen (Sync) on the frame after a resize.
func (h *Harness) Redraw(width, height int) {
	h.T.Helper()
	before := h.Screen.syncs.Load()
	h.Screen.PostEventWait(tcell.NewEventResize(width, height))
	timeout := time.After(h.wait)
	for h.Screen.syncs.Load() <= before {
		select {
		case <-h.Screen.synced:
		case <-timeout:
			h.T.Fatal("the screen did not draw")
		}
	}
}

// Resize gives the simulation screen a new size and waits until the App has handled it
// and drawn a frame of that size.
func (h *Harness) Resize(width, height int) {
	h.T.Helper()
	h.Sim.SetSize(width, height)
	h.Screen.PostEventWait(tcell.NewEventResize(width, height))
	h.Sync()
}

// WaitFrame waits for a frame that satisfies ok, and returns it.
func (h *Harness) WaitFrame(what string, ok func(Frame) bool) Frame {
	h.T.Helper()
	return h.Screen.Wait(h.T, h.wait, what, ok)
}

// WaitText waits until the screen shows every one of texts.
func (h *Harness) WaitText(texts ...string) Frame {
	h.T.Helper()
	return h.WaitFrame(fmt.Sprintf("%q on the screen", texts), func(f Frame) bool {
		s := f.Text()
		for _, t := range texts {
			if !strings.Contains(s, t) {
				return false
			}
		}
		return true
	})
}

// WaitGone waits until the screen no longer shows text.
func (h *Harness) WaitGone(text string) Frame {
	h.T.Helper()
	return h.WaitFrame(fmt.Sprintf("%q gone from the screen", text), func(f Frame) bool {
		return !strings.Contains(f.Text(), text)
	})
}

// WaitRow waits until a row of the screen holds every one of texts.
func (h *Harness) WaitRow(texts ...string) Frame {
	h.T.Helper()
	return h.WaitFrame(fmt.Sprintf("a row with %q", texts), func(f Frame) bool {
		for _, row := range f.Rows() {
			all := true
			for _, t := range texts {
				all = all && strings.Contains(row, t)
			}
			if all {
				return true
			}
		}
		return false
	})
}

// Key puts a key in the screen's queue, after the events before it; it never drops one
// (PostEventWait waits for room) and does not wait for it to be handled.
func (h *Harness) Key(k tcell.Key, r rune, mod tcell.ModMask) {
	h.Screen.PostEventWait(tcell.NewEventKey(k, r, mod))
}

// Type puts s's characters in the screen's queue, one key each.
func (h *Harness) Type(s string) {
	for _, r := range s {
		h.Key(tcell.KeyRune, r, tcell.ModNone)
	}
}

// Paste puts a bracketed paste in the screen's queue, as a terminal sends it: its start,
// its characters (a newline as Enter), its end.
func (h *Harness) Paste(s string) {
	h.Screen.PostEventWait(tcell.NewEventPaste(true))
	for _, r := range s {
		if r == '\n' {
			h.Key(tcell.KeyEnter, 0, tcell.ModNone)
			continue
		}
		h.Key(tcell.KeyRune, r, tcell.ModNone)
	}
	h.Screen.PostEventWait(tcell.NewEventPaste(false))
}

// Mouse puts a mouse event in the screen's queue.
func (h *Harness) Mouse(x, y int, b tcell.ButtonMask, mod tcell.ModMask) {
	h.Screen.PostEventWait(tcell.NewEventMouse(x, y, b, mod))
}

// Clock is an App's clock that tests move by hand.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a clock set at 2025-01-02 03:04:05 UTC.
func NewClock() *Clock { return &Clock{t: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)} }

// Now is the clock's time: give it as window.Options.Now.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}
