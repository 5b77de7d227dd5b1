package chatwin

import (
	"strings"
	"time"
	"unicode/utf8"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/window/convo"
)

// paceBytes is the most new text of the conversation the view reads in one frame, to the
// end of a line. A frame lays out what it reads, so this bounds the work of a frame while an
// agent floods lines. At 60 frames a second the view still takes in 2 MiB a second, far more
// than anyone reads; a faster agent is shown a little behind, and the window catches up as
// soon as it slows down.
const paceBytes = 32 << 10

// paceTime is how long a frame may spend laying out new text: the view reads as much as the
// last frames laid out in that time, between minPaceBytes and paceBytes. Bytes alone do not
// bound time: on a machine busy with other work, laying out 32 KiB took 30–80 ms, and a key
// typed meanwhile waited for it. A frame stays within a few ms whatever the machine's speed,
// so that a key typed during a flood waits for one short frame at most.
const paceTime = 3 * time.Millisecond

// typingPaceTime is paceTime while the user types (window.App.Typing): a key that arrives
// during a frame waits for the window being painted (the frame gives way to it before the
// next), so the slices are cut short while keys come. The flood is shown further behind
// meanwhile, and catches up at paceTime's pace once the typing stops.
const typingPaceTime = 1 * time.Millisecond

// minPaceBytes is the least new text a frame reads, however slow the last frames were: a
// flood is always shown moving on.
const minPaceBytes = 2 << 10

// minPaceMeasure is the least text a frame must have read for its time to count: the time
// of a few bytes is mostly the frame's fixed cost.
const minPaceMeasure = 1 << 10

// ownRevs starts the revisions paced hands out for the entries it cuts, above any the
// conversation's own counter reaches, so that the two never meet.
const ownRevs = 1 << 62

// paced is the conversation as the view reads it: the text of entries that stream reaches
// the view paceBytes at a time, in order. Entries already done when the view first reads
// them (the history, pages of it loaded later, a message that came whole) and what was
// there when the window opened are read whole: the view lays out only what is visible of
// them. Only the UI goroutine uses it.
type paced struct {
	src     convo.Source
	synced  bool
	held    map[int64]*heldEntry // text entries still growing or not read whole yet, by Seq
	budget  int                  // bytes the view may still read in this frame
	rev     uint64               // what Rev returns
	srcRev  uint64               // the conversation's Rev at the last frame
	nextRev uint64
	behind  bool // some text was held back in this frame: another frame is needed

	now     func() time.Time // the clock the layout's time is measured with
	typing  bool             // the user is typing: slices of typingPaceTime (set by the window)
	started time.Time        // when the frame's layout began (frame)
	read    int              // bytes of new text given to the view in this frame
	perByte float64          // ns the last frames took per byte of new text; 0 until measured
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
		p.budget = p.slice()
	}
	p.read, p.started = 0, p.now()
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
		if e.Done {
			return e, true // history, or a message that came whole: read whole
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
		p.read += end - h.released
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
const longLine = paceBytes

// isPacedKind reports the kinds whose text streams: replies, thoughts, the user's messages.
// Tool calls, plans and notices are small and replaced whole.
func isPacedKind(k chat.EntryKind) bool {
	return k == chat.KindUser || k == chat.KindAgent || k == chat.KindThought
}

// slice is how much new text the view may read in this frame: what the last frames laid
// out in paceTime, between minPaceBytes and paceBytes.
func (p *paced) slice() int {
	if p.perByte <= 0 {
		return paceBytes
	}
	budget := paceTime
	if p.typing {
		budget = typingPaceTime
	}
	return int(min(max(float64(budget)/p.perByte, minPaceBytes), paceBytes))
}

// afterSync ends the frame's layout: it measures how long the new text it read took, and
// marks the end of the first frame (from then on, a new entry is paced).
func (p *paced) afterSync() {
	if p.read >= minPaceMeasure {
		took := float64(p.now().Sub(p.started)) / float64(p.read)
		if p.perByte <= 0 {
			p.perByte = took
		} else {
			// Half the last frame, half those before: a frame slowed by the machine
			// shrinks the next slices at once, and a few fast ones bring them back.
			p.perByte = (p.perByte + took) / 2
		}
	}
	p.synced = true
}
