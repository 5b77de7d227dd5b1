package window_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	. "git.rickub.com/bots-garden/sidekicks/window"
)

func TestPostRunsInOrderAndNeverBlocks(t *testing.T) {
	h := newHarness(t, 80, 24)
	release := make(chan struct{})
	blocked := make(chan struct{})
	h.app.Post(func() { close(blocked); <-release })
	<-blocked
	// The UI goroutine is busy: posting from several goroutines still returns at once.
	var got [4][]int
	var wg sync.WaitGroup
	for p := 0; p < 4; p++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 5000; i++ {
				h.app.Post(func() { got[p] = append(got[p], i) })
				h.app.Invalidate()
			}
		}()
	}
	posted := make(chan struct{})
	go func() { wg.Wait(); close(posted) }()
	select {
	case <-posted:
	case <-time.After(5 * time.Second):
		t.Fatal("Post blocked while the UI goroutine was busy")
	}
	close(release)
	h.sync()
	h.do(func() {})
	for p := range got {
		if len(got[p]) != 5000 {
			t.Fatalf("producer %d: %d of 5000 ran", p, len(got[p]))
		}
		for i, v := range got[p] {
			if v != i {
				t.Fatalf("producer %d: item %d ran as %d", p, i, v)
			}
		}
	}
}

func TestInvalidateMerges(t *testing.T) {
	h := newHarness(t, 80, 24)
	before := onUI(h, func() uint64 { return FramesDrawn(h.app) })
	start := time.Now()
	for i := 0; i < 200000; i++ {
		h.app.Invalidate()
	}
	h.sync()
	elapsed := time.Since(start)
	frames := onUI(h, func() uint64 { return FramesDrawn(h.app) }) - before
	// At most one frame per 1/60 s, plus the ones the test itself asks for.
	if limit := uint64(elapsed/FrameInterval) + 4; frames > limit {
		t.Errorf("200000 Invalidate calls in %v made %d frames, more than %d", elapsed, frames, limit)
	}
}

// stepWidget draws its step, then posts the next one until the last: each step waits for
// a frame. It remembers the last step it drew.
type stepWidget struct {
	recorder
	app         *App
	last        int
	mu          sync.Mutex
	step, drawn int
}

func (w *stepWidget) Draw(reg Region, focused bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	reg.Line(0, fmt.Sprintf("step %d", w.step), ClassText)
	w.drawn = w.step
	if w.step > 0 && w.step < w.last {
		next := w.step + 1
		w.app.Post(func() { w.set(next) })
	}
}

func (w *stepWidget) set(step int) {
	w.mu.Lock()
	w.step = step
	w.mu.Unlock()
}

func (w *stepWidget) lastDrawn() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.drawn
}

// TestIdleWaitsForChainedWorkAndItsFrame: Idle's channel is closed once the work that
// frames and posted work bring has all run, and the frame after it is shown; frames drawn
// with work still pending do not make the App idle.
func TestIdleWaitsForChainedWorkAndItsFrame(t *testing.T) {
	h := newHarness(t, 80, 24)
	w := &stepWidget{app: h.app, last: 10}
	h.do(func() {
		if _, err := h.app.AddWindow("Steps", w); err != nil {
			t.Fatal(err)
		}
	})
	h.app.Post(func() { w.set(1) })
	// A key too, so that the loop has an event to handle as well as the posted work.
	h.sim.InjectKey(tcell.KeyRune, 'k', tcell.ModNone)
	select {
	case <-h.app.Idle():
	case <-time.After(5 * time.Second):
		t.Fatal("the App did not become idle")
	}
	if got := w.lastDrawn(); got != w.last {
		t.Errorf("idle with step %d drawn last, want the last step, %d", got, w.last)
	}
	if n := len(w.got()); n != 1 {
		t.Errorf("the widget got %d events by the time the App was idle, want the key", n)
	}
}

type panicky struct{ recorder }

func (p *panicky) Draw(Region, bool) { panic("widget exploded") }

func TestPanicOnUIGoroutineRestoresTerminal(t *testing.T) {
	sim := tcell.NewSimulationScreen("UTF-8")
	app, err := New(Options{Screen: sim})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- app.Run() }()
	<-Ready(app)
	app.Post(func() { _, _ = app.AddWindow("boom", &panicky{}) })
	select {
	case err := <-done:
		if !errors.Is(err, ErrFailed) || !strings.Contains(err.Error(), "widget exploded") || !strings.Contains(err.Error(), "goroutine") {
			t.Fatalf("Run returned %v, want the panic with its stack", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after a panic")
	}
	if w, h := sim.Size(); w != 0 || h != 0 {
		t.Errorf("the screen was not finalised (size %dx%d)", w, h)
	}
}

func TestPanicInGuardedGoroutine(t *testing.T) {
	sim := tcell.NewSimulationScreen("UTF-8")
	app, err := New(Options{Screen: sim})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- app.Run() }()
	<-Ready(app)
	app.Go(func() { panic("reader exploded") })
	select {
	case err := <-done:
		if !errors.Is(err, ErrFailed) || !strings.Contains(err.Error(), "reader exploded") {
			t.Fatalf("Run returned %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after a goroutine's panic")
	}
}

func TestShutdownWaits(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.addWindows(1)
	release := make(chan struct{})
	reported := make(chan struct{})
	h.do(func() {
		h.app.Shutdown("Waiting for the agents to stop…", func(report func(string)) {
			report("alice: afterStop")
			close(reported)
			<-release
		})
	})
	<-reported
	h.do(func() {})
	if !strings.Contains(h.text(), "Waiting for the agents to stop…") || !strings.Contains(h.text(), "alice: afterStop") {
		t.Fatalf("no waiting box:\n%s", h.text())
	}
	h.golden("shutdown")
	// Keys do nothing meanwhile, Esc included.
	h.press(tcell.KeyEsc)
	h.alt('x')
	if dialogCount(h) != 1 {
		t.Fatal("the waiting box was closed by a key")
	}
	select {
	case <-h.Ended():
		t.Fatal("Run returned before the agents stopped")
	default:
	}
	close(release)
	select {
	case <-h.Ended():
		if err := h.Err(); err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return once the agents stopped")
	}
}

func TestQuitFromMenu(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.do(func() { h.app.SetMenus(SampleMenus(h.app)) })
	h.sim.InjectKey(tcell.KeyRune, 'x', tcell.ModAlt)
	select {
	case <-h.Ended():
		if err := h.Err(); err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Alt-X did not quit")
	}
}
