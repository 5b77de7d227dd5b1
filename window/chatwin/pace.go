package chatwin

import (
	"strings"
	"time"
	"unicode/utf8"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/window/convo"
)

// chunkBytes is the most new text of the conversation the view reads in one Sync, to the
// end of a line. The window lays out new text a chunk at a time, looking at the clock and
// at the input waiting between two (Widget.layOut), in a frame and between frames: a chunk
// is a fraction of a millisecond, and even on a machine so busy that laying out 32 KiB
// took 15–80 ms, a key typed meanwhile waits for one chunk at most.
const chunkBytes = 4 << 10

// paceTime is how long a frame, or a turn of the loop between frames, may spend laying out
// new text: chunks are read until it has passed, so that a key typed during a flood waits
// for one short slice at most, and the frames due are drawn on time.
const paceTime = 3 * time.Millisecond

// typingPaceTime is paceTime while the user types (window.App.Typing): the slices are cut
// shorter while keys come, and there are more of them between two keys.
const typingPaceTime = 1 * time.Millisecond

// ownRevs starts the revisions paced hands out for the entries it cuts, above any the
// conversation's own counter reaches, so that the two never meet.
const ownRevs = 1 << 62

// paced is the conversation as the view reads it: the text of entries that stream reaches
// the view a chunk at a time (chunkBytes), in order. Entries already done when the view first
// reads them (the history, pages of it loaded later, a short message that came whole) and
// what was there when the window opened are read whole: the view lays out only what is
// visible of them. A long entry that came whole after the window opened is paced as if it
// streamed. The window lays out the slices between frames too (Widget.catchUp). Only the
// UI goroutine uses it.
type paced struct {
	src     convo.Source
	synced  bool
	held    map[int64]*heldEntry // text entries still growing or not read whole yet, by Seq
	budget  int                  // bytes the view may still read in this Sync
	rev     uint64               // what Rev returns
	srcRev  uint64               // the conversation's Rev at the last frame
	nextRev uint64
	behind  bool  // some text was held back in this frame: another frame is needed
	lastSeq int64 // the newest entry the view was given: one after it came after the first frame

	now func() time.Time // the clock the window's slices of layout are measured with
}

// heldEntry is how much of one entry's text the view has been given.
type heldEntry struct {
	released int
	given    int    // released, when the view was last given a new Rev
	srcRev   uint64 // the entry's own Rev then
	rev      uint64 // the Rev the view was given for it
	done     bool   // the view was given the entry whole and done
}

func newPaced(src convo.Source) *paced {
	return &paced{src: src, held: map[int64]*heldEntry{}, nextRev: ownRevs, now: time.Now}
}

// frame starts a frame: the view may read a slice more (slice), or nothing new unless read
// is set.
func (p *paced) frame(read bool) {
	p.budget = 0
	if read {
		p.budget = chunkBytes
	}
	if r := p.src.Rev(); r != p.srcRev || p.behind || !p.synced {
		p.srcRev = r
		p.rev++
	}
	p.behind = false
}

// Behind reports whether the last Sync left text held back: the window asks for another
// frame.
func (p *paced) Behind() bool { return p.behind }

// Len is the conversation's.
func (p *paced) Len() int { return p.src.Len() }

// Rev changes at each frame where the conversation changed or text was held back.
func (p *paced) Rev() uint64 { return p.rev }

// Entry returns entry i as far as the view may read it in this frame.
func (p *paced) Entry(i int) (chat.Entry, bool) {
	e, ok := p.src.Entry(i)
	if !ok || !isPacedKind(e.Kind) {
		return e, ok
	}
	h := p.held[e.Seq]
	if h == nil {
		last := e.Seq > p.lastSeq
		p.lastSeq = max(p.lastSeq, e.Seq)
		if e.Done && (!p.synced || !last || len(e.Text) <= chunkBytes) {
			// History, a page of it loaded later, what was there when the window opened,
			// or a short message that came whole: read whole. A longer one that came whole
			// after the first frame (a reply that ended between two frames of a flood) is
			// paced as if it streamed: laid out whole, 1 MiB took a frame of 50–100 ms.
			return e, true
		}
		h = &heldEntry{}
		if !p.synced {
			h.released = len(e.Text) // streaming when the window opened
		}
		p.held[e.Seq] = h
	}
	if h.released > len(e.Text) { // never happens: the text of an entry only grows
		h.released = len(e.Text)
	}
	if h.released < len(e.Text) && p.budget > 0 {
		end := sliceEnd(e.Text, h.released, p.budget)
		p.budget -= min(end-h.released, p.budget)
		h.released = end
	}
	whole := h.released == len(e.Text)
	if whole && e.Done {
		delete(p.held, e.Seq)
		return e, true
	}
	if !whole {
		p.behind = true
	}
	// A new Rev only when the view has more to read: text held back that grew meanwhile
	// would make it read the same again.
	if h.rev == 0 || h.given != h.released || whole && h.srcRev != e.Rev {
		h.given, h.srcRev = h.released, e.Rev
		p.nextRev++
		h.rev = p.nextRev
	}
	e.Text, e.Rev, e.Done = e.Text[:h.released], h.rev, false
	return e, true
}

// sliceEnd is where a slice of text that starts at from and may read budget bytes ends: at
// the end of the line it reaches, so that a line is laid out in one piece, unless that line
// goes on for more than longLine bytes past the budget, or has not ended yet (a long word:
// minified code, base64, a JSON blob, still arriving). Such a line is cut where the budget
// ends, at a character's start: its layout
// goes on from its last rows at the next slice (the convo view wraps a line that grew from
// where it stopped), so a frame lays out its slice of it, not all of it that has arrived.
func sliceEnd(text string, from, budget int) int {
	end := min(from+budget, len(text))
	rest := text[end:]
	if nl := strings.IndexByte(rest[:min(len(rest), longLine)], '\n'); nl >= 0 {
		return end + nl + 1
	}
	for end < len(text) && end > from+1 && !utf8.RuneStart(text[end]) {
		end--
	}
	return end
}

// longLine is how far past a slice's budget the end of the line it reached is looked for:
// a line that goes on further is cut (sliceEnd).
const longLine = chunkBytes

// isPacedKind reports the kinds whose text streams: replies, thoughts, the user's messages.
// Tool calls, plans and notices are small and replaced whole.
func isPacedKind(k chat.EntryKind) bool {
	return k == chat.KindUser || k == chat.KindAgent || k == chat.KindThought
}

// afterSync ends a Sync's layout, and marks the end of the first frame (from then on, a
// new entry is paced).
func (p *paced) afterSync() { p.synced = true }
