package store

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// WriterStatus is what a Writer says about saving (WriterOptions.Status).
type WriterStatus struct {
	// Failing is true while entries cannot be written; false once they are again.
	Failing bool
	// Err is why the last batch failed (nil once saving resumed); Problem says it to the
	// user.
	Err error
	// Convs are, when failing, the conversations that have entries waiting and were not
	// told before (the first report names every one, later ones the new ones); once saving
	// resumes, every conversation told while it failed.
	Convs []ConvID
	// Pending counts the entries waiting to be written, Lost those not kept because of
	// the bound (MaxPending) that no later save brought back.
	Pending, Lost int
}

// UnsavedError is Close's error when entries could not be written: their count, and why.
type UnsavedError struct {
	Entries int
	Err     error
}

func (e *UnsavedError) Error() string {
	return fmt.Sprintf("closing the history writer: %d entries not saved: %v", e.Entries, e.Err)
}

func (e *UnsavedError) Unwrap() error { return e.Err }

// failed records a failed batch and tells the conversations concerned, all of them the
// first time, the new ones after. Called on the writer's goroutine.
func (w *Writer) failed(err error) {
	w.mu.Lock()
	first := !w.failing
	w.failing = true
	st := w.statusLocked(err)
	w.mu.Unlock()
	if first || len(st.Convs) > 0 {
		w.tell(st)
	}
}

// tellMore tells the conversations that got entries waiting since the last report, while
// saving fails. Called on the writer's goroutine.
func (w *Writer) tellMore() {
	w.mu.Lock()
	st := w.statusLocked(w.lastErr)
	w.mu.Unlock()
	if len(st.Convs) > 0 {
		w.tell(st)
	}
}

// resumed says that saving works again, after it failed. Called on the writer's goroutine.
func (w *Writer) resumed() {
	w.mu.Lock()
	if !w.failing {
		w.mu.Unlock()
		return
	}
	w.failing = false
	convs := slices.Sorted(maps.Keys(w.told))
	clear(w.told)
	st := WriterStatus{Convs: convs, Pending: len(w.pending), Lost: len(w.dropped)}
	w.mu.Unlock()
	w.tell(st)
}

// statusLocked is the failing status with the conversations not told yet, now marked told.
// The caller holds the lock.
func (w *Writer) statusLocked(err error) WriterStatus {
	st := WriterStatus{Failing: true, Err: err, Pending: len(w.pending), Lost: len(w.dropped)}
	add := func(c ConvID) {
		if !w.told[c] {
			w.told[c] = true
			st.Convs = append(st.Convs, c)
		}
	}
	for _, r := range w.pending {
		add(r.conv)
	}
	for _, c := range w.dropped {
		add(c)
	}
	for k := range w.turns {
		add(k.conv)
	}
	slices.Sort(st.Convs)
	return st
}

func (w *Writer) tell(st WriterStatus) {
	if w.opts.Status != nil {
		w.opts.Status(st)
	}
}

// Unsaved counts the entries not written yet: waiting, or not kept past the bound.
func (w *Writer) Unsaved() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.unsaved()
}

// Pending returns the entries of conv waiting to be written, in id order: a conversation
// opened while saving fails shows them with what the database holds.
func (w *Writer) Pending(conv ConvID) []chat.Entry {
	w.mu.Lock()
	var out []chat.Entry
	for id, r := range w.inflight {
		if _, newer := w.pending[id]; !newer && r.conv == conv {
			out = append(out, r.entry())
		}
	}
	for _, r := range w.pending {
		if r.conv == conv {
			out = append(out, r.entry())
		}
	}
	w.mu.Unlock()
	slices.SortFunc(out, func(a, b chat.Entry) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// size is about what r takes in memory.
func (r *entryRow) size() int64 {
	return int64(len(r.kind)+len(r.author)+len(r.text)+len(r.tool.String)+len(r.plan.String)+len(r.extra)) + 128
}

// reopenConns closes the pool's idle connections: SQLite opens a file it cannot write
// read-only and keeps it so, so that a file made writable again (its immutable flag
// removed, its file system remounted) is written only by new connections.
func (s *Store) reopenConns() {
	s.db.SetMaxIdleConns(0)
	s.db.SetMaxIdleConns(maxConns)
}

// Written reports, for each id, whether the entry is written in the database as last
// saved: the writer holds no version of it still to write (waiting, in the batch being
// written, or not kept past MaxPending). An id never given to Save counts as written only if
// the database holds it: the caller asks about entries it saved or read. After Close nothing
// is, since a Save then writes nothing.
func (w *Writer) Written(ids []int64) []bool {
	out := make([]bool, len(ids))
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closing {
		return out
	}
	for i, id := range ids {
		_, pending := w.pending[id]
		_, inflight := w.inflight[id]
		_, lost := w.dropped[id]
		out[i] = id != 0 && !pending && !inflight && !lost
	}
	return out
}
