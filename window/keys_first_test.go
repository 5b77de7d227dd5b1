package window_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	. "git.rickub.com/bots-garden/sidekicks/window"
)

// keyCounter is a widget that notes, at its first frame after a key, how many of the
// posted functions had run.
type keyCounter struct {
	ran    *int
	keyed  bool
	drawn  bool
	atKey  int // posts run when the key was handled
	atDraw int // posts run when the first frame after it was drawn
}

func (c *keyCounter) Draw(r Region, focused bool) {
	if c.keyed && !c.drawn {
		c.drawn, c.atDraw = true, *c.ran
	}
}

func (c *keyCounter) HandleEvent(ev Event) bool {
	if _, ok := ev.(Key); ok && !c.keyed {
		c.keyed, c.atKey = true, *c.ran
		return true
	}
	return false
}

// TestKeyBeforeQueuedPosts checks the loop's order: a key that arrives while 10,000
// functions posted by other goroutines are queued is handled, and its frame drawn, after
// at most a few of them, not after all. Counted, not timed.
func TestKeyBeforeQueuedPosts(t *testing.T) {
	const posts = 10_000
	h := newHarness(t, 80, 24)
	ran := 0 // only the UI goroutine touches it
	c := &keyCounter{ran: &ran}
	h.do(func() {
		if _, err := h.app.AddWindow("Keys", c); err != nil {
			t.Fatal(err)
		}
	})
	// Hold the UI goroutine while the posts and the key queue up behind it.
	gate, held := make(chan struct{}), make(chan struct{})
	h.app.Post(func() { close(held); <-gate })
	<-held
	for i := 0; i < posts; i++ {
		h.app.Post(func() { ran++ })
	}
	h.sim.InjectKey(tcell.KeyRune, 'k', tcell.ModNone)
	deadline := time.Now().Add(10 * time.Second)
	for QueuedEvents(h.app) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the key never reached the loop's queue")
		}
		time.Sleep(time.Millisecond)
	}
	close(gate)
	h.sync()
	got := onUI(h, func() [3]int { return [3]int{ran, c.atKey, c.atDraw} })
	if got[0] != posts {
		t.Fatalf("%d of the %d posted functions ran", got[0], posts)
	}
	if !c.drawn {
		t.Fatal("no frame drawn after the key")
	}
	// The loop may run the one it is in when the key arrives, and tcell's own goroutine
	// may pass the key on a little late: a handful, never thousands.
	if got[1] > 10 || got[2] > 10 {
		t.Fatalf("the key was handled after %d and drawn after %d of the %d posted functions", got[1], got[2], posts)
	}
}

// keyInDraw is a widget whose Draw, once armed, has a key typed and waits until it is in
// the loop's queue: a key that arrives while a window lays out a flood.
type keyInDraw struct {
	t     *testing.T
	h     *harness
	armed bool
	fired bool
	// other is the window drawn after this one; atFire its frames when the key was typed.
	other  *drawCounter
	atFire int
}

func (w *keyInDraw) Draw(r Region, focused bool) {
	if !w.armed || w.fired {
		return
	}
	w.fired, w.atFire = true, w.other.draws
	w.h.sim.InjectKey(tcell.KeyRune, 'k', tcell.ModNone)
	deadline := time.Now().Add(10 * time.Second)
	for QueuedEvents(w.h.app) == 0 {
		if time.Now().After(deadline) {
			w.t.Error("the key never reached the loop's queue")
			return
		}
		time.Sleep(time.Millisecond) // tcell's goroutine passes the key on: nothing to wait on
	}
}

func (w *keyInDraw) HandleEvent(Event) bool { return false }

// drawCounter counts its frames, and notes the count when it gets a key (and closes got).
type drawCounter struct {
	draws, atKey int
	keyed        bool
	got          chan struct{}
}

func (c *drawCounter) Draw(r Region, focused bool) { c.draws++ }

func (c *drawCounter) HandleEvent(ev Event) bool {
	if _, ok := ev.(Key); ok && !c.keyed {
		c.keyed, c.atKey = true, c.draws
		close(c.got)
		return true
	}
	return false
}

// TestFrameGivesWayToAKey: a frame drawn for an agent's output stops, before the windows
// it has not painted yet and before anything is shown, when a key arrives meanwhile; the
// key is handled and a whole frame drawn for it. On the code before, the key waited for the
// other windows and tcell's writing (the second window was painted once more before it).
func TestFrameGivesWayToAKey(t *testing.T) {
	h := newHarness(t, 80, 24)
	second := &drawCounter{got: make(chan struct{})}
	first := &keyInDraw{t: t, h: h, other: second}
	h.do(func() {
		for _, w := range []Widget{first, second} {
			if _, err := h.app.AddWindow("W", w); err != nil {
				t.Fatal(err)
			}
		}
	})
	h.sync()
	h.app.Post(func() { first.armed = true }) // posted work: a frame that is not for input
	// Waited for without a barrier of the loop's: a frame someone waits for never gives way.
	select {
	case <-second.got:
	case <-time.After(10 * time.Second):
		t.Fatal("the key was never handled")
	}
	h.sync()
	got := onUI(h, func() [3]int { return [3]int{second.atKey, second.draws, first.atFire} })
	if got[0] != got[2] {
		t.Errorf("the second window was painted %d times between the key's arrival and its handling, want 0", got[0]-got[2])
	}
	if got[1] <= got[0] {
		t.Errorf("no frame painted the second window after the key (%d draws)", got[1])
	}
}

// keyTaker counts its frames and takes the keys it is given, but Esc; at each key it notes
// how many frames painted the window watched.
type keyTaker struct {
	draws, keys int
	watched     *keyTaker
	seen        []int
}

func (k *keyTaker) Draw(r Region, focused bool) {
	k.draws++
	r.Fill(ClassText)
	r.Text(0, 0, fmt.Sprintf("keys %d", k.keys), ClassText)
}

func (k *keyTaker) HandleEvent(ev Event) bool {
	if key, ok := ev.(Key); ok && !key.Is(Named(KeyEsc, 0)) {
		k.keys++
		if k.watched != nil {
			k.seen = append(k.seen, k.watched.draws)
		}
		return true
	}
	return false
}

// TestKeyPaintsOnlyTheFocusedWindow: a key the focused window takes paints that window
// alone; what may change any window (posted work, an Invalidate, a key the window does not
// take) paints them all. The screen always shows what a whole frame would.
func TestKeyPaintsOnlyTheFocusedWindow(t *testing.T) {
	h := newHarness(t, 80, 24)
	other := &keyTaker{}
	focused := &keyTaker{watched: other}
	h.do(func() {
		for _, w := range []Widget{other, focused} { // the last opened has the focus
			if _, err := h.app.AddWindow("W", w); err != nil {
				t.Fatal(err)
			}
		}
	})
	h.sync()
	// Two keys first: what the windows' opening left to do (a timer of the status bar) is
	// done by then.
	for i := 0; i < 6; i++ {
		h.sim.InjectKey(tcell.KeyRune, 'k', tcell.ModNone)
		h.sync()
	}
	seen := onUI(h, func() []int { return append([]int(nil), focused.seen...) })
	if len(seen) != 6 || seen[5] != seen[2] {
		t.Fatalf("the other window was painted %v times when each key came: the keys' frames painted it", seen)
	}
	if s := h.frame().Text(); !strings.Contains(s, "keys 6") {
		t.Fatalf("the focused window does not show its keys:\n%s", s)
	}
	// Each change between two keys: the other window's frames, noted at each key, tell
	// whether the change's frame painted it (read once at the end: reading on the UI
	// goroutine is posted work, which paints every window).
	changes := []struct {
		name string
		do   func()
	}{
		{"posted work", func() { h.app.Post(func() {}) }},
		{"a redraw asked", h.app.Invalidate},
		{"a key not taken", func() { h.sim.InjectKey(tcell.KeyEscape, 0, tcell.ModNone) }},
		{"nothing", func() {}},
	}
	h.sim.InjectKey(tcell.KeyRune, 'k', tcell.ModNone)
	h.sync()
	for _, c := range changes {
		c.do()
		h.sync()
		h.sim.InjectKey(tcell.KeyRune, 'k', tcell.ModNone)
		h.sync()
	}
	seen = onUI(h, func() []int { return append([]int(nil), focused.seen...) })
	seen = seen[len(seen)-len(changes)-1:]
	for i, c := range changes {
		painted := seen[i+1] - seen[i]
		if want := 1; c.name == "nothing" {
			if painted != 0 {
				t.Errorf("a key's frame and a barrier painted the other window %d times", painted)
			}
		} else if painted != want {
			t.Errorf("%s painted the other window %d times, want %d", c.name, painted, want)
		}
	}
}
