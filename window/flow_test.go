package window_test

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	. "git.rickub.com/bots-garden/sidekicks/window"
)

// streamer is a window that always has more of a stream to show, as an agent's window
// laying out a flood does: each frame drawn for what streams in shows the next step and
// asks for another (InvalidateFlow). It counts the frames that painted it, for a key
// (InputFrame) and not.
type streamer struct {
	app                *App
	steps              int
	flowDraws, keyDraw atomic.Int64
	// onFlow, when set, runs in a frame drawn for the stream, after the window is painted.
	onFlow func()
}

func (s *streamer) Draw(r Region, focused bool) {
	if s.app.InputFrame() {
		s.keyDraw.Add(1)
	} else {
		s.flowDraws.Add(1)
		s.steps++
	}
	r.Fill(ClassText)
	W, H := r.Size()
	for y := 0; y < H; y++ {
		r.Text(0, y, strings.Repeat(string(rune('a'+s.steps%26)), W), ClassText) // every cell changes
	}
	s.app.InvalidateFlow()
	if !s.app.InputFrame() && s.onFlow != nil {
		s.onFlow()
	}
}

func (s *streamer) HandleEvent(Event) bool { return false }

// typist takes every key and tells each on took.
type typist struct {
	keys int
	took chan int
}

func (k *typist) Draw(r Region, focused bool) {
	r.Fill(ClassText)
	r.Text(0, 0, fmt.Sprintf("keys %d", k.keys), ClassText)
}

func (k *typist) HandleEvent(ev Event) bool {
	if _, ok := ev.(Key); ok {
		k.keys++
		select {
		case k.took <- k.keys:
		default:
		}
		return true
	}
	return false
}

// TestStreamMovesWhileKeysCome: keys typed one after the other, faster than the frame
// rate, neither hold a streaming window still nor paint it. On the code before, each key's
// frame put off the stream's next frame, so that no frame showed the stream while the
// keys came (a flood's window stood still for minutes under the responsiveness script's
// keys), and each key's frame painted the streaming window again, since what streams in
// counted as a change to every window.
func TestStreamMovesWhileKeysCome(t *testing.T) {
	h := newHarness(t, 120, 30)
	s := &streamer{app: h.app}
	k := &typist{took: make(chan int, 1)}
	h.do(func() {
		for _, w := range []Widget{s, k} { // the last opened has the focus
			if _, err := h.app.AddWindow("W", w); err != nil {
				t.Fatal(err)
			}
		}
	})
	before := s.flowDraws.Load()
	s.keyDraw.Store(0)
	const typing = 600 * time.Millisecond
	end := time.Now().Add(typing)
	keys := 0
	for time.Now().Before(end) {
		h.sim.InjectKey(tcell.KeyRune, 'k', tcell.ModNone)
		keys++
		select {
		case <-k.took:
		case <-time.After(10 * time.Second):
			t.Fatalf("key %d was never taken", keys)
		}
	}
	flows, keyed := s.flowDraws.Load()-before, s.keyDraw.Load()
	// 20 frames a second for the stream while the user types: about 12 in 600 ms; the
	// keys came about one a millisecond, far faster than any frame rate.
	if flows < 4 {
		t.Errorf("the streaming window was shown moving on %d times while %d keys came in %v", flows, keys, typing)
	}
	if keyed != 0 {
		t.Errorf("the keys' frames painted the streaming window %d times (%d keys)", keyed, keys)
	}
	// Once the keys stop, the stream goes back to its own pace: 60 frames a second.
	atStop := s.flowDraws.Load()
	deadline := time.Now().Add(10 * time.Second)
	for s.flowDraws.Load() < atStop+20 {
		if time.Now().After(deadline) {
			t.Fatalf("the stream was shown %d times in 10 s after the keys stopped", s.flowDraws.Load()-atStop)
		}
		time.Sleep(time.Millisecond) // frames come on their own: nothing to wait on
	}
}

// TestKeyFrameCarriesNoFlood: a frame drawn for a stream that gives way to a key after
// painting the streaming window does not have that window's cells sent with the key's
// frame: the key's frame sends its own window's change, and the streaming window's new
// cells reach the terminal with the next frame drawn for the stream. On the code before,
// the key's frame was a whole frame that sent the whole streaming window first.
func TestKeyFrameCarriesNoFlood(t *testing.T) {
	h := newHarness(t, 120, 30)
	s := &streamer{app: h.app}
	k := &typist{took: make(chan int, 1)}
	var armed atomic.Bool
	s.onFlow = func() {
		if !armed.CompareAndSwap(true, false) {
			return
		}
		// A key arrives while the stream's frame is painted: it waits in the loop's queue.
		h.sim.InjectKey(tcell.KeyRune, 'k', tcell.ModNone)
		deadline := time.Now().Add(10 * time.Second)
		for QueuedEvents(h.app) == 0 {
			if time.Now().After(deadline) {
				t.Error("the key never reached the loop's queue")
				return
			}
			time.Sleep(time.Millisecond) // tcell's goroutine passes the key on: nothing to wait on
		}
	}
	var sent []int // cells sent by each frame once armed, on the UI goroutine
	var tracing atomic.Bool
	h.do(func() {
		for _, w := range []Widget{s, k} {
			if _, err := h.app.AddWindow("W", w); err != nil {
				t.Fatal(err)
			}
		}
		FrameTrace = func(phase FramePhase, n int) {
			if phase == FrameFlushed && tracing.Load() {
				sent = append(sent, n)
			}
		}
	})
	t.Cleanup(func() { h.do(func() { FrameTrace = nil }) })
	tracing.Store(true)
	armed.Store(true)
	select {
	case <-k.took:
	case <-time.After(10 * time.Second):
		t.Fatal("the key was never taken")
	}
	stepAtKey := onUI(h, func() int { return s.steps })
	// The frames after it show the stream on.
	deadline := time.Now().Add(10 * time.Second)
	for onUI(h, func() int { return s.steps }) < stepAtKey+2 {
		if time.Now().After(deadline) {
			t.Fatal("the stream was not shown again after the key")
		}
	}
	tracing.Store(false)
	got := onUI(h, func() []int { return append([]int(nil), sent...) })
	if len(got) == 0 {
		t.Fatal("no frame was drawn after the key")
	}
	// The first frame drawn once armed is the key's (the stream's gave way before being
	// shown): its window's "keys 1" and the bars, not the 60×28 cells of the stream.
	if got[0] > 200 {
		t.Errorf("the key's frame sent %d cells (all sent since: %v): the stream's window came with it", got[0], got)
	}
	streamed := false
	for _, n := range got[1:] {
		streamed = streamed || n >= 50*20
	}
	if !streamed {
		t.Errorf("no frame after the key's sent the stream's window (cells sent: %v)", got)
	}
}
