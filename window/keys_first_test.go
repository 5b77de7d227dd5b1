package window_test

import (
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
