package chatwin

import (
	"strings"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/window/convo"
)

// paceBytes is how much new text of the conversation the view reads in one frame, to the
// end of a line. A frame lays out what it reads, so this bounds how long a frame holds the
// screen while an agent floods lines (a few ms on this project's 2-core machine): the keys
// typed meanwhile wait for one short frame at most. At 60 frames a second the view still takes in 2 MiB
// a second, far more than anyone reads; a faster agent is shown a little behind, and the
// window catches up as soon as it slows down.
const paceBytes = 32 << 10

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
	return &paced{src: src, held: map[int64]*heldEntry{}, nextRev: ownRevs}
}

// frame starts a frame: the view may read paceBytes more, or nothing new unless read is set.
func (p *paced) frame(read bool) {
	p.budget = 0
	if read {
		p.budget = paceBytes
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
		// A slice ends at the end of a line: the view reads the line still arriving again
		// whole at each step, so a long line is given whole, once, rather than re-read at
		// each slice of it.
		end := h.released + p.budget
		if nl := strings.IndexByte(e.Text[min(end, len(e.Text)):], '\n'); nl >= 0 {
			end += nl + 1
		} else {
			end = len(e.Text)
		}
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

// isPacedKind reports the kinds whose text streams: replies, thoughts, the user's messages.
// Tool calls, plans and notices are small and replaced whole.
func isPacedKind(k chat.EntryKind) bool {
	return k == chat.KindUser || k == chat.KindAgent || k == chat.KindThought
}

// synced marks the end of the first frame: from then on, a new entry is paced.
func (p *paced) afterSync() { p.synced = true }
