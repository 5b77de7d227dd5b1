package convo

// The view's part in letting a conversation's old entries leave memory: the window asks the
// conversation to release the entries far above what is shown (chat.Conversation.Release),
// then tells the view how many left with DropFront, in the same turn of the UI goroutine.
// When the user scrolls up to the first entry held, the window loads the page before it
// from the history (the view reads it as any page loaded before its first entry).

// FirstSeq returns the Seq of the first entry the view holds, 0 when it holds none: what
// chat.Conversation.Release checks is still the conversation's first entry.
func (v *View) FirstSeq() int64 {
	if len(v.ents) == 0 || v.ents[0] == nil {
		return 0
	}
	return v.ents[0].seq
}

// Len returns how many entries the view holds.
func (v *View) Len() int { return len(v.ents) }

// Shown returns the first entry the last frame showed (RowsAt), and the one after the last:
// 0, 0 when it showed none.
func (v *View) Shown() (from, to int) { return v.seenFrom, v.seenTo }

// EntryOf returns the index of the entry an anchor is in (clamped to those the view holds).
func (v *View) EntryOf(a Anchor) int {
	return min(max(a.id+v.origin, 0), max(len(v.ents)-1, 0))
}

// DropFront forgets the first n entries, which the Source no longer holds (they left it
// from its front: every other entry's index is n less). Anchors keep their place; rows are
// counted from the new first entry. The entry that is first now has its layout made again
// when it is needed (the first entry's head differs).
func (v *View) DropFront(n int) {
	n = min(n, len(v.ents))
	if n <= 0 {
		return
	}
	for _, ev := range v.ents[:n] {
		if ev != nil && ev.queued {
			v.held -= ev.held
			ev.held = 0
		}
	}
	// The queue keeps only the entries still held.
	gone := make(map[*entryView]bool, n)
	for _, ev := range v.ents[:n] {
		if ev != nil && ev.queued {
			gone[ev] = true
		}
	}
	q := v.queue[:0]
	for _, ev := range v.queue[v.qHead:] {
		if ev != nil && !gone[ev] {
			q = append(q, ev)
		}
	}
	clear(v.queue[len(q):])
	v.queue, v.qHead = q, 0

	k := copy(v.ents, v.ents[n:])
	clear(v.ents[k:])
	v.ents = v.ents[:k]
	counts := v.fw.vals[n:]
	if cap(v.ents) > 4*k+64 { // the room the entries dropped took goes with them
		v.ents = append(make([]*entryView, 0, k+k/4), v.ents...)
		counts = append(make([]int, 0, k+k/4), counts...)
		v.fw.vals = nil
	}
	v.fw.reset(counts)
	v.origin -= n
	v.live = shiftDown(v.live, n)
	v.mutable = shiftDown(v.mutable, n)
	v.sweep = 0
	v.seenFrom, v.seenTo = max(v.seenFrom-n, 0), max(v.seenTo-n, 0)
	v.stale = max(v.stale-n, 0)
	if len(v.ents) == 0 {
		return
	}
	switch ev := v.ents[0]; {
	case ev == nil: // never read: what sameStart compares must be known
		ev = &entryView{parked: true, done: true}
		if e, ok := v.src.Entry(0); ok {
			ev.seq, ev.rev, ev.kind, ev.author = e.Seq, e.Rev, e.Kind, e.Author
		}
		v.ents[0] = ev
	case !ev.parked && ev.done && !v.recent(ev):
		v.held -= ev.held
		ev.held = 0
		ev.park() // laid out again, as the first, when needed
	case !ev.parked:
		if e, ok := v.src.Entry(0); ok && e.Seq == ev.seq {
			ev.render(e, v.ctx(0))
			ev.rewrap(v.width)
			v.cut(ev)
			v.fw.set(0, len(ev.rows))
			v.laid(ev)
		}
	}
}

// shiftDown subtracts n from each index, dropping those that fall below 0.
func shiftDown(idx []int, n int) []int {
	out := idx[:0]
	for _, i := range idx {
		if i >= n {
			out = append(out, i-n)
		}
	}
	return out
}
