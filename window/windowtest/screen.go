package windowtest

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"
)

// Screen is the screen given to the App: it says when the App has started it, counts its
// full redraws (Sync) and bells, and keeps a copy of each frame as it is shown, taken on the
// screen's goroutine, with a signal for those waiting on the next one. It is the one test
// screen of the window packages' harnesses; a test that builds its App itself (the
// application's own tests) makes one with NewScreen and gives it to the App.
type Screen struct {
	tcell.Screen
	sim           tcell.SimulationScreen // nil when the wrapped screen is not a simulation
	width, height int                    // the size set when the App starts the screen, if any
	noCopy        bool                   // count the frames shown but copy none (benchmarks)
	started       chan struct{}
	startOnce     sync.Once
	syncs         atomic.Int64
	synced        chan struct{}
	bells         atomic.Int64
	finished      atomic.Bool

	mu    sync.Mutex
	frame Frame
	next  chan struct{}
	// recent holds the last frames shown, oldest first (keptFrames at most): a wait that
	// wakes after several frames looks at each, not only at the last (Since).
	recent []Frame
}

// keptFrames is how many of the last frames a Screen keeps for Since.
const keptFrames = 16

// ScreenConfig says how to make a Screen.
type ScreenConfig struct {
	// Screen is the screen to wrap; nil for a new UTF-8 simulation screen.
	Screen tcell.Screen
	// Width and Height, when not zero, are the simulation screen's size as the App starts it
	// (tcell's simulation starts at 80×25).
	Width, Height int
	// NoCopy counts the frames shown but copies none of them: for benchmarks, which would
	// otherwise measure the copy of every cell of every frame too. Frames then hold only
	// their number, so waiting for a text never ends; Harness.Read still reads the screen.
	NoCopy bool
}

// NewScreen makes a Screen as cfg says. Give it to the App as its screen (window.Options
// or the application's own options); Start does so itself.
func NewScreen(cfg ScreenConfig) *Screen {
	screen := cfg.Screen
	if screen == nil {
		screen = tcell.NewSimulationScreen("UTF-8")
	}
	s := &Screen{Screen: screen, width: cfg.Width, height: cfg.Height, noCopy: cfg.NoCopy,
		started: make(chan struct{}), synced: make(chan struct{}, 1), next: make(chan struct{})}
	s.sim, _ = screen.(tcell.SimulationScreen)
	return s
}

// Sim returns the simulation screen the Screen wraps, nil if it wraps another kind.
func (s *Screen) Sim() tcell.SimulationScreen { return s.sim }

// Started returns a channel closed once the App has started the screen (Init).
func (s *Screen) Started() <-chan struct{} { return s.started }

// Init starts the wrapped screen, gives it its size, and says it has started.
func (s *Screen) Init() error {
	err := s.Screen.Init()
	if err == nil && s.sim != nil && s.width > 0 && s.height > 0 {
		s.sim.SetSize(s.width, s.height)
	}
	s.startOnce.Do(func() { close(s.started) })
	return err
}

// Show shows the frame and keeps a copy of it.
func (s *Screen) Show() {
	s.Screen.Show()
	s.capture()
}

// Sync redraws the whole screen, keeps a copy of it and counts it.
func (s *Screen) Sync() {
	s.Screen.Sync()
	s.capture()
	s.syncs.Add(1)
	select {
	case s.synced <- struct{}{}:
	default:
	}
}

// Fini restores the terminal, and says so (Finished).
func (s *Screen) Fini() {
	s.finished.Store(true)
	s.Screen.Fini()
}

// Finished says whether the App has restored the terminal (Fini).
func (s *Screen) Finished() bool { return s.finished.Load() }

// Beep counts the bell.
func (s *Screen) Beep() error {
	s.bells.Add(1)
	return nil
}

// Bells is the number of bells rung so far.
func (s *Screen) Bells() int64 { return s.bells.Load() }

func (s *Screen) capture() {
	var f Frame
	if s.sim != nil && !s.noCopy {
		f = contents(s.sim)
	}
	s.mu.Lock()
	f.N = s.frame.N + 1
	s.frame = f
	if !s.noCopy {
		if len(s.recent) == keptFrames {
			s.recent = append(s.recent[:0], s.recent[1:]...)
		}
		s.recent = append(s.recent, f)
	}
	close(s.next)
	s.next = make(chan struct{})
	s.mu.Unlock()
}

// Last returns the last frame shown and a channel closed when the next one is.
func (s *Screen) Last() (Frame, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.frame, s.next
}

// Since returns the frames shown after the one numbered n, oldest first (of the last
// keptFrames), and a channel closed when the next one is. A message shown for one frame,
// replaced by the next before a waiting test looked, is still seen.
func (s *Screen) Since(n uint64) ([]Frame, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Frame
	for _, f := range s.recent {
		if f.N > n {
			out = append(out, f)
		}
	}
	return out, s.next
}

// Wait waits, at most d, for a frame that satisfies ok, and returns it; past d it fails the
// test, showing the last frame.
func (s *Screen) Wait(t testing.TB, d time.Duration, what string, ok func(Frame) bool) Frame {
	t.Helper()
	timeout := time.NewTimer(d)
	defer timeout.Stop()
	for {
		f, next := s.Last()
		if ok(f) {
			return f
		}
		select {
		case <-next:
		case <-timeout.C:
			t.Fatalf("waiting for %s; the screen is:\n%s", what, f.Text())
		}
	}
}

// contents copies the cells of a simulation screen: call it where no frame is being drawn.
// The cells a wide character covers after its first are copied with no runes and its
// style: the simulation never draws them, so they hold whatever an earlier frame left.
func contents(sim tcell.SimulationScreen) Frame {
	cells, w, h := sim.GetContents()
	out := make([]tcell.SimCell, len(cells))
	for y := 0; y < h; y++ {
		for x := 0; x < w; {
			c := cells[y*w+x]
			out[y*w+x] = tcell.SimCell{Style: c.Style, Runes: append([]rune(nil), c.Runes...)}
			x++
			for n := uniseg.StringWidth(string(c.Runes)); n > 1 && x < w; n-- {
				out[y*w+x] = tcell.SimCell{Style: c.Style}
				x++
			}
		}
	}
	return Frame{Cells: out, W: w, H: h}
}

// Frame is a copy of the screen's cells. A wide character's first cell holds its runes
// and the cells it covers after it hold none, with the same style.
type Frame struct {
	Cells []tcell.SimCell
	W, H  int
	N     uint64 // the frame's number, from 1; 0 for a copy not taken as a frame was shown
}

// Text returns the frame's rows, each followed by a newline, trailing spaces removed.
func (f Frame) Text() string {
	var b strings.Builder
	for y := 0; y < f.H; y++ {
		var row strings.Builder
		for x := 0; x < f.W; {
			s := string(f.Cells[y*f.W+x].Runes)
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

// Rows returns the frame's rows, as Text splits them (the last one is empty).
func (f Frame) Rows() []string { return strings.Split(f.Text(), "\n") }

// Find returns the cell where s first starts on the screen.
func (f Frame) Find(s string) (x, y int, ok bool) {
	for y, row := range f.Rows() {
		if i := strings.Index(row, s); i >= 0 {
			return uniseg.StringWidth(row[:i]), y, true
		}
	}
	return 0, 0, false
}

// Style returns the style of the cell (x, y).
func (f Frame) Style(x, y int) tcell.Style { return f.Cells[y*f.W+x].Style }

// Styles returns one letter per cell, the same letter for the same style, and a legend.
func (f Frame) Styles() string {
	letters := "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	seen := map[tcell.Style]byte{}
	var order []tcell.Style
	var b strings.Builder
	for y := 0; y < f.H; y++ {
		for x := 0; x < f.W; x++ {
			st := f.Style(x, y)
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

// attrNames names the attributes of a style, each after a space; an attribute it has no
// name for is shown as a number.
func attrNames(a tcell.AttrMask) string {
	var s string
	for _, x := range []struct {
		m    tcell.AttrMask
		name string
	}{{tcell.AttrBold, "bold"}, {tcell.AttrReverse, "reverse"}, {tcell.AttrUnderline, "underline"},
		{tcell.AttrDim, "dim"}, {tcell.AttrItalic, "italic"}, {tcell.AttrBlink, "blink"},
		{tcell.AttrStrikeThrough, "strikethrough"}} {
		if a&x.m != 0 {
			s += " " + x.name
			a &^= x.m
		}
	}
	if a != 0 {
		s += fmt.Sprintf(" attrs=%d", a)
	}
	return s
}

// colorName names a colour the same way each run (tcell's names come from a map).
func colorName(c tcell.Color) string {
	if !c.Valid() {
		return c.String()
	}
	return fmt.Sprintf("#%06x", c.Hex())
}
