package chatwin

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/window"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// deadline bounds every wait of the tests.
const deadline = 10 * time.Second

// watchedScreen is the simulation screen with what the tests need to see from outside the
// window package: when the App has started it, when it redrew the whole screen (which it
// does on the frame after a resize: the tests' barrier), and the bells.
type watchedScreen struct {
	tcell.Screen
	started chan struct{}
	syncs   atomic.Int64
	synced  chan struct{}
	bells   atomic.Int64
}

func (s *watchedScreen) Init() error {
	err := s.Screen.Init()
	close(s.started)
	return err
}

func (s *watchedScreen) Sync() {
	s.Screen.Sync()
	s.syncs.Add(1)
	select {
	case s.synced <- struct{}{}:
	default:
	}
}

func (s *watchedScreen) Beep() error {
	s.bells.Add(1)
	return nil
}

// clock is the App's clock: the spinner and the status bar's messages read it.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// harness runs a real App on a simulation screen.
type harness struct {
	t     testing.TB
	scr   *watchedScreen
	sim   tcell.SimulationScreen
	app   *window.App
	clock *clock
	w, h  int
	done  chan error
}

func newHarness(t testing.TB, width, height int, lang i18n.Lang) *harness {
	t.Helper()
	sim := tcell.NewSimulationScreen("UTF-8")
	h := startHarness(t, sim, lang)
	h.sim = sim
	h.resize(width, height)
	return h
}

// startHarness runs an App on screen.
func startHarness(t testing.TB, screen tcell.Screen, lang i18n.Lang) *harness {
	t.Helper()
	scr := &watchedScreen{Screen: screen, started: make(chan struct{}), synced: make(chan struct{}, 1)}
	clk := &clock{t: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)}
	app, err := window.New(window.Options{Screen: scr, Language: lang, Now: clk.now})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, scr: scr, app: app, clock: clk, done: make(chan error, 1)}
	go func() { h.done <- app.Run() }()
	select {
	case <-scr.started:
	case err := <-h.done:
		t.Fatalf("Run returned before starting: %v", err)
	case <-time.After(deadline):
		t.Fatal("the screen did not start")
	}
	t.Cleanup(h.stop)
	return h
}

func (h *harness) stop() {
	h.app.Quit()
	select {
	case err := <-h.done:
		if err != nil {
			h.t.Errorf("Run: %v", err)
		}
	case <-time.After(deadline):
		h.t.Error("Run did not return after Quit")
	}
}

// sync waits until every event injected so far has been handled and a frame drawn: a
// resize goes through the screen's own queue, after them, and the App redraws the whole
// screen (Sync) on the frame after it.
func (h *harness) sync() {
	h.t.Helper()
	before := h.scr.syncs.Load()
	h.scr.PostEventWait(tcell.NewEventResize(h.w, h.h))
	timeout := time.After(deadline)
	for h.scr.syncs.Load() <= before {
		select {
		case <-h.scr.synced:
		case <-timeout:
			h.t.Fatal("the screen did not draw")
		}
	}
}

func (h *harness) resize(width, height int) {
	h.w, h.h = width, height
	h.sim.SetSize(width, height)
	h.sync()
}

// do runs f on the screen's goroutine, then waits for a frame.
func (h *harness) do(f func()) {
	h.t.Helper()
	ran := make(chan struct{})
	h.app.Post(func() { f(); close(ran) })
	select {
	case <-ran:
	case <-time.After(deadline):
		h.t.Fatal("posted work did not run")
	}
	h.sync()
}

// onUI returns what f computes on the screen's goroutine.
func onUI[T any](h *harness, f func() T) T {
	var v T
	h.do(func() { v = f() })
	return v
}

// inject puts an event in the screen's queue, after those before it.
func (h *harness) inject(ev tcell.Event) { h.scr.PostEventWait(ev) }

func (h *harness) injectKey(k tcell.Key, r rune, mod tcell.ModMask) {
	h.inject(tcell.NewEventKey(k, r, mod))
}

func (h *harness) key(k tcell.Key, mod tcell.ModMask) {
	h.injectKey(k, 0, mod)
	h.sync()
}

func (h *harness) press(k tcell.Key) { h.key(k, tcell.ModNone) }

func (h *harness) ctrl(r rune) { h.key(tcell.Key(r-'a'+1), tcell.ModCtrl) }

func (h *harness) typeText(s string) {
	for _, r := range s {
		h.injectKey(tcell.KeyRune, r, tcell.ModNone)
	}
	h.sync()
}

// paste sends a bracketed paste, as a terminal does: its start, its characters, its end.
func (h *harness) paste(s string) {
	h.inject(tcell.NewEventPaste(true))
	for _, r := range s {
		if r == '\n' {
			h.injectKey(tcell.KeyEnter, 0, tcell.ModNone)
			continue
		}
		h.injectKey(tcell.KeyRune, r, tcell.ModNone)
	}
	h.inject(tcell.NewEventPaste(false))
	h.sync()
}

func (h *harness) mouse(x, y int, b tcell.ButtonMask, mod tcell.ModMask) {
	h.inject(tcell.NewEventMouse(x, y, b, mod))
	h.sync()
}

// text returns the screen's rows, trailing spaces removed.
func (h *harness) text() string {
	type snap struct {
		cells []tcell.SimCell
		w, h  int
	}
	s := onUI(h, func() snap {
		cells, w, hgt := h.sim.GetContents()
		out := make([]tcell.SimCell, len(cells))
		for i, c := range cells {
			out[i] = tcell.SimCell{Style: c.Style, Runes: append([]rune(nil), c.Runes...)}
		}
		return snap{out, w, hgt}
	})
	var b strings.Builder
	for y := 0; y < s.h; y++ {
		var row strings.Builder
		for x := 0; x < s.w; {
			str := string(s.cells[y*s.w+x].Runes)
			if str == "" {
				str = " "
			}
			row.WriteString(str)
			x += max(uniseg.StringWidth(str), 1)
		}
		b.WriteString(strings.TrimRight(row.String(), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

func (h *harness) rows() []string { return strings.Split(h.text(), "\n") }

// find returns the position of the first cell where s is written, (-1, -1) when none.
func (h *harness) find(s string) (int, int) {
	for y, row := range h.rows() {
		if i := strings.Index(row, s); i >= 0 {
			return uniseg.StringWidth(row[:i]), y
		}
	}
	return -1, -1
}

// styleAt returns the style of the cell (x, y).
func (h *harness) styleAt(x, y int) tcell.Style {
	return onUI(h, func() tcell.Style {
		cells, w, _ := h.sim.GetContents()
		return cells[y*w+x].Style
	})
}

// styles returns one letter per cell, the same letter for the same style, and a legend.
func (h *harness) styles() string {
	type snap struct {
		st   []tcell.Style
		w, h int
	}
	s := onUI(h, func() snap {
		cells, w, hgt := h.sim.GetContents()
		out := make([]tcell.Style, len(cells))
		for i, c := range cells {
			out[i] = c.Style
		}
		return snap{out, w, hgt}
	})
	letters := "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	seen := map[tcell.Style]byte{}
	var order []tcell.Style
	var b strings.Builder
	for y := 0; y < s.h; y++ {
		for x := 0; x < s.w; x++ {
			st := s.st[y*s.w+x]
			l, ok := seen[st]
			if !ok {
				l = '?'
				if len(order) < len(letters) {
					l = letters[len(order)]
				}
				seen[st] = l
				order = append(order, st)
			}
			b.WriteByte(l)
		}
		b.WriteByte('\n')
	}
	b.WriteString("legend:\n")
	for _, st := range order {
		fg, bg, attrs := st.Decompose()
		fmt.Fprintf(&b, "%c fg=%s bg=%s attrs=%d\n", seen[st], colorName(fg), colorName(bg), attrs)
	}
	return b.String()
}

func colorName(c tcell.Color) string {
	if !c.Valid() {
		return c.String()
	}
	return fmt.Sprintf("#%06x", c.Hex())
}

// golden compares the screen (text and styles) with testdata/name.golden.
func (h *harness) golden(name string) {
	h.t.Helper()
	got := h.text() + "--- styles\n" + h.styles()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			h.t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			h.t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		h.t.Fatalf("reading the golden file (run with -update to create it): %v", err)
	}
	if string(want) != got {
		wl, gl := strings.Split(string(want), "\n"), strings.Split(got, "\n")
		for i := 0; i < max(len(wl), len(gl)); i++ {
			var a, b string
			if i < len(wl) {
				a = wl[i]
			}
			if i < len(gl) {
				b = gl[i]
			}
			if a != b {
				h.t.Fatalf("screen differs from %s at line %d (run with -update to accept):\nwant %q\ngot  %q\n\nscreen now:\n%s", path, i+1, a, b, got)
			}
		}
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
