package chatwin

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// oneEntry is a conversation of one reply still streaming.
type oneEntry struct{ e chat.Entry }

func (o *oneEntry) Len() int    { return 1 }
func (o *oneEntry) Rev() uint64 { return o.e.Rev }
func (o *oneEntry) Entry(i int) (chat.Entry, bool) {
	return o.e, i == 0
}

// TestSliceFollowsLayoutTime checks that the new text a frame reads follows how long the
// last frames took to lay it out: after a frame that took 60 ms for its slice (a machine
// busy with other work), the next frames read a few KiB, so that a key waits for a short
// frame; once frames are fast again, the slices grow back to paceBytes.
func TestSliceFollowsLayoutTime(t *testing.T) {
	var text strings.Builder
	for i := 0; text.Len() < 1<<20; i++ {
		fmt.Fprintf(&text, "flood line %07d\n", i)
	}
	src := &oneEntry{e: chat.Entry{Kind: chat.KindAgent, Seq: 1, Rev: 1}}
	p := newPaced(src)
	p.frame(true)
	p.afterSync() // the window opens on an empty reply
	clock := time.Unix(0, 0)
	p.now = func() time.Time { return clock }
	src.e.Text, src.e.Rev = text.String(), 2
	released := 0
	// frame reads one frame's slice, the layout taking took, and returns its size.
	frame := func(took time.Duration) int {
		p.frame(true)
		e, _ := src.Entry(0)
		got, _ := p.Entry(0)
		if !strings.HasPrefix(e.Text, got.Text) {
			t.Fatal("the view was given text the entry does not start with")
		}
		clock = clock.Add(took)
		p.afterSync()
		n := len(got.Text) - released
		released = len(got.Text)
		return n
	}
	if n := frame(60 * time.Millisecond); n < paceBytes {
		t.Fatalf("the first frame read %d bytes, want %d", n, paceBytes)
	}
	slow := frame(60 * time.Millisecond)
	if slow < minPaceBytes || slow > 2*minPaceBytes {
		t.Fatalf("after a frame that took 60 ms for %d bytes, the next read %d bytes, want about %d", paceBytes, slow, minPaceBytes)
	}
	for i := 0; i < 20 && slow < paceBytes; i++ {
		slow = frame(100 * time.Microsecond)
	}
	if slow < paceBytes {
		t.Fatalf("frames fast again read %d bytes each, want %d", slow, paceBytes)
	}
}

// TestSliceShorterWhileTyping: while the user types, a frame lays out what the last frames
// laid out in typingPaceTime, not paceTime: the next key waits for less.
func TestSliceShorterWhileTyping(t *testing.T) {
	p := newPaced(&oneEntry{})
	p.perByte = float64(time.Millisecond) / (8 << 10) // 8 KiB laid out a ms
	idle := p.slice()
	p.typing = true
	typing := p.slice()
	if idle != 24<<10 || typing != 8<<10 {
		t.Fatalf("slices of %d bytes idle and %d typing, want %d and %d", idle, typing, 24<<10, 8<<10)
	}
}

// TestLongLineReadInSlices: a long word (a line of 1 MiB with no newline, as minified code
// or base64 come) is read a slice per frame, cut at a character's start, not whole at the
// first frame that sees it: before, the slice went on to the end of the line, and a frame
// laid out all of the word that had arrived (9–20 ms, the key typed meanwhile waiting).
// A line that ends soon after the slice's budget is still read to its end.
func TestLongLineReadInSlices(t *testing.T) {
	word := strings.Repeat("é"+strings.Repeat("QUJD", 40), (1<<20)/162)
	src := &oneEntry{e: chat.Entry{Kind: chat.KindAgent, Seq: 1, Rev: 1}}
	p := newPaced(src)
	p.frame(true)
	p.afterSync()                                     // the window opens on an empty reply
	p.perByte = float64(time.Millisecond) / (8 << 10) // 8 KiB laid out a ms: 24 KiB a slice
	src.e.Text, src.e.Rev = word, 2
	released, frames := 0, 0
	for released < len(word) {
		p.frame(true)
		got, _ := p.Entry(0)
		if !strings.HasPrefix(word, got.Text) || !utf8.ValidString(got.Text) {
			t.Fatalf("frame %d was given %d bytes that are not a prefix of whole characters", frames, len(got.Text))
		}
		if n := len(got.Text) - released; n > 24<<10 {
			t.Fatalf("frame %d read %d bytes of the word, want at most a slice (%d)", frames, n, 24<<10)
		}
		released = len(got.Text)
		frames++
	}
	if frames < (1<<20)/(24<<10) {
		t.Errorf("the word was read in %d frames", frames)
	}
	// A line of 40 KiB whose end is within longLine of the slice's end: read to its end.
	if end := sliceEnd(strings.Repeat("a", 40<<10)+"\nmore", 0, 24<<10); end != 40<<10+1 {
		t.Errorf("a 40 KiB line was cut at %d, want its end %d", end, 40<<10+1)
	}
	// What is left of the text within the budget: read whole.
	if end := sliceEnd("short line, not ended", 3, 24<<10); end != len("short line, not ended") {
		t.Errorf("a short rest was cut at %d", end)
	}
}
