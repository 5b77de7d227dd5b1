package window_test

import (
	"testing"
	"time"

	. "git.rickub.com/bots-garden/sidekicks/window"
	"git.rickub.com/bots-garden/sidekicks/window/windowtest"
)

// TestPastedKeysDrawNoFrame: the keys of a bracketed paste only build its text, so they ask
// for no frame of their own, however the terminal splits them into reads; the paste's start
// and its end each draw one. A frame per batch of pasted keys (drawn at once, as for a typed
// key) made a 1 MB paste in tmux cost thousands of full frames, and the key typed after it
// wait 13 s behind them.
func TestPastedKeysDrawNoFrame(t *testing.T) {
	h := newHarness(t, 200, 60)
	r := &recorder{fill: "x"}
	h.do(func() { _, _ = h.app.AddWindow("alice", r) })
	before := onUI(h, func() uint64 { return FramesDrawn(h.app) })
	const n = 200_000
	start := time.Now()
	h.Paste(windowtest.LongWord(n))
	h.sync()
	after := onUI(h, func() uint64 { return FramesDrawn(h.app) })
	elapsed := time.Since(start)
	got := r.got()
	if len(got) != 1 {
		t.Fatalf("the paste arrived as %d events", len(got))
	}
	if p, ok := got[0].(Paste); !ok || len(p.Text) != n {
		t.Fatalf("paste event %T of %d bytes, want %d", got[0], len(got[0].(Paste).Text), n)
	}
	// The paste's start, its end (with the sync after it) and onUI's own frame are drawn at
	// once; anything else waits for the frame rate's turn (60 a second).
	limit := 4 + uint64(elapsed/(time.Second/60))
	if frames := after - before; frames > limit {
		t.Errorf("a paste of %d characters drew %d frames in %v, want at most %d", n, frames, elapsed, limit)
	}
}
