package chat

// EntryRef names an entry a conversation handed to its sink: by Seq, and by its id in the
// history when the conversation knows it (an entry loaded from the history), 0 otherwise.
type EntryRef struct {
	Seq, ID int64
}

// Keeper is a Sink that can say which of the entries it was given are written in the
// history for good, so that a conversation may let them leave memory (Release) and read them
// again from there (Transcript.Before) when the user scrolls up to them.
type Keeper interface {
	Sink
	// Kept returns, for each entry, its id in the history when the last copy Save was
	// given of it is written there (committed), and 0 when it is not: waiting to be
	// written, failing to be, not kept past the writer's bound, or never given.
	Kept(refs []EntryRef) []int64
	// Forget says the conversation no longer holds these entries: the sink may forget
	// what it keeps for each (its id by Seq). A later Save of one of them carries its ID.
	Forget(refs []EntryRef)
}

// Release lets the first entries of the conversation, up to n, leave memory: those that
// are done, whose last change was handed to the sink and that the sink says are written
// (Keeper). It stops at the first entry that is not so, and always keeps the entry after
// the last one it lets go, so that the first entry held has its id in the history (where
// Transcript.Before reads the ones released, LoadOlder). first is the Seq of the entry the
// caller believes is the first one: when it is not (a page was loaded meanwhile), nothing
// is released. It returns how many entries left; the entries after them move down by as
// many indexes. Without a sink that is a Keeper (no history, or one that cannot tell),
// nothing ever leaves: an entry not written stays in memory.
//
// Release calls the sink outside the conversation's lock; an entry that changes meanwhile
// is kept. It looks at the first releaseProbe entries before the others: a window may call
// it at each frame while the history writes nothing, at a small cost.
func (c *Conversation) Release(n int, first int64) int {
	// A probe first: while the history writes nothing (saving fails), a window that asks at
	// each frame costs each frame releaseProbe entries, not all those it holds.
	probe := min(n, releaseProbe)
	got, next := c.release(probe, first)
	if got == probe && got < n {
		more, _ := c.release(n-got, next)
		got += more
	}
	return got
}

// releaseProbe is how many entries Release looks at before it looks at all it was asked.
const releaseProbe = 32

// release lets go of up to n entries from the first (whose Seq is first), and returns how
// many left and the Seq of the entry that is first now.
func (c *Conversation) release(n int, first int64) (int, int64) {
	c.mu.Lock()
	keeper, ok := c.save.sink.(Keeper)
	if !ok || n <= 0 || len(c.items) <= 1 || c.items[0].e.Seq != first {
		c.mu.Unlock()
		return 0, 0
	}
	n = min(n, len(c.items)-1)
	refs := make([]EntryRef, 0, n+1)
	revs := make([]uint64, 0, n+1)
	for _, it := range c.items[:n+1] {
		if !c.releasable(it) {
			break
		}
		refs = append(refs, EntryRef{Seq: it.e.Seq, ID: it.e.ID})
		revs = append(revs, it.e.Rev)
	}
	c.mu.Unlock()
	if len(refs) < 2 {
		return 0, 0
	}
	ids := keeper.Kept(refs)

	c.mu.Lock()
	if len(c.items) < len(refs) || c.items[0].e.Seq != first {
		c.mu.Unlock()
		return 0, 0
	}
	k := 0 // the entries [0, k) are written and unchanged
	for k < len(refs) && k < len(ids) {
		it := c.items[k]
		if ids[k] == 0 || it.e.Seq != refs[k].Seq || it.e.Rev != revs[k] || !c.releasable(it) {
			break
		}
		it.e.ID = ids[k] // a later change (a tool call's late update) updates the same row
		k++
	}
	drop := k - 1 // the last one written stays: its id is where the history is read back
	if drop <= 0 {
		c.mu.Unlock()
		return 0, 0
	}
	c.forgetTools(c.items[:drop])
	clear(c.items[:drop]) // the items go with the pointers to them
	c.items = c.items[drop:]
	if cap(c.items) > 4*len(c.items)+64 { // the room a backlog grew it to goes too
		c.items = append(make([]*item, 0, len(c.items)+len(c.items)/4), c.items...)
	}
	c.released += drop
	c.rev++
	next := c.items[0].e.Seq
	c.unlock(true)
	keeper.Forget(refs[:drop])
	return drop, next
}

// forgetTools drops the tool calls among items that ended (completed or failed) from their
// agents' tool calls by session and id, so that they leave memory with the items: a late
// update of one then makes a new entry, as for a tool call never announced. Those that did
// not end stay there, so that an update from their session still reaches them (and their row
// in the history); a tool_call of a later turn with the id does not (applyTool). The caller
// holds the lock.
func (c *Conversation) forgetTools(items []*item) {
	ended := make(map[*item]bool)
	for _, it := range items {
		if it.e.Kind == KindToolCall && it.e.Tool != nil && (it.e.Tool.Status == toolCompleted || it.e.Tool.Status == toolFailed) {
			ended[it] = true
		}
	}
	if len(ended) == 0 {
		return
	}
	for _, a := range c.agents {
		for key, it := range a.tools {
			if ended[it] {
				delete(a.tools, key)
			}
		}
	}
}

// releasable reports an entry that may leave memory, as far as the conversation knows:
// done, and its last change handed to the sink. The caller holds the lock.
func (c *Conversation) releasable(it *item) bool {
	if !it.e.Done || it.handed != it.e.Rev {
		return false
	}
	if _, live := c.live[it]; live {
		return false
	}
	_, queued := c.save.queued[it.e.Seq]
	return !queued
}

// Released returns how many entries Release let go over the conversation's life.
func (c *Conversation) Released() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.released
}
