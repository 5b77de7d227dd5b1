package store

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/guard"
)

// Writer saves entries off the caller's goroutine: Save hands an entry over and returns at
// once; one goroutine writes whatever is pending in one transaction, then the next batch.
// An entry saved again before it was written is written once, as last saved, so what is
// waiting is at most one row per live entry, however fast the entries are saved.
//
// A batch that fails is kept in memory and tried again on a goroutine of the writer's own,
// after a delay that doubles from WriterOptions.RetryMin up to RetryMax; entries saved
// meanwhile join it. What is kept is bounded (MaxPending bytes): past the bound, an entry
// saved is not kept, and is counted as lost until a later save of it fits. The writer says
// when saving stops, for which conversations, and when it resumes (WriterOptions.Status);
// Flush and Close report the failure, Close with the count of entries it could not save
// (*UnsavedError).
type Writer struct {
	s    *Store
	opts WriterOptions

	mu   sync.Mutex
	cond *sync.Cond // signalled when a batch ends or the writer stops
	// pending holds the rows waiting to be written, by entry id; turns the turn marks, the
	// last one of each agent in each conversation.
	pending map[int64]entryRow
	turns   map[turnKey]chat.TurnMark
	// inflight is the batch being written (nil between batches): Pending shows it.
	inflight map[int64]entryRow
	// queued counts the calls to Save; written is the count covered by the last batch
	// written.
	queued, written uint64
	failures        uint64 // batches that failed
	lastErr         error  // nil when the last batch was written
	closing         bool
	stopped         bool
	// failing is set from a failed batch until one is written; told holds the
	// conversations the Status callback was told about meanwhile.
	failing bool
	told    map[ConvID]bool
	// size is the bytes pending holds; dropped the entries not kept past MaxPending (by
	// id, with their conversation), until a later save of them is kept.
	size    int64
	dropped map[int64]ConvID

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
	// Status, when set, is told when saving stops, when more conversations have entries
	// waiting while it is stopped, and when it resumes. It is called on the writer's
	// goroutine, one call at a time; it must not call the writer's Flush or Close.
	Status func(WriterStatus)
	// RetryMin and RetryMax bound the delay before a failed batch is tried again: the
	// first retry waits RetryMin, each next one twice as long, up to RetryMax (defaults
	// DefaultRetryMin and DefaultRetryMax).
	RetryMin, RetryMax time.Duration
	// MaxPending bounds the bytes of entries kept while they cannot be written (default
	// DefaultMaxPending).
	MaxPending int64
	// After makes the retry timers (nil: time.After); tests give their own clock.
	After func(time.Duration) <-chan time.Time
}

// The defaults of WriterOptions.
const (
	DefaultRetryMin   = time.Second
	DefaultRetryMax   = 8 * time.Second
	DefaultMaxPending = 64 << 20
)

// NewWriter starts a writer on s with the default options (NewWriterWith). Close it
// before closing s.
func NewWriter(s *Store) *Writer { return NewWriterWith(s, WriterOptions{}) }

// NewWriterWith starts a writer on s. Close it before closing s.
func NewWriterWith(s *Store, opts WriterOptions) *Writer {
	if opts.RetryMin <= 0 {
		opts.RetryMin = DefaultRetryMin
	}
	if opts.RetryMax < opts.RetryMin {
		opts.RetryMax = max(DefaultRetryMax, opts.RetryMin)
	}
	if opts.MaxPending <= 0 {
		opts.MaxPending = DefaultMaxPending
	}
	if opts.After == nil {
		opts.After = time.After
	}
	w := &Writer{
		s:       s,
		opts:    opts,
		told:    map[ConvID]bool{},
		dropped: map[int64]ConvID{},
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
// An entry whose conversation is deleted before it is written is dropped. An entry that
// would take what is pending past MaxPending is not kept (nor its earlier version still
// pending): it counts as lost until a later Save of it fits.
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
	w.keep(r)
	w.queued++
	w.mu.Unlock()
	w.signal()
	return e.ID
}

// keep puts r in pending, within MaxPending. The caller holds the lock.
func (w *Writer) keep(r entryRow) {
	old, had := w.pending[r.id]
	grown := r.size()
	if had {
		grown -= old.size()
	}
	if w.size+grown > w.opts.MaxPending {
		if had {
			delete(w.pending, r.id)
			w.size -= old.size()
		}
		w.dropped[r.id] = r.conv
		return
	}
	delete(w.dropped, r.id)
	w.pending[r.id] = r
	w.size += grown
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
	if w.failing && w.written < target {
		// The next attempt waits for its retry: say now that nothing is written.
		return w.lastErr
	}
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
	if n := w.unsaved(); n > 0 {
		return &UnsavedError{Entries: n, Err: w.lastErr}
	}
	return nil
}

// unsaved counts the entries not written: pending, or not kept. The caller holds the lock.
func (w *Writer) unsaved() int { return len(w.pending) + len(w.dropped) }

// run writes batches until Close, then the last one.
func (w *Writer) run() {
	defer func() {
		w.mu.Lock()
		w.stopped = true
		w.cond.Broadcast()
		w.mu.Unlock()
		close(w.done)
	}()
	var retry <-chan time.Time // set while failing: when to try again
	delay := time.Duration(0)
	for {
		select {
		case <-w.wake:
			if retry != nil {
				w.tellMore() // failing: the new entries wait for the retry
				continue
			}
		case <-retry:
		case <-w.quit:
			w.writeBatch()
			return
		}
		if err := w.writeBatch(); err != nil {
			delay = min(max(2*delay, w.opts.RetryMin), w.opts.RetryMax)
			retry = w.opts.After(delay)
			w.failed(err)
		} else {
			retry, delay = nil, 0
			w.resumed()
		}
	}
}

// writeBatch writes everything pending in one transaction, in id order, and returns the
// error of a batch that failed.
func (w *Writer) writeBatch() error {
	w.mu.Lock()
	batch, turns, target := w.pending, w.turns, w.queued
	if len(batch) > 0 || len(turns) > 0 { // both taken: the batch owns them
		w.pending, w.turns, w.size = map[int64]entryRow{}, map[turnKey]chat.TurnMark{}, 0
	}
	w.inflight = batch
	w.mu.Unlock()
	var err error
	if len(batch) > 0 || len(turns) > 0 {
		if err = w.write(batch, turns); err != nil && isReadOnly(err) {
			w.s.reopenConns() // read-only connections stay so: the next try gets new ones
		} else if err == nil {
			// The batch is saved; an indexing error leaves the queue for the next
			// attempt, and Search reports it.
			w.s.noteWrites(len(batch))
		}
		afterLong(largest(batch))
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.inflight = nil
	if err != nil {
		// Kept for the next batch, unless saved again (or not kept) meanwhile.
		for id, r := range batch {
			_, newer := w.pending[id]
			_, lost := w.dropped[id]
			if !newer && !lost {
				w.keep(r)
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
	return err
}

// largest is the size of the largest row of a batch.
func largest(rows map[int64]entryRow) int64 {
	var n int64
	for _, r := range rows {
		n = max(n, r.size())
	}
	return n
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
