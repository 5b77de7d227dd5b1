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

// TurnMark records where an agent's turn is, for the history to tell, after Sidekicks was
// killed, a turn that ended from one that never did: Open when the turn begins, not Open
// when it ends (normally, cancelled, on an error).
type TurnMark struct {
	Agent   string
	Turn    int64
	Started time.Time // when the turn began; zero on a mark that closes it
	Open    bool
}

// TurnSink is a Sink that also keeps the agents' open turns. A conversation whose sink is
// one hands it each turn's marks in order with the entries (a turn's opening mark before
// its entries, its closing mark after its last ones), on the same goroutine as Save.
type TurnSink interface {
	Sink
	SaveTurn(m TurnMark)
}

// TurnReader is a Transcript that can say which turns its conversation left open: those
// whose closing mark never reached it because Sidekicks stopped in the middle.
type TurnReader interface {
	OpenTurns() ([]TurnMark, error)
}

// SaveState is what a history says about the saving of a conversation's entries.
type SaveState struct {
	// Failing is true from the moment an entry cannot be written until entries are
	// written again.
	Failing bool
	// Reason says why, in the user's words ("disk is full"), when Failing.
	Reason string
	// Lost counts the entries the history could not keep in memory while it failed:
	// they will not be saved unless they change again.
	Lost int
}

// SaveWatcher is a Sink that says when its entries cannot be saved and when they are
// again. A conversation whose sink is one shows each change as a notice, so that the
// window says that what follows is not on disk yet. The sink calls the function on any
// goroutine but never while the conversation calls it.
type SaveWatcher interface {
	Sink
	WatchSaves(func(SaveState))
}

// saver is what waits to be saved. Entries are queued under the conversation's lock, in
// the order of the changes, and saved outside it by jobs of the conversation's save queue,
// one at a time, so that saves reach the sink in order and nobody waits on the sink, least
// of all while holding the lock. A queued entry that changes again is replaced in place:
// the queue never holds the same entry twice.
type saver struct {
	sink   Sink
	turns  TurnSink // sink, when it keeps turn marks
	queue  []saveItem
	queued map[int64]int // Seq → index in queue
	// scheduled is set while a job that will take the queue waits in jobs.
	scheduled bool
	jobs      *jobs.Queue
}

// shrinkQueued is the backlog past which the map of queued entries is made anew rather than
// cleared once taken: a map keeps the room it grew to.
const shrinkQueued = 256

// saveItem is an entry or a turn mark waiting to be saved.
type saveItem struct {
	e    Entry
	it   *item // the entry's item, to record what was handed to the sink
	mark *TurnMark
}

// SetSink sets where entries are saved; nil stops saving. Set it before the conversation is
// used: of what changed before, only entries still streaming are saved (by their next
// changes, or by Flush). A TurnSink also gets the turns' marks.
func (c *Conversation) SetSink(s Sink) {
	c.mu.Lock()
	c.save.sink = s
	c.save.turns, _ = s.(TurnSink)
	c.mu.Unlock()
	if w, ok := s.(SaveWatcher); ok {
		w.WatchSaves(c.savesChanged)
	}
}

// savesChanged shows that the history stopped saving this conversation, or saves it
// again, as a notice: the notice is saved like any other once saving works, so the
// history also says where it was written late.
func (c *Conversation) savesChanged(st SaveState) {
	c.mu.Lock()
	switch {
	case st.Failing:
		c.addNotice(nil, persistText.Text(c.lang, pmsgNotSaved, line(st.Reason)))
	case st.Lost > 0:
		c.addNotice(nil, persistText.Text(c.lang, pmsgResumedLost, st.Lost))
	default:
		c.addNotice(nil, persistText.Text(c.lang, pmsgResumed))
	}
	c.unlock(true)
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
		c.save.queue[i].e = it.e
		return
	}
	c.save.queued[it.e.Seq] = len(c.save.queue)
	c.save.queue = append(c.save.queue, saveItem{e: it.e, it: it})
}

// queueMark queues a turn mark for a sink that keeps them. The caller holds the lock.
func (c *Conversation) queueMark(m TurnMark) {
	if c.save.turns == nil {
		return
	}
	c.save.queue = append(c.save.queue, saveItem{mark: &m})
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
	batch, sink, turns := c.save.queue, c.save.sink, c.save.turns
	if sink == nil {
		c.mu.Unlock()
		return
	}
	c.save.queue = nil
	if len(c.save.queued) > shrinkQueued { // a backlog grew it: a map does not shrink
		c.save.queued = make(map[int64]int)
	} else {
		clear(c.save.queued)
	}
	c.mu.Unlock()
	for _, s := range batch {
		if s.mark != nil {
			turns.SaveTurn(*s.mark)
		} else {
			sink.Save(s.e)
		}
	}
	c.mu.Lock()
	for _, s := range batch {
		if s.it != nil {
			s.it.handed = max(s.it.handed, s.e.Rev)
		}
	}
	c.mu.Unlock()
}

// Interrupted shows the turns the history says were left open (TurnReader): Sidekicks
// stopped before they ended. Each gets a notice, unless an entry of that turn loaded from
// the history is marked Interrupted already (its own line says it), and is closed, so that
// it is reported once. Call it after Load and SetSink.
func (c *Conversation) Interrupted(marks []TurnMark) {
	if len(marks) == 0 {
		return
	}
	c.mu.Lock()
	cut := map[TurnMark]bool{}
	for _, it := range c.items {
		if it.e.Interrupted {
			cut[TurnMark{Agent: it.e.Author, Turn: it.e.Turn}] = true
		}
	}
	marks = slices.Clone(marks)
	slices.SortFunc(marks, func(a, b TurnMark) int {
		return cmp.Or(cmp.Compare(a.Turn, b.Turn), cmp.Compare(a.Agent, b.Agent))
	})
	for _, m := range marks {
		if !cut[TurnMark{Agent: m.Agent, Turn: m.Turn}] {
			a := c.agent(m.Agent)
			if !a.busy {
				a.turn = m.Turn
			}
			c.addNotice(a, persistText.Text(c.lang, pmsgTurnInterrupted, line(m.Agent)))
		}
		c.queueMark(TurnMark{Agent: m.Agent, Turn: m.Turn})
	}
	c.unlock(true)
}

func bySeq(a, b *item) int {
	return cmp.Compare(a.e.Seq, b.e.Seq)
}
