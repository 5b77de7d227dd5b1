package chatwin

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// oneEntry is a conversation of one reply still streaming.
type oneEntry struct{ e chat.Entry }

func (o *oneEntry) Len() int    { return 1 }
func (o *oneEntry) Rev() uint64 { return o.e.Rev }
func (o *oneEntry) Entry(i int) (chat.Entry, bool) {
	return o.e, i == 0
}

// TestLayOutStopsAtItsTime checks that the window lays out new text a chunk at a time until
// a slice's time has passed, whatever the chunks cost: on a machine laying out a chunk in
// half a millisecond, a slice reads paceTime's worth of chunks; on one so busy that a chunk
// takes 10 ms, a slice stops after one chunk, where a slice sized from the frames before
// took 15 ms and more; and input waiting in the screen's queue stops a slice after its
// chunk.
func TestLayOutStopsAtItsTime(t *testing.T) {
	wd := newWorld(t, withSize(100, 30))
	wd.do(func() { wd.w.calls.Do(func() { _ = wd.svc.Send(chat.AgentKey("alice"), "/stream") }) })
	wd.started()
	t.Cleanup(func() { close(wd.agent.release) })
	var text strings.Builder
	for i := 0; text.Len() < 900<<10; i++ { // below an entry's cap
		fmt.Fprintf(&text, "flood line %07d\n", i)
	}
	const line = len("flood line 0000000\n")
	chunks := int(paceTime / (500 * time.Microsecond))
	// All on the screen's goroutine, so that no frame or background slice reads meanwhile.
	got := onUI(wd.harness, func() (n [3]int) {
		w := wd.w
		wd.agent.handler().Chunk(chat.ChunkAgentMessage, text.String())
		defer func() { w.pace.now = time.Now }()
		// slice runs one slice with a clock that moves by step at each look, and returns
		// the bytes of the reply it read.
		slice := func(step time.Duration, input bool) int {
			before := heldBytes(w.pace)
			clock := time.Unix(0, 0)
			w.pace.now = func() time.Time { clock = clock.Add(step); return clock }
			if input {
				_ = wd.harness.Screen.PostEvent(tcell.NewEventKey(tcell.KeyRune, 'x', 0))
				for limit := time.Now().Add(10 * time.Second); !wd.app.InputWaiting(); {
					if time.Now().After(limit) {
						t.Error("the key never reached the loop's queue")
						break
					}
					time.Sleep(time.Millisecond) // a goroutine passes the key on: nothing to wait on
				}
			}
			w.layOut(true)
			return heldBytes(w.pace) - before
		}
		return [3]int{slice(500*time.Microsecond, false), slice(10*time.Millisecond, false), slice(100*time.Microsecond, true)}
	})
	if n := got[0]; n < (chunks-1)*chunkBytes || n > (chunks+1)*(chunkBytes+line) {
		t.Errorf("a slice with chunks of 0.5 ms read %d bytes, want %d chunks of %d", n, chunks, chunkBytes)
	}
	if n := got[1]; n < chunkBytes || n > chunkBytes+line {
		t.Errorf("a slice whose first chunk took 10 ms read %d bytes, want one chunk (%d)", n, chunkBytes)
	}
	if n := got[2]; n < chunkBytes || n > chunkBytes+line {
		t.Errorf("a slice with a key waiting read %d bytes, want one chunk (%d)", n, chunkBytes)
	}
}

// heldBytes is how much of the text of the entries it holds back the pace gave the view.
func heldBytes(p *paced) int {
	n := 0
	for _, h := range p.held {
		n += h.released
	}
	return n
}

// TestLongLineReadInSlices: a long word (a line of 1 MiB with no newline, as minified code
// or base64 come) is read a slice per frame, cut at a character's start, not whole at the
// first frame that sees it: before, the slice went on to the end of the line, and a frame
// laid out all of the word that had arrived (9–20 ms, the key typed meanwhile waiting).
// A line that ends soon after the chunk's budget (within longLine) is still read to its end.
func TestLongLineReadInSlices(t *testing.T) {
	word := strings.Repeat("é"+strings.Repeat("QUJD", 40), (1<<20)/162)
	src := &oneEntry{e: chat.Entry{Kind: chat.KindAgent, Seq: 1, Rev: 1}}
	p := newPaced(src)
	p.frame(true)
	p.afterSync() // the window opens on an empty reply
	src.e.Text, src.e.Rev = word, 2
	released, frames := 0, 0
	for released < len(word) {
		p.frame(true)
		got, _ := p.Entry(0)
		if !strings.HasPrefix(word, got.Text) || !utf8.ValidString(got.Text) {
			t.Fatalf("frame %d was given %d bytes that are not a prefix of whole characters", frames, len(got.Text))
		}
		if n := len(got.Text) - released; n > chunkBytes {
			t.Fatalf("frame %d read %d bytes of the word, want at most a chunk (%d)", frames, n, chunkBytes)
		}
		released = len(got.Text)
		frames++
	}
	if frames < (1<<20)/chunkBytes {
		t.Errorf("the word was read in %d frames", frames)
	}
	// A line of 6 KiB whose end is within longLine of the chunk's end: read to its end.
	if end := sliceEnd(strings.Repeat("a", 6<<10)+"\nmore", 0, chunkBytes); end != 6<<10+1 {
		t.Errorf("a 6 KiB line was cut at %d, want its end %d", end, 6<<10+1)
	}
	// A longer one is cut where the budget ends.
	if end := sliceEnd(strings.Repeat("a", 10<<10)+"\nmore", 0, chunkBytes); end != chunkBytes {
		t.Errorf("a 10 KiB line was cut at %d, want the chunk's end %d", end, chunkBytes)
	}
	// What is left of the text within the budget: read whole.
	if end := sliceEnd("short line, not ended", 3, chunkBytes); end != len("short line, not ended") {
		t.Errorf("a short rest was cut at %d", end)
	}
}

// entries is a conversation of fixed entries.
type entries struct {
	es  []chat.Entry
	rev uint64
}

func (s *entries) Len() int    { return len(s.es) }
func (s *entries) Rev() uint64 { return s.rev }
func (s *entries) Entry(i int) (chat.Entry, bool) {
	if i < 0 || i >= len(s.es) {
		return chat.Entry{}, false
	}
	return s.es[i], true
}

// TestLongEntryThatCameWholeIsPaced: a long reply that ended between two frames (a flood's
// entries end one after the other) reaches the view a chunk at a time, as if it streamed,
// not whole: laid out whole, 760 KB took a frame of 50–100 ms. A short one, the entries
// there when the window opened, and older entries loaded in front of them (a page of the
// history) are read whole.
func TestLongEntryThatCameWholeIsPaced(t *testing.T) {
	long := strings.Repeat("flood line 0000000\n", 20_000)
	src := &entries{es: []chat.Entry{{Kind: chat.KindAgent, Seq: 10, Rev: 1, Text: long, Done: true}}, rev: 1}
	p := newPaced(src)
	p.frame(true)
	if e, _ := p.Entry(0); len(e.Text) != len(long) {
		t.Fatalf("the reply there when the window opened was given %d bytes, want all %d", len(e.Text), len(long))
	}
	p.afterSync()
	src.es = append(src.es, chat.Entry{Kind: chat.KindAgent, Seq: 11, Rev: 2, Text: "short\n", Done: true},
		chat.Entry{Kind: chat.KindAgent, Seq: 12, Rev: 3, Text: long, Done: true})
	src.rev = 3
	p.frame(true)
	if e, _ := p.Entry(1); e.Text != "short\n" || !e.Done {
		t.Errorf("a short reply that came whole was given as %q (done %v)", e.Text, e.Done)
	}
	if e, _ := p.Entry(2); len(e.Text) > chunkBytes+len("flood line 0000000\n") || e.Done {
		t.Errorf("a long reply that came whole was given %d bytes (done %v), want a chunk", len(e.Text), e.Done)
	}
	if !p.Behind() {
		t.Error("the pace is not behind with most of a long reply held back")
	}
	p.afterSync()
	// A page of older entries loaded in front: read whole.
	src.es = append([]chat.Entry{{Kind: chat.KindAgent, Seq: 5, Rev: 4, Text: long, Done: true}}, src.es...)
	src.rev = 4
	p.frame(true)
	if e, _ := p.Entry(0); len(e.Text) != len(long) || !e.Done {
		t.Errorf("an older entry loaded in front was given %d bytes (done %v), want all %d", len(e.Text), e.Done, len(long))
	}
}
