package window

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// fakeClock is the injected clock: spinners and messages read it, tests move it.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// harness runs an App on a simulation screen.
type harness struct {
	t     *testing.T
	sim   tcell.SimulationScreen
	app   *App
	clock *fakeClock
	done  chan error
}

type harnessOption func(*Options)

func withTheme(th *Theme) harnessOption      { return func(o *Options) { o.Theme = th } }
func withLanguage(l i18n.Lang) harnessOption { return func(o *Options) { o.Language = l } }

func newHarness(t *testing.T, w, h int, opts ...harnessOption) *harness {
	t.Helper()
	sim := tcell.NewSimulationScreen("UTF-8")
	clock := &fakeClock{t: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)}
	o := Options{Screen: sim, Theme: darkTheme(), Language: i18n.English, Now: clock.Now}
	for _, f := range opts {
		f(&o)
	}
	app, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	hs := &harness{t: t, sim: sim, app: app, clock: clock, done: make(chan error, 1)}
	go func() { hs.done <- app.Run() }()
	select {
	case <-app.ready:
	case err := <-hs.done:
		t.Fatalf("Run returned before starting: %v", err)
	case <-time.After(5 * time.Second):
		t.Fatal("the screen did not start")
	}
	t.Cleanup(hs.stop)
	hs.resize(w, h)
	return hs
}

// stop quits the App and waits for Run to return.
func (h *harness) stop() {
	h.app.Quit()
	select {
	case <-h.done:
	case <-time.After(5 * time.Second):
		h.t.Error("Run did not return after Quit")
	}
}

// sync waits until every event posted so far has been handled and a frame drawn.
func (h *harness) sync() {
	h.t.Helper()
	c := make(syncRequest)
	ev := tcell.NewEventInterrupt(c)
	posted := make(chan struct{})
	go func() { h.sim.PostEventWait(ev); close(posted) }()
	select {
	case <-c:
	case <-time.After(5 * time.Second):
		h.t.Fatal("the screen did not draw within 5 s")
	}
	<-posted
}

// do runs f on the UI goroutine and waits for it and the next frame.
func (h *harness) do(f func()) {
	h.t.Helper()
	ran := make(chan struct{})
	h.app.Post(func() { f(); close(ran) })
	select {
	case <-ran:
	case <-time.After(5 * time.Second):
		h.t.Fatal("posted work did not run within 5 s")
	}
	h.sync()
}

func (h *harness) resize(w, hgt int) {
	h.sim.SetSize(w, hgt)
	h.sim.PostEventWait(tcell.NewEventResize(w, hgt))
	h.sync()
}

func (h *harness) key(k tcell.Key, r rune, mod tcell.ModMask) {
	h.sim.InjectKey(k, r, mod)
	h.sync()
}

func (h *harness) alt(r rune)        { h.key(tcell.KeyRune, r, tcell.ModAlt) }
func (h *harness) press(k tcell.Key) { h.key(k, 0, tcell.ModNone) }
func (h *harness) typeText(s string) {
	for _, r := range s {
		h.sim.InjectKey(tcell.KeyRune, r, tcell.ModNone)
	}
	h.sync()
}

func (h *harness) click(x, y int) {
	h.sim.InjectMouse(x, y, tcell.Button1, tcell.ModNone)
	h.sim.InjectMouse(x, y, tcell.ButtonNone, tcell.ModNone)
	h.sync()
}

func (h *harness) addWindows(n int) []*Window {
	var wins []*Window
	h.do(func() {
		for i := 0; i < n; i++ {
			v := NewTextView()
			v.SetText(fmt.Sprintf("Content of window %d.\nSecond line.", len(h.app.windows)+1))
			w, err := h.app.AddWindow(fmt.Sprintf("Window %d", len(h.app.windows)+1), v)
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

// contents copies the simulation screen's cells on the UI goroutine, so that no frame is
// being drawn meanwhile.
func (h *harness) contents() ([]tcell.SimCell, int, int) {
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
	return s.cells, s.w, s.h
}

// text returns the screen's rows, trailing spaces removed.
func (h *harness) text() string {
	cells, w, hgt := h.contents()
	var b strings.Builder
	for y := 0; y < hgt; y++ {
		var row strings.Builder
		for x := 0; x < w; {
			c := cells[y*w+x]
			s := string(c.Runes)
			if s == "" {
				s = " "
			}
			row.WriteString(s)
			x += max(uniseg.StringWidth(s), 1)
		}
		b.WriteString(strings.TrimRight(row.String(), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// row returns row y of the screen.
func (h *harness) row(y int) string {
	return strings.Split(h.text(), "\n")[y]
}

// styleAt returns the style of the cell (x, y).
func (h *harness) styleAt(x, y int) tcell.Style {
	cells, w, _ := h.contents()
	return cells[y*w+x].Style
}

// styles returns a compact map of the screen's styles: one letter per cell, and a legend.
func (h *harness) styles() string {
	cells, w, hgt := h.contents()
	letters := "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	seen := map[tcell.Style]byte{}
	var order []tcell.Style
	var b strings.Builder
	for y := 0; y < hgt; y++ {
		for x := 0; x < w; x++ {
			st := cells[y*w+x].Style
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
		fmt.Fprintf(&b, "%c fg=%s bg=%s%s\n", seen[st], colorName(fg), colorName(bg), attrNames(attrs))
	}
	return b.String()
}

// colorName names a colour the same way each run (tcell's names come from a map).
func colorName(c tcell.Color) string {
	if !c.Valid() {
		return c.String()
	}
	return fmt.Sprintf("#%06x", c.Hex())
}

func attrNames(a tcell.AttrMask) string {
	var s string
	for _, x := range []struct {
		m    tcell.AttrMask
		name string
	}{{tcell.AttrBold, "bold"}, {tcell.AttrReverse, "reverse"}, {tcell.AttrUnderline, "underline"},
		{tcell.AttrDim, "dim"}, {tcell.AttrItalic, "italic"}, {tcell.AttrBlink, "blink"}} {
		if a&x.m != 0 {
			s += " " + x.name
		}
	}
	return s
}

// golden compares the screen (text and styles) with testdata/name.golden.
func (h *harness) golden(name string) {
	h.t.Helper()
	got := h.text() + "--- styles\n" + h.styles()
	path := filepath.Join("testdata", name+".golden")
	if *update {
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
		h.t.Errorf("screen differs from %s (run with -update to accept):\n%s", path, firstDiff(string(want), got))
	}
}

func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(wl), len(gl)); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\nwant %q\ngot  %q\n\nscreen now:\n%s", i+1, w, g, got)
		}
	}
	return ""
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
