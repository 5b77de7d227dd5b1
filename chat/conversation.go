package chat

import (
	"math"
	"strings"
	"sync"
	"time"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/jobs"
	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// MaxTurnEntries is the most entries one agent may add in one turn (replies, thoughts, tool
// calls, plans, permission requests). Beyond it, what would make a new entry is dropped and
// counted in Stats.DroppedEntries, and one notice says so: an agent that alternates a
// million thought and message chunks, or announces a million tool calls, cannot grow the
// conversation without bound. Notices of Sidekicks itself are not counted.
const MaxTurnEntries = 10_000

// Options configure a Conversation.
type Options struct {
	// Now is the clock; time.Now when nil. It stamps entries and paces the saving of
	// streaming entries.
	Now func() time.Time
	// Lang is the language of the notices and placeholders the conversation writes itself.
	Lang i18n.Lang
	// Go starts the goroutine that hands entries to the sink (a panic guard); name names
	// it. It must return without waiting for fn, and not call the conversation: it is
	// called with the conversation's lock held. Nil starts it with a plain go statement.
	Go func(name string, fn func())
}

// Conversation is the list of entries of one window (an agent's or a channel's), the
// commands and usage its agents announced, and the state of their turns. It is safe for
// concurrent use: agents' reading goroutines apply updates through their AgentHandler while
// the screen copies entries out; every method holds the conversation's lock only briefly
// and calls nothing outside (the sink, the change callback, the permission asker) while
// holding it.
type Conversation struct {
	mu    sync.Mutex
	now   func() time.Time
	lang  i18n.Lang
	items []*item
	live  map[*item]struct{} // entries not yet done
	rev   uint64
	// said grows with rev when an entry is added or changes: what someone said, as
	// opposed to the state around it (commands, usage, a title, turns, entries read
	// back from the history).
	said   uint64
	seq    int64
	turn   int64
	agents map[string]*agentState

	onChange func()
	save     saver
	// released counts the entries Release let go, over the conversation's life.
	released int
}

// item is an entry with what the reducer needs to keep changing it.
type item struct {
	e Entry
	// buf holds the text of an entry that streams, so that appending a chunk costs the
	// chunk, not the text so far; e.Text is its String, which later appends never modify.
	buf      *strings.Builder
	agent    *agentState // the agent that feeds the entry; nil for the user's and notices
	lastSave time.Time
	savedRev uint64
	// handed is the Rev of the last copy the sink was given (Save returned): an entry
	// may leave memory (Release) only once its last Rev was handed over and written.
	handed uint64
	// For a tool call: what its content and its locations lost to the cap.
	contentLost, locLost int64
}

// New returns an empty conversation.
func New(opts Options) *Conversation {
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	return &Conversation{
		now:    now,
		lang:   opts.Lang,
		live:   make(map[*item]struct{}),
		agents: make(map[string]*agentState),
		save: saver{
			queued: make(map[int64]int),
			jobs:   jobs.New(jobs.Options{Name: "saves of a conversation", Go: opts.Go}),
		},
	}
}

// OnChange sets the function called after every change (outside the lock, on the goroutine
// that made the change). It must not block: the screen's merged redraw request.
func (c *Conversation) OnChange(f func()) {
	c.mu.Lock()
	c.onChange = f
	c.mu.Unlock()
}

// Len returns the number of entries.
func (c *Conversation) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items)
}

// Rev returns a number that grows whenever anything in the conversation changes (an entry,
// the commands, the usage, an agent's turn): a screen with nothing to redraw compares it.
func (c *Conversation) Rev() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.rev
}

// Said returns a number that grows whenever an entry is added or changes: what makes a
// window not in front unread. Entries read back from the history (Load) leave it as it is.
func (c *Conversation) Said() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.said
}

// Entry returns a copy of entry i (0 is the oldest), and false when there is none.
func (c *Conversation) Entry(i int) (Entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if i < 0 || i >= len(c.items) {
		return Entry{}, false
	}
	return c.items[i].e, true
}

// Entries returns copies of the entries from index from up to, not including, to; the
// range is clamped to the entries that exist.
func (c *Conversation) Entries(from, to int) []Entry {
	c.mu.Lock()
	defer c.mu.Unlock()
	from = max(from, 0)
	to = min(to, len(c.items))
	if from >= to {
		return nil
	}
	out := make([]Entry, to-from)
	for i := range out {
		out[i] = c.items[from+i].e
	}
	return out
}

// Snapshot returns a copy of every entry.
func (c *Conversation) Snapshot() []Entry {
	return c.Entries(0, math.MaxInt)
}

// AddNotice adds a notice of Sidekicks itself (an error, a restart…), already in the user's
// language; it is sanitized like everything else.
func (c *Conversation) AddNotice(text string) {
	c.mu.Lock()
	c.addNotice(nil, text)
	c.unlock(true)
}

// SessionRestarted adds the notice that marks where a new ACP session of an agent starts,
// when the agent could not resume the previous one.
func (c *Conversation) SessionRestarted(agent string) {
	c.mu.Lock()
	a := c.agent(agent)
	c.addNotice(a, catalogue.Text(c.lang, msgSessionRestarted, line(agent)))
	c.unlock(true)
}

// Load puts entries from history (the store) back, oldest first, before every entry the
// conversation holds (so it also serves to show an older page of history). Loaded entries
// are done, sanitized again (the database is a file like any other), and never saved again:
// nothing feeds them any more. One that was stored while it still streamed (Sidekicks
// stopped before its turn ended) is marked Interrupted. Those without a Seq get fresh ones; later entries are
// numbered after every Seq seen. Entry IDs are kept.
func (c *Conversation) Load(entries []Entry) {
	if len(entries) == 0 {
		return
	}
	c.mu.Lock()
	loaded := make([]*item, len(entries))
	for _, e := range entries {
		c.seq = max(c.seq, e.Seq)
	}
	for i, e := range entries {
		e = sanitizeEntry(e)
		e.Interrupted = !e.Done
		e.Done = true
		if e.Seq == 0 { // the store does not keep it: a fresh number, never used before
			c.seq++
			e.Seq = c.seq
		}
		c.turn = max(c.turn, e.Turn)
		c.rev++
		e.Rev = c.rev
		it := &item{e: e}
		it.savedRev, it.handed = e.Rev, e.Rev // what the history holds (Keeper.Kept says whether written)
		loaded[i] = it
	}
	c.items = append(loaded, c.items...)
	c.unlock(true)
}

// addItem appends a new entry. The caller fills the entry, then calls changed.
func (c *Conversation) addItem(kind EntryKind, a *agentState, now time.Time) *item {
	c.seq++
	c.said++
	it := &item{e: Entry{Seq: c.seq, Kind: kind, Created: now, Turn: c.turn}, agent: a}
	if a != nil {
		it.e.Turn = a.turn
	}
	c.items = append(c.items, it)
	c.live[it] = struct{}{}
	return it
}

// addNotice adds a notice, about agent a when a is not nil. Notices are done at once.
func (c *Conversation) addNotice(a *agentState, text string) *item {
	now := c.now()
	it := c.addItem(KindNotice, a, now)
	if a != nil {
		it.e.Author = a.name
	}
	c.setText(it, text)
	c.finish(it, now)
	return it
}

// setText replaces an entry's text, within the cap.
func (c *Conversation) setText(it *item, text string) {
	text = safetext.Text(text)
	it.buf = nil
	it.e.Lost = 0
	if len(text) > MaxEntryText {
		kept := clip(text, MaxEntryText)
		it.e.Lost = int64(len(text) - len(kept))
		text = strings.Clone(kept) // let the rest be freed
	}
	it.e.Text = text
}

// appendText adds sanitized text to a streaming entry, within the cap, and reports whether
// the entry changed.
func (it *item) appendText(text string) bool {
	if text == "" {
		return false
	}
	if room := MaxEntryText - len(it.e.Text); len(text) > room {
		kept := clip(text, room)
		it.e.Lost += int64(len(text) - len(kept))
		text = kept
	}
	if text != "" {
		if it.buf == nil {
			it.buf = new(strings.Builder)
			it.buf.Grow(max(2*(len(it.e.Text)+len(text)), 256))
			it.buf.WriteString(it.e.Text)
		}
		// Twice the room when full (Grow), where WriteString's append grows a long text by a
		// quarter: a 760 KB reply streamed a line at a time was copied about twenty times.
		// finish gives the spare room back.
		it.buf.Grow(len(text))
		it.buf.WriteString(text)
		it.e.Text = it.buf.String()
	}
	return true
}

// changed records that an entry changed: new revision, and a save when the entry is done
// or has not been saved for SaveInterval.
func (c *Conversation) changed(it *item, now time.Time) {
	c.rev++
	c.said++
	it.e.Rev = c.rev
	it.e.Updated = now
	if it.e.Done || now.Sub(it.lastSave) >= SaveInterval {
		c.queueSave(it, now)
	}
}

// finish marks an entry done: it stops streaming and is saved.
func (c *Conversation) finish(it *item, now time.Time) {
	if it.e.Done {
		return
	}
	it.e.Done = true
	delete(c.live, it)
	if it.buf != nil {
		if it.buf.Cap()-it.buf.Len() > it.buf.Len()/4+64 {
			it.e.Text = strings.Clone(it.e.Text) // give the spare capacity back
		}
		it.buf = nil
	}
	c.changed(it, now)
}

// unlock ends a change: it hands what the change queued to the save queue (whose goroutine
// saves it: the caller may be the UI goroutine, which does no I/O), releases the lock and
// calls the change callback, outside the lock.
func (c *Conversation) unlock(changed bool) {
	var notify func()
	if changed {
		notify = c.onChange
	}
	c.scheduleSaves()
	c.mu.Unlock()
	if notify != nil {
		notify()
	}
}

// sanitizeEntry sanitizes every text field of an entry that comes from outside.
func sanitizeEntry(e Entry) Entry {
	e.Author = line(e.Author)
	e.Text = safetext.Text(e.Text)
	if e.Tool != nil {
		t := *e.Tool
		t.ID, t.Title, t.Kind, t.Status = line(t.ID), line(t.Title), line(t.Kind), line(t.Status)
		t.Command = cutLine(t.Command, MaxCommandText)
		t.Content = append([]ToolContent(nil), t.Content...)
		for i := range t.Content {
			p := &t.Content[i]
			p.Type, p.Text, p.Path, p.NewText, p.TerminalID = line(p.Type), safetext.Text(p.Text), line(p.Path), safetext.Text(p.NewText), line(p.TerminalID)
			if p.Terminal != nil {
				term := *p.Terminal
				term.Output, term.Signal = safetext.Text(term.Output), line(term.Signal)
				p.Terminal = &term
			}
			if p.OldText != nil {
				old := safetext.Text(*p.OldText)
				p.OldText = &old
			}
		}
		t.Locations = append([]Location(nil), t.Locations...)
		for i := range t.Locations {
			t.Locations[i].Path = line(t.Locations[i].Path)
		}
		e.Tool = &t
	}
	if e.Plan != nil {
		plan := make([]PlanEntry, len(e.Plan))
		for i, p := range e.Plan {
			plan[i] = PlanEntry{Content: line(p.Content), Priority: line(p.Priority), Status: line(p.Status)}
		}
		e.Plan = plan
	}
	return e
}
