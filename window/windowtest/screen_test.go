package windowtest_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/window"
	"git.rickub.com/bots-garden/sidekicks/window/windowtest"
)

// lineWidget draws one line of text in a class, as it is told.
type lineWidget struct {
	mu    sync.Mutex
	text  string
	class window.Class
}

func (w *lineWidget) Draw(r window.Region, focused bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	r.Line(0, w.text, w.class)
}

func (w *lineWidget) HandleEvent(window.Event) bool { return false }

func (w *lineWidget) set(text string, class window.Class) {
	w.mu.Lock()
	w.text, w.class = text, class
	w.mu.Unlock()
}

func start(t *testing.T, cfg windowtest.Config) (*windowtest.Harness, *lineWidget) {
	t.Helper()
	cfg.Width, cfg.Height = 40, 10
	cfg.Options.Now = windowtest.NewClock().Now
	h := windowtest.Start(t, cfg)
	w := &lineWidget{}
	h.Do(func() {
		if _, err := h.App.AddWindow("Line", w); err != nil {
			t.Fatal(err)
		}
	})
	return h, w
}

// TestWideCharacterSecondCell: the cell a wide character covers after its first holds no
// runes and the character's style in a frame, whatever an earlier frame left there.
func TestWideCharacterSecondCell(t *testing.T) {
	h, w := start(t, windowtest.Config{})
	h.Do(func() { w.set("abcd", window.ClassKeyword) })
	before := h.Idle()
	x, y, ok := before.Find("abcd")
	if !ok {
		t.Fatalf("no abcd on the screen:\n%s", before.Text())
	}
	h.Do(func() { w.set("a🔒d", window.ClassText) })
	f := h.Idle()
	if got := string(f.Cells[y*f.W+x+1].Runes); got != "🔒" {
		t.Fatalf("the lock is not where b was: %q\n%s", got, f.Text())
	}
	lead, second := f.Style(x+1, y), f.Style(x+2, y)
	if lead == before.Style(x+2, y) {
		t.Fatal("the classes' styles must differ for this test to mean anything")
	}
	if second != lead {
		t.Errorf("the lock's second cell has style %v, want the lock's %v", second, lead)
	}
	if r := f.Cells[y*f.W+x+2].Runes; len(r) != 0 {
		t.Errorf("the lock's second cell holds %q", string(r))
	}
	if !strings.Contains(f.Text(), "a🔒d") {
		t.Errorf("the row reads:\n%s", f.Text())
	}
}

// TestNoCopy: with NoCopy the frames are counted but not copied; Read still reads the
// screen.
func TestNoCopy(t *testing.T) {
	h, w := start(t, windowtest.Config{NoCopy: true})
	h.Do(func() { w.set("hello", window.ClassText) })
	f := h.Idle()
	if f.N == 0 || f.Cells != nil {
		t.Errorf("frame %d with %d cells, want a counted frame with no cells", f.N, len(f.Cells))
	}
	if got := h.Read().Text(); !strings.Contains(got, "hello") {
		t.Errorf("Read shows:\n%s", got)
	}
}

// TestNewScreenForAnAppBuiltElsewhere: a Screen made with NewScreen, given to an App the
// test runs itself (as the application's own tests do), starts at its size, and its frames
// can be waited for.
func TestNewScreenForAnAppBuiltElsewhere(t *testing.T) {
	scr := windowtest.NewScreen(windowtest.ScreenConfig{Width: 50, Height: 12})
	app, err := window.New(window.Options{Screen: scr, Now: windowtest.NewClock().Now})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- app.Run() }()
	t.Cleanup(func() {
		app.Quit()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	select {
	case <-scr.Started():
	case <-time.After(windowtest.Deadline):
		t.Fatal("the screen did not start")
	}
	app.Post(func() {
		if _, err := app.AddWindow("Elsewhere", &lineWidget{text: "built elsewhere"}); err != nil {
			t.Error(err)
		}
	})
	f := scr.Wait(t, windowtest.Deadline, "the window's text", func(f windowtest.Frame) bool {
		return strings.Contains(f.Text(), "built elsewhere")
	})
	if f.W != 50 || f.H != 12 {
		t.Errorf("a %d×%d frame, want 50×12", f.W, f.H)
	}
	if w, h := scr.Sim().Size(); w != 50 || h != 12 {
		t.Errorf("the simulation is %d×%d, want 50×12", w, h)
	}
}
