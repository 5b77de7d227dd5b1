package chat

import (
	"cmp"
	"slices"
	"time"

	"git.rickub.com/bots-garden/sidekicks/jobs"
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

// saver is what waits to be saved. Entries are queued under the conversation's lock, in
// the order of the changes, and saved outside it by jobs of the conversation's save queue,
// one at a time, so that saves reach the sink in order and nobody waits on the sink, least
// of all while holding the lock. A queued entry that changes again is replaced in place:
// the queue never holds the same entry twice.
type saver struct {
	sink   Sink
	queue  []Entry
	queued map[int64]int // Seq → index in queue
	// scheduled is set while a job that will take the queue waits in jobs.
	scheduled bool
	jobs      *jobs.Queue
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

// waitSaves returns when everything queued so far has reached the sink: the save queue's
// barrier comes after the job that takes it.
func (c *Conversation) waitSaves() {
	c.mu.Lock()
	c.scheduleSaves()
	c.mu.Unlock()
	<-c.save.jobs.Idle()
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

// scheduleSaves gives the save queue a job that takes what waits to be saved, unless one
// waits already. The caller holds the lock (Do never waits): a waitSaves that comes after
// finds the job before its barrier.
func (c *Conversation) scheduleSaves() {
	s := &c.save
	if len(s.queue) == 0 || s.scheduled || s.sink == nil {
		return
	}
	s.scheduled = true
	s.jobs.Do(c.saveQueued)
}

// saveQueued hands what waits to be saved to the sink. It runs on the save queue's
// goroutine, without the lock; entries queued meanwhile make another job. If the sink
// panics, the rest of the batch is lost, and the next change saves again.
func (c *Conversation) saveQueued() {
	c.mu.Lock()
	c.save.scheduled = false
	batch, sink := c.save.queue, c.save.sink
	if sink == nil {
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

func bySeq(a, b *item) int {
	return cmp.Compare(a.e.Seq, b.e.Seq)
}
