package agents

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"git.rickub.com/bots-garden/sidekicks/window"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// probeScreen is the simulation screen with a copy of each frame taken as it is shown,
// on the screen's goroutine, and a signal for the tests waiting on the next one.
type probeScreen struct {
	tcell.SimulationScreen
	mu     sync.Mutex
	frames uint64
	cells  []tcell.SimCell
	w, h   int
	next   chan struct{}
}

func (s *probeScreen) Show() { s.SimulationScreen.Show(); s.capture() }
func (s *probeScreen) Sync() { s.SimulationScreen.Sync(); s.capture() }

func (s *probeScreen) capture() {
	cells, w, h := s.SimulationScreen.GetContents()
	out := make([]tcell.SimCell, len(cells))
	for i, c := range cells {
		out[i] = tcell.SimCell{Style: c.Style, Runes: append([]rune(nil), c.Runes...)}
	}
	s.mu.Lock()
	s.frames++
	s.cells, s.w, s.h = out, w, h
	close(s.next)
	s.next = make(chan struct{})
	s.mu.Unlock()
}

// frame returns the last frame, its number, and a channel closed at the next one.
func (s *probeScreen) frame() (screenFrame, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return screenFrame{cells: s.cells, w: s.w, h: s.h, n: s.frames}, s.next
}

// screenFrame is one frame as shown.
type screenFrame struct {
	cells []tcell.SimCell
	w, h  int
	n     uint64
}

// text returns the frame's rows, trailing spaces removed.
func (f screenFrame) text() string {
	var b strings.Builder
	for y := 0; y < f.h; y++ {
		var row strings.Builder
		for x := 0; x < f.w; {
			s := string(f.cells[y*f.w+x].Runes)
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

// find returns the cell where s starts on the screen.
func (f screenFrame) find(s string) (x, y int, ok bool) {
	for y, row := range strings.Split(f.text(), "\n") {
		if i := strings.Index(row, s); i >= 0 {
			return uniseg.StringWidth(row[:i]), y, true
		}
	}
	return 0, 0, false
}

func (f screenFrame) style(x, y int) tcell.Style { return f.cells[y*f.w+x].Style }

// harness runs a window.App on the probe screen.
type harness struct {
	t    *testing.T
	scr  *probeScreen
	app  *window.App
	done chan error
}

func newHarness(t *testing.T, w, h int, lang window.Language) *harness {
	t.Helper()
	t.Setenv("LC_ALL", "C.UTF-8") // the marks are the Unicode ones whatever the test's locale
	scr := &probeScreen{SimulationScreen: tcell.NewSimulationScreen("UTF-8"), next: make(chan struct{})}
	app, err := window.New(window.Options{Screen: scr, Theme: window.SelectTheme("dark", true, false), Language: lang})
	if err != nil {
		t.Fatal(err)
	}
	hs := &harness{t: t, scr: scr, app: app, done: make(chan error, 1)}
	go func() { hs.done <- app.Run() }()
	t.Cleanup(func() {
		app.Quit()
		select {
		case err := <-hs.done:
			if err != nil {
				t.Errorf("the screen stopped on: %v", err)
			}
		case <-time.After(deadline):
			t.Error("Run did not return after Quit")
		}
	})
	hs.do(func() {}) // the loop draws its first frame when something wakes it
	scr.SetSize(w, h)
	scr.PostEventWait(tcell.NewEventResize(w, h))
	hs.waitFrame("the resize", func(f screenFrame) bool { return f.w == w && f.h == h })
	return hs
}

// waitFrame waits for a frame that satisfies ok, and returns it.
func (h *harness) waitFrame(what string, ok func(screenFrame) bool) screenFrame {
	h.t.Helper()
	timeout := time.After(deadline)
	for {
		f, next := h.scr.frame()
		if ok(f) {
			return f
		}
		select {
		case <-next:
		case <-timeout:
			h.t.Fatalf("waiting for %s; the screen is:\n%s", what, f.text())
		}
	}
}

// waitText waits until the screen shows every one of texts.
func (h *harness) waitText(texts ...string) screenFrame {
	h.t.Helper()
	return h.waitFrame(fmt.Sprintf("%q on the screen", texts), func(f screenFrame) bool {
		s := f.text()
		for _, t := range texts {
			if !strings.Contains(s, t) {
				return false
			}
		}
		return true
	})
}

// waitGone waits until the screen no longer shows text.
func (h *harness) waitGone(text string) screenFrame {
	h.t.Helper()
	return h.waitFrame(fmt.Sprintf("%q gone from the screen", text), func(f screenFrame) bool {
		return !strings.Contains(f.text(), text)
	})
}

// waitRow waits until a row of the screen holds every one of texts.
func (h *harness) waitRow(texts ...string) screenFrame {
	h.t.Helper()
	return h.waitFrame(fmt.Sprintf("a row with %q", texts), func(f screenFrame) bool {
		for _, row := range strings.Split(f.text(), "\n") {
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

// do runs f on the screen's goroutine and waits for the frame after it.
func (h *harness) do(f func()) {
	h.t.Helper()
	ran := make(chan uint64, 1)
	h.app.Post(func() {
		f()
		h.scr.mu.Lock()
		n := h.scr.frames
		h.scr.mu.Unlock()
		ran <- n
	})
	var n uint64
	select {
	case n = <-ran:
	case <-time.After(deadline):
		h.t.Fatal("posted work did not run")
	}
	h.waitFrame("the frame after posted work", func(f screenFrame) bool { return f.n > n })
}

// onUI reads a value on the screen's goroutine.
func onUI[T any](h *harness, f func() T) T {
	var v T
	h.do(func() { v = f() })
	return v
}

// key sends a key as the terminal would; it never drops one (PostEventWait waits for room).
func (h *harness) key(k tcell.Key, r rune, mod tcell.ModMask) {
	h.t.Helper()
	h.scr.PostEventWait(tcell.NewEventKey(k, r, mod))
}

func (h *harness) press(k tcell.Key) { h.key(k, 0, tcell.ModNone) }
func (h *harness) ctrl(r rune)       { h.key(tcell.KeyRune, r, tcell.ModCtrl) }
func (h *harness) typeText(s string) {
	for _, r := range s {
		h.key(tcell.KeyRune, r, tcell.ModNone)
	}
}

// paste sends a bracketed paste.
func (h *harness) paste(s string) {
	h.t.Helper()
	h.scr.PostEventWait(tcell.NewEventPaste(true))
	for _, r := range s {
		k := tcell.KeyRune
		if r == '\n' {
			k, r = tcell.KeyEnter, '\r'
		}
		h.key(k, r, tcell.ModNone)
	}
	h.scr.PostEventWait(tcell.NewEventPaste(false))
}

// golden compares the screen (text and styles) with testdata/name.golden.
func (h *harness) golden(name string, f screenFrame) {
	h.t.Helper()
	got := f.text() + "--- styles\n" + styleMap(f)
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
			var w, g string
			if i < len(wl) {
				w = wl[i]
			}
			if i < len(gl) {
				g = gl[i]
			}
			if w != g {
				h.t.Errorf("screen differs from %s at line %d (run with -update to accept):\nwant %q\ngot  %q\n\nscreen:\n%s", path, i+1, w, g, got)
				return
			}
		}
	}
}

// styleMap is one letter per cell for its style, and a legend.
func styleMap(f screenFrame) string {
	letters := "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	seen := map[tcell.Style]byte{}
	var order []tcell.Style
	var b strings.Builder
	for y := 0; y < f.h; y++ {
		for x := 0; x < f.w; x++ {
			st := f.style(x, y)
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
