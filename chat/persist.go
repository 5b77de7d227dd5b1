package chat

import (
	"cmp"
	"slices"
	"time"
)

// SaveInterval is the longest a changing entry goes without being saved: a streaming entry
// is handed to the sink again on the first change at least this long after its last save,
// so a crash loses at most about this much of it.
const SaveInterval = time.Second

// Sink persists entries (the store). Save is given a copy of an entry each time it should be
// written: when it is done (its turn ended, the agent started another entry, a tool call
// completed, a notice was added), and while it streams, at most every SaveInterval. The same
// entry (same Seq) arrives several times, always newest last: Save updates the row it wrote
// before. Save is called one call at a time per conversation, on a goroutine of the
// conversation's own that lives while there is something to save, so neither an agent's
// reading goroutine nor the UI goroutine ever waits for the store. A slow store delays only
// the saving: while it works, further changes of an entry replace its queued copy, so the
// queue holds at most one copy per entry. Save must not call Flush.
type Sink interface {
	Save(e Entry)
}

// saver is the queue of entries waiting to be saved. Entries are queued under the
// conversation's lock, in the order of the changes, and saved outside it by one goroutine at
// a time (started by the change that finds nobody saving), so that saves reach the sink in
// order and nobody waits on the sink, least of all while holding the lock. A queued entry
// that changes again is replaced in place: the queue never holds the same entry twice.
type saver struct {
	sink     Sink
	queue    []Entry
	queued   map[int64]int // Seq → index in queue
	draining bool
	drained  chan struct{} // closed when the current drainer stops
}

// SetSink sets where entries are saved; nil stops saving. Set it before the conversation is
// used: of what changed before, only entries still streaming are saved (by their next
// changes, or by Flush).
func (c *Conversation) SetSink(s Sink) {
	c.mu.Lock()
	c.save.sink = s
	c.mu.Unlock()
}

// Flush saves every entry that is still streaming and changed since it was last saved, and
// returns when everything queued so far has reached the sink (at quit, or before a store is
// closed).
func (c *Conversation) Flush() {
	c.mu.Lock()
	now := c.now()
	live := make([]*item, 0, len(c.live))
	for it := range c.live {
		live = append(live, it)
	}
	slices.SortFunc(live, bySeq)
	for _, it := range live {
		if it.e.Rev != it.savedRev {
			c.queueSave(it, now)
		}
	}
	c.unlock(false)
	c.waitSaves()
}

// waitSaves returns when everything queued so far has reached the sink.
func (c *Conversation) waitSaves() {
	for {
		c.mu.Lock()
		if !c.save.draining {
			if len(c.save.queue) == 0 || c.save.sink == nil {
				c.mu.Unlock()
				return
			}
			c.unlock(false) // starts a drainer, waited for below
			continue
		}
		wait := c.save.drained
		c.mu.Unlock()
		<-wait
	}
}

// queueSave queues a copy of an entry for the sink. The caller holds the lock.
func (c *Conversation) queueSave(it *item, now time.Time) {
	it.lastSave = now
	if c.save.sink == nil {
		return
	}
	it.savedRev = it.e.Rev
	if i, ok := c.save.queued[it.e.Seq]; ok {
		c.save.queue[i] = it.e
		return
	}
	c.save.queued[it.e.Seq] = len(c.save.queue)
	c.save.queue = append(c.save.queue, it.e)
}

// claim makes the caller the drainer when there is something to save and nobody saving; it
// returns the channel to close when done, or nil. The caller holds the lock.
func (s *saver) claim() chan struct{} {
	if len(s.queue) == 0 || s.draining || s.sink == nil {
		return nil
	}
	s.draining = true
	s.drained = make(chan struct{})
	return s.drained
}

// drain hands queued entries to the sink until the queue is empty. It runs on its own
// goroutine, without the lock.
func (c *Conversation) drain(done chan struct{}) {
	stopped := false
	stop := func() { // under the lock, so that a change queued after it finds nobody saving
		c.save.draining = false
		c.save.drained = nil
		stopped = true
	}
	defer func() {
		if !stopped { // the sink panicked: let the next change save again
			c.mu.Lock()
			stop()
			c.mu.Unlock()
		}
		close(done)
	}()
	for {
		c.mu.Lock()
		batch, sink := c.save.queue, c.save.sink
		if len(batch) == 0 || sink == nil {
			stop()
			c.mu.Unlock()
			return
		}
		c.save.queue = nil
		clear(c.save.queued)
		c.mu.Unlock()
		for _, e := range batch {
			sink.Save(e)
		}
	}
}

func bySeq(a, b *item) int {
	return cmp.Compare(a.e.Seq, b.e.Seq)
}
