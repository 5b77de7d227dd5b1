package store

import (
	"context"
	"database/sql"
	"fmt"
)

// indexEvery is how many entry writes may wait for the full-text index before the writing
// goroutine indexes them in one transaction; a search indexes what waits first. A variable
// so that a test can make it small.
var indexEvery int64 = 256

// noteWrites counts n entry writes that wait for the index, and indexes them once there are
// indexEvery of them. It runs on the goroutine that wrote them (a Writer's, or SaveEntry's
// caller).
func (s *Store) noteWrites(n int) error {
	if s.unindexed.Add(int64(n)) < indexEvery {
		return nil
	}
	return s.indexPending(context.Background())
}

// indexPending adds the entries waiting in entries_fts_pending to the full-text index, in
// one transaction.
func (s *Store) indexPending(ctx context.Context) error {
	s.unindexed.Store(0)
	var waiting bool
	if err := s.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM entries_fts_pending)`).Scan(&waiting); err != nil {
		return fmt.Errorf("indexing the history: %w", err)
	}
	if !waiting {
		return nil
	}
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		return execAll(ctx, tx,
			`INSERT INTO entries_fts(rowid, text, extra)
				SELECT e.id, e.text, e.extra FROM entries_fts_pending p JOIN entries e ON e.id = p.id`,
			`DELETE FROM entries_fts_pending`)
	})
	// FTS5 read each entry's text whole and tokenized it: long ones leave the C allocator
	// with free regions to give back.
	trimCMemory()
	if err != nil {
		return fmt.Errorf("indexing the history: %w", err)
	}
	return nil
}
