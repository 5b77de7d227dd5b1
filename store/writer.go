package store

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/guard"
)

// Writer saves entries off the caller's goroutine: Save hands an entry over and returns at
// once; one goroutine writes whatever is pending in one transaction, then the next batch.
// An entry saved again before it was written is written once, as last saved, so what is
// waiting is at most one row per live entry, however fast the entries are saved.
//
// A batch that fails is kept and tried again with the next one; Flush and Close report it.
type Writer struct {
	s *Store

	mu   sync.Mutex
	cond *sync.Cond // signalled when a batch ends or the writer stops
	// pending holds the rows waiting to be written, by entry id; turns the turn marks, the
	// last one of each agent in each conversation.
	pending map[int64]entryRow
	turns   map[turnKey]chat.TurnMark
	// queued counts the calls to Save; written is the count covered by the last batch
	// written.
	queued, written uint64
	failures        uint64 // batches that failed
	lastErr         error  // nil when the last batch was written
	closing         bool
	stopped         bool

	wake chan struct{} // capacity 1: a batch is waiting
	quit chan struct{} // closed by Close
	done chan struct{} // closed when the goroutine has ended
}

// WriterOptions configures a Writer; the zero value is usable.
type WriterOptions struct {
	// Go starts the writing goroutine ("store writer"). Nil starts it with a plain go
	// statement; the application passes a guard that restores the terminal and logs a
	// panic.
	Go guard.Go
}

// NewWriter starts a writer on s with the default options (NewWriterWith). Close it
// before closing s.
func NewWriter(s *Store) *Writer { return NewWriterWith(s, WriterOptions{}) }

// NewWriterWith starts a writer on s. Close it before closing s.
func NewWriterWith(s *Store, opts WriterOptions) *Writer {
	w := &Writer{
		s:       s,
		pending: map[int64]entryRow{},
		turns:   map[turnKey]chat.TurnMark{},
		wake:    make(chan struct{}, 1),
		quit:    make(chan struct{}),
		done:    make(chan struct{}),
	}
	w.cond = sync.NewCond(&w.mu)
	opts.Go.Start("store writer", w.run)
	return w
}

// Save hands an entry of conv over to be written, and returns its id: e.ID, or a new id
// when e.ID is 0, which the caller keeps in its entry so that the next Save of the same
// entry updates it. Entries are ordered by id in their conversation, so an entry keeps the
// place it had when first saved. Save encodes the entry before returning: the caller may
// change it afterwards. It never waits for the database.
//
// An entry whose conversation is deleted before it is written is dropped.
func (w *Writer) Save(conv ConvID, e chat.Entry) int64 {
	if e.ID == 0 {
		e.ID = w.s.newEntryID()
	}
	r := encodeEntry(conv, e)
	w.mu.Lock()
	if w.closing {
		w.lastErr = fmt.Errorf("saving entry %d of conversation %d: %w", e.ID, conv, ErrClosed)
		w.failures++
		w.mu.Unlock()
		return e.ID
	}
	w.pending[e.ID] = r
	w.queued++
	w.mu.Unlock()
	w.signal()
	return e.ID
}

// SaveTurn hands a turn mark of conv over to be written with the entries: an open turn is
// recorded, a closed one forgotten. Like Save, it never waits for the database; marks and
// entries handed over before a batch are written in the same transaction.
func (w *Writer) SaveTurn(conv ConvID, m chat.TurnMark) {
	w.mu.Lock()
	if w.closing {
		w.lastErr = fmt.Errorf("saving a turn of conversation %d: %w", conv, ErrClosed)
		w.failures++
		w.mu.Unlock()
		return
	}
	w.turns[turnKey{conv, m.Agent}] = m
	w.queued++
	w.mu.Unlock()
	w.signal()
}

// signal wakes the writing goroutine without waiting.
func (w *Writer) signal() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Flush waits until every entry saved before the call is written (committed: it survives a
// crash of the process), and returns the error of a batch that failed meanwhile.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	target, failures := w.queued, w.failures
	w.signal()
	for w.written < target && w.failures == failures && !w.stopped {
		w.cond.Wait()
	}
	if w.written >= target {
		return nil
	}
	if w.lastErr == nil {
		return fmt.Errorf("flushing the history writer: %w", ErrClosed)
	}
	return w.lastErr
}

// Err returns the error of the last batch when it failed, nil when it was written.
func (w *Writer) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.lastErr
}

// Close writes what is pending, stops the writer and returns the error of that last batch.
// Saving after Close writes nothing.
func (w *Writer) Close() error {
	w.mu.Lock()
	already := w.closing
	w.closing = true
	w.mu.Unlock()
	if !already {
		close(w.quit)
	}
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.pending) > 0 {
		return fmt.Errorf("closing the history writer: %d entries not saved: %w", len(w.pending), w.lastErr)
	}
	return nil
}

// run writes batches until Close, then the last one.
func (w *Writer) run() {
	defer func() {
		w.mu.Lock()
		w.stopped = true
		w.cond.Broadcast()
		w.mu.Unlock()
		close(w.done)
	}()
	for {
		select {
		case <-w.wake:
			w.writeBatch()
		case <-w.quit:
			w.writeBatch()
			return
		}
	}
}

// writeBatch writes everything pending in one transaction, in id order.
func (w *Writer) writeBatch() {
	w.mu.Lock()
	batch, turns, target := w.pending, w.turns, w.queued
	if len(batch) > 0 || len(turns) > 0 { // both taken: the batch owns them
		w.pending, w.turns = map[int64]entryRow{}, map[turnKey]chat.TurnMark{}
	}
	w.mu.Unlock()
	var err error
	if len(batch) > 0 || len(turns) > 0 {
		if err = w.write(batch, turns); err == nil {
			// The batch is saved; an indexing error leaves the queue for the next
			// attempt, and Search reports it.
			w.s.noteWrites(len(batch))
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if err != nil {
		// Kept for the next batch, unless saved again meanwhile.
		for id, r := range batch {
			if _, newer := w.pending[id]; !newer {
				w.pending[id] = r
			}
		}
		for k, m := range turns {
			if _, newer := w.turns[k]; !newer {
				w.turns[k] = m
			}
		}
		w.failures++
		w.lastErr = fmt.Errorf("saving %d entries: %w", len(batch), err)
	} else {
		w.written = target
		w.lastErr = nil
	}
	w.cond.Broadcast()
}

// write writes rows and turn marks in one transaction.
func (w *Writer) write(rows map[int64]entryRow, turns map[turnKey]chat.TurnMark) error {
	ids := make([]int64, 0, len(rows))
	for id := range rows {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	ctx := context.Background()
	tx, err := w.s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stmt := tx.StmtContext(ctx, w.s.upsertEntry)
	defer stmt.Close()
	for _, id := range ids {
		r := rows[id]
		if _, err := stmt.ExecContext(ctx, r.upsertArgs()...); err != nil {
			return err
		}
	}
	for k, m := range turns {
		if err := saveTurn(ctx, tx, k, m); err != nil {
			return err
		}
	}
	return tx.Commit()
}
