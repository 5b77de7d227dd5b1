package convo

import (
	"fmt"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// TestSyncsBetweenFramesKeepWhatIsShown: a window lays out a flood between its frames (many
// Syncs, no Frame). The entries the last frame showed stay laid out meanwhile, however much
// the flood adds past the view's bound, so the next frame does not lay them out again: an
// entry on screen was parked after two Syncs, and the next frame laid it out whole (a reply
// of 760 KB: a frame of 60–70 ms, the key typed meanwhile waiting for it).
func TestSyncsBetweenFramesKeepWhatIsShown(t *testing.T) {
	c, h := conversation(t, 2000)
	v := New(c, Options{})
	v.keep = 512
	v.SetSize(100, 30)
	v.Sync()
	v.Frame()
	v.ScrollBy(-200) // the user reads above while a reply floods in below
	v.Sync()
	v.Frame()
	from, to := v.Shown()
	renders := func() (n int) {
		for i := from; i < to; i++ {
			if ev := v.ents[i]; ev != nil {
				n += ev.renders
			}
		}
		return n
	}
	before := renders()
	var line strings.Builder
	for i := range 40 {
		line.Reset()
		for j := range 50 {
			fmt.Fprintf(&line, "flood line %04d-%02d\n", i, j)
		}
		h.Chunk(chat.ChunkAgentMessage, line.String())
		v.Sync()
	}
	if v.held <= v.keep {
		t.Fatalf("the flood left %d lines and rows laid out, not past the bound %d: the test shows nothing", v.held, v.keep)
	}
	v.Frame()
	if f, tt := v.Shown(); f != from || tt != to {
		t.Fatalf("the frame shows entries [%d, %d), want those it showed before [%d, %d)", f, tt, from, to)
	}
	if got := renders(); got != before {
		t.Errorf("the entries on screen were rendered %d times more by the frame after the Syncs", got-before)
	}
}
