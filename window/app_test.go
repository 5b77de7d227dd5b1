package window

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
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
	before := onUI(h, func() uint64 { return h.app.frames })
	start := time.Now()
	for i := 0; i < 200000; i++ {
		h.app.Invalidate()
	}
	h.sync()
	elapsed := time.Since(start)
	frames := onUI(h, func() uint64 { return h.app.frames }) - before
	// At most one frame per 1/60 s, plus the ones the test itself asks for.
	if limit := uint64(elapsed/frameInterval) + 4; frames > limit {
		t.Errorf("200000 Invalidate calls in %v made %d frames, more than %d", elapsed, frames, limit)
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
	<-app.ready
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
	<-app.ready
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
	case <-h.done:
		t.Fatal("Run returned before the agents stopped")
	default:
	}
	close(release)
	select {
	case err := <-h.done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
		h.done <- nil // for the cleanup
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return once the agents stopped")
	}
}

func TestQuitFromMenu(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.do(func() { h.app.SetMenus(sampleMenus(h.app)) })
	h.sim.InjectKey(tcell.KeyRune, 'x', tcell.ModAlt)
	select {
	case err := <-h.done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
		h.done <- nil
	case <-time.After(5 * time.Second):
		t.Fatal("Alt-X did not quit")
	}
}
