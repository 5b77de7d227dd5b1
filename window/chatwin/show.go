package chatwin

import (
	"time"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/window/convo"
)

// EntryRef names an entry of the history for ShowEntry: its id in the store, and what
// tells it apart among the entries made in this run, which the conversation holds without
// their store ids (the history gives them to the entries it loads only).
type EntryRef struct {
	ID      int64
	Kind    chat.EntryKind
	Author  string
	Created time.Time
	// Match, when set, is text found in the entry (a word Search history marked): the
	// window is scrolled to its first line holding it, unfolded if need be, rather than to
	// the entry's start.
	Match string
}

// is reports whether e is the entry ref names.
func (ref EntryRef) is(e chat.Entry) bool {
	if e.ID != 0 {
		return e.ID == ref.ID
	}
	return e.Kind == ref.Kind && e.Author == ref.Author && e.Created.Equal(ref.Created)
}

// maxShowPages bounds the pages of older history ShowEntry loads looking for an entry (an
// entry deleted since it was found is looked for until the history ends, or this).
const maxShowPages = 100000

// ShowEntry shows the entry of the history ref names: the pages of older history are
// loaded until it is in memory, then the conversation is scrolled so that it starts at the
// top and the cursor is put on it (the keyboard goes to the conversation; Tab goes back to
// the input). done, if not nil, runs on the screen's goroutine with whether the entry was
// found. Call it on the screen's goroutine.
func (w *Widget) ShowEntry(id EntryRef, done func(found bool)) {
	if done == nil {
		done = func(bool) {}
	}
	w.showStep(id, 0, -1, done)
}

// showStep looks for the entry in the first span entries loaded (all when span < 0: a
// page just loaded is looked at alone), and loads the page before when it is not there
// (on the window's calls, then back on the screen's goroutine).
func (w *Widget) showStep(id EntryRef, pages, span int, done func(bool)) {
	switch {
	case w.closed || w.openErr:
		done(false)
		return
	case w.conv == nil:
		if pages > 0 {
			done(false)
			return
		}
		// The conversation is being opened on the window's calls: come back after it.
		w.calls.Do(func() { w.app.Post(func() { w.showStep(id, pages+1, span, done) }) })
		return
	}
	if w.scrollToEntry(id, span) {
		done(true)
		return
	}
	if pages >= maxShowPages {
		done(false)
		return
	}
	svc, key := w.svc, w.key
	w.calls.Do(func() {
		n, err := svc.LoadOlder(key)
		w.app.Post(func() {
			if err != nil {
				w.opts.Logf("loading older history of %s: %v", key, err)
			}
			if n == 0 || err != nil {
				w.olderDone = true            // as loadOlder: no more pages asked for
				done(w.scrollToEntry(id, -1)) // a page loaded meanwhile by scrolling may hold it
				return
			}
			w.showStep(id, pages+1, n, done)
		})
	})
}

// entryIndex returns the index of the entry id names among the first span entries (all
// when span < 0), -1 when it is not there.
func entryIndex(conv *chat.Conversation, id EntryRef, span int) int {
	n := conv.Len()
	if span >= 0 {
		n = min(n, span)
	}
	for i := n - 1; i >= 0; i-- {
		if e, ok := conv.Entry(i); ok && id.is(e) {
			return i
		}
	}
	return -1
}

// scrollToEntry scrolls to the entry id names, looked for among the first span entries
// (entryIndex), and puts the cursor on it; false when it is not there.
func (w *Widget) scrollToEntry(id EntryRef, span int) bool {
	if w.conv == nil || w.view == nil || w.closed {
		return false
	}
	i := entryIndex(w.conv, id, span)
	if i < 0 {
		return false
	}
	// The view reads the conversation through pace, which lets it see the pages just
	// loaded only at a frame's start: start one, as draw does.
	w.pace.frame(true)
	w.view.Sync()
	w.pace.afterSync()
	row, ok := w.view.ShowEntry(i)
	if !ok {
		return false
	}
	w.focus = areaConversation
	w.cur.atEnd = false
	w.cur.at = w.view.AnchorAt(row)
	if id.Match != "" {
		w.showMatch(i, id.Match)
	}
	w.app.Invalidate()
	return true
}

// showMatch moves the cursor to the first line of entry i that holds match, a third of the
// window below the top, unfolding the entry when its fold hides the line (as Find does);
// nothing changes when the entry does not hold it.
func (w *Widget) showMatch(i int, match string) {
	hits, _ := w.view.FindIn(i, convo.NewQuery(match), nil)
	if len(hits) == 0 {
		return
	}
	row, ok := w.view.RowOfHit(hits[0])
	if !ok {
		return
	}
	w.cur.at = w.view.AnchorAt(row)
	w.view.ScrollTo(max(row-w.convH/3, 0))
}
