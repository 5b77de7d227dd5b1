package window_test

import (
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	. "git.rickub.com/bots-garden/sidekicks/window"
)

// TestBackgroundGivesWayToKeys checks the loop's order for work done in slices between
// frames (App.Background): the slices go on by themselves until the work says it is done,
// a key typed meanwhile is handled after the slice in progress, not after the rest of the
// work, and Idle waits for the work to end. Counted, not timed.
func TestBackgroundGivesWayToKeys(t *testing.T) {
	const slices = 2000
	h := newHarness(t, 80, 24)
	ran := 0 // only the UI goroutine touches it
	c := &keyCounter{ran: &ran}
	typed := make(chan struct{})
	h.do(func() {
		if _, err := h.app.AddWindow("Keys", c); err != nil {
			t.Fatal(err)
		}
		h.app.Background(func() bool {
			ran++
			if ran == 10 { // a key typed while the work goes on: in the queue before the next slice
				h.sim.InjectKey(tcell.KeyRune, 'k', tcell.ModNone)
				deadline := time.Now().Add(10 * time.Second)
				for QueuedEvents(h.app) == 0 && time.Now().Before(deadline) {
					time.Sleep(time.Millisecond) // tcell's goroutine passes the key on: nothing to wait on
				}
				close(typed)
			}
			return ran < slices
		})
	})
	<-typed
	select {
	case <-h.app.Idle():
	case <-time.After(10 * time.Second):
		t.Fatal("the loop never went idle")
	}
	got := onUI(h, func() [3]int { return [3]int{ran, c.atKey, c.atDraw} })
	if got[0] != slices {
		t.Fatalf("%d of the %d slices ran before the loop was idle", got[0], slices)
	}
	if !c.drawn {
		t.Fatal("no frame drawn after the key")
	}
	if got[1] > 12 || got[2] > 12 {
		t.Fatalf("the key typed at slice 10 was handled after slice %d and drawn after slice %d of %d", got[1], got[2], slices)
	}
}

// TestBackgroundRestsWhileTyping checks that while the user types, the loop rests between
// two slices of background work twice the time the slice took, leaving the CPUs to the keys
// (and to tmux, the agent): each slice here takes 2 ms, and the next starts at least 4 ms
// after it ended. A timer never fires early, so a slow machine only makes the gaps longer.
func TestBackgroundRestsWhileTyping(t *testing.T) {
	const slices = 4
	h := newHarness(t, 80, 24)
	h.sim.InjectKey(tcell.KeyRune, 'k', tcell.ModNone)
	h.sync()
	type slice struct {
		start, end time.Time
		typing     bool
	}
	var got []slice // only the UI goroutine touches it until Idle
	h.do(func() {
		h.app.Background(func() bool {
			s := slice{start: time.Now()}
			for time.Since(s.start) < 2*time.Millisecond { // a slice's work
			}
			s.end, s.typing = time.Now(), h.app.Typing()
			got = append(got, s)
			return len(got) < slices
		})
	})
	select {
	case <-h.app.Idle():
	case <-time.After(10 * time.Second):
		t.Fatal("the loop never went idle")
	}
	checked := 0
	for i := 1; i < len(got); i++ {
		if !got[i-1].typing {
			continue // the key is older than the typing window (a very slow machine)
		}
		checked++
		took := got[i-1].end.Sub(got[i-1].start)
		if gap := got[i].start.Sub(got[i-1].end); gap < 2*took {
			t.Errorf("slice %d began %v after slice %d ended, which took %v: want a rest of twice that", i, gap, i-1, took)
		}
	}
	if checked == 0 {
		t.Fatal("no slice ran while the user was typing")
	}
}
