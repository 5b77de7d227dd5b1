package chatwin

import "git.rickub.com/bots-garden/sidekicks/chat"

// What a window keeps of a long conversation: once the conversation holds more than
// holdEntries entries, those more than keepAbove entries above the first one shown (and above
// the cursor and the selection's start) leave memory, as far as the history has written them
// (chat.Conversation.Release). Scrolling up to the first entry held brings them back a page
// at a time from the history (loadOlder), as it does the history older than the window's
// opening. So the memory of a window does not grow with its conversation while the user reads
// its end.
const (
	holdEntries = 1000
	keepAbove   = chat.DefaultPageSize
)

// release lets the entries far above what the window shows leave the conversation and the
// view. It runs on the screen's goroutine before the view reads the conversation, and never
// while a page of history is being loaded: the view's entries are then the conversation's
// first ones, index for index.
func (w *Widget) release() {
	if w.conv == nil || w.view == nil || w.olderLoading || w.closed || w.view.Len() <= w.holdEntries() || w.find.readingOlder() {
		return
	}
	from, to := w.view.Shown()
	if to <= from {
		return
	}
	limit := from
	if !w.cur.atEnd {
		limit = min(limit, w.view.EntryOf(w.cur.at))
	}
	if w.cur.selOn {
		limit = min(limit, w.view.EntryOf(w.cur.sel))
	}
	n := limit - keepAbove
	if n <= 0 {
		return
	}
	if got := w.conv.Release(n, w.view.FirstSeq()); got > 0 {
		w.view.DropFront(got)
		w.olderDone = false // what left is read back from the history
	}
}

// holdEntries is the window's bound (Options.HoldEntries, holdEntries by default).
func (w *Widget) holdEntries() int {
	if w.opts.HoldEntries > 0 {
		return w.opts.HoldEntries
	}
	return holdEntries
}
