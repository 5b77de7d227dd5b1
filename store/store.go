// Package store is the history database of one configuration file: its channels and their
// members, the conversations of channels and agents with their entries, each agent's ACP
// session and reading position, the agents' turns still open (to tell, after a kill, a turn
// that never ended), and a full-text search over all of it. It is SQLite, in pure
// Go, in WAL mode; one Sidekicks at a time holds it.
//
// The store keeps chat.Entry values; it knows nothing of the screen.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// The errors the store's operations wrap, to be told apart with errors.Is.
var (
	// ErrBadName: a channel name is empty, longer than MaxChannelName characters, or holds a
	// control character; or an agent name is empty or holds one.
	ErrBadName = errors.New("invalid name")
	// ErrNameTaken: another channel has this name, case ignored.
	ErrNameTaken = errors.New("a channel already has this name")
	// ErrNoChannel: no channel has this id (it was deleted).
	ErrNoChannel = errors.New("no such channel")
	// ErrNoConversation: no conversation has this id (its channel was deleted).
	ErrNoConversation = errors.New("no such conversation")
	// ErrNoEntry: no entry of this conversation has this id.
	ErrNoEntry = errors.New("no such entry")
	// ErrClosed: the Writer was closed before the entry was handed over.
	ErrClosed = errors.New("the history is closed")
)

// busyTimeoutMS is how long a connection waits for another one's write lock. Only this
// process writes (the lock file sees to it), so waits are short; another program writing the
// file (sqlite3 on the command line) may hold it for longer.
const busyTimeoutMS = 5000

// maxConns is how many connections the database pool keeps.
const maxConns = 4

// cacheKiB bounds the pages each connection keeps in memory (SQLite's default is 2 MiB):
// the history is read a page of entries at a time and written an entry at a time, which a
// small cache serves as fast, and each MiB of it is memory the program holds for as long as
// it runs. So the pool's caches hold at most maxConns × cacheKiB: 2 MiB, not 8.
const cacheKiB = 512

// Store is an open history database. Its methods may be called from any goroutine.
type Store struct {
	db   *sql.DB
	path string
	lock *fileLock

	// lastID is the last entry id handed out: ids are given before the entry is written, so
	// that a Writer's caller knows its entry's id at once.
	idMu   sync.Mutex
	lastID int64

	// unindexed counts entry writes since the full-text index was last brought up to date.
	unindexed atomic.Int64

	// Statements prepared once: the hot paths.
	upsertEntry, updateEntry, lastPage, before *sql.Stmt

	closeOnce sync.Once
	closeErr  error
}

// Open opens the history database at path, creating it and its folders if needed: it takes
// the configuration's lock (a *LockedError names the process holding it), refuses a
// database written by a newer Sidekicks (a *NewerSchemaError, the file untouched), then
// brings an older one up to date.
func Open(path string) (*Store, error) {
	if path == "" {
		return nil, errors.New("opening the history: no path")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("opening the history %s: %w", path, err)
	}
	return openAdopting(abs, "")
}

// makePrivate makes a database left readable by others (by an older Sidekicks, say), and
// its -wal and -shm files, the user's alone: the conversations are in them.
func makePrivate(path string) error {
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Stat(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if fi.Mode().Perm()&0o077 != 0 {
			if err := os.Chmod(p, fi.Mode().Perm()&0o700); err != nil {
				return err
			}
		}
	}
	return nil
}

// openLocked opens the database once its lock is held.
func openLocked(path string) (*Store, error) {
	// The file is made here, private to the user, rather than by SQLite with the umask's
	// permissions; SQLite gives its -wal and -shm files the same permissions.
	if f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600); err == nil {
		f.Close()
	} else if !errors.Is(err, os.ErrExist) {
		return nil, fmt.Errorf("creating the history %s: %w", path, err)
	} else if err := makePrivate(path); err != nil {
		return nil, fmt.Errorf("opening the history %s: %w", path, err)
	}
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		return nil, fmt.Errorf("opening the history %s: %w", path, err)
	}
	db.SetMaxOpenConns(maxConns)
	db.SetMaxIdleConns(maxConns)
	s := &Store{db: db, path: path}
	if err := s.setUp(); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// dsn is the driver's name for the database at path: a file: URI, so that any character of
// the path is escaped, with the settings every connection needs.
func dsn(path string) string {
	slashed := filepath.ToSlash(path)
	if !strings.HasPrefix(slashed, "/") {
		slashed = "/" + slashed // C:/… on Windows
	}
	u := url.URL{Scheme: "file", Path: slashed}
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeoutMS))
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", fmt.Sprintf("cache_size(-%d)", cacheKiB))
	// NORMAL in WAL mode: a commit survives the process being killed at any moment; a
	// power cut may lose the last commits, never the database.
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Set("_txlock", "immediate")
	return u.String() + "?" + q.Encode()
}

// setUp checks the schema version before anything may change the file, then turns WAL on,
// migrates and reads where entry ids continue.
func (s *Store) setUp() error {
	ctx := context.Background()
	v, err := userVersion(ctx, s.db)
	if err != nil {
		return fmt.Errorf("opening the history %s: %w", s.path, err)
	}
	if v > len(migrations) {
		return &NewerSchemaError{Path: s.path, Found: v, Known: len(migrations)}
	}
	var mode string
	if err := s.db.QueryRowContext(ctx, "PRAGMA journal_mode = WAL").Scan(&mode); err != nil {
		return fmt.Errorf("opening the history %s: turning WAL on: %w", s.path, err)
	}
	if v < len(migrations) {
		if err := migrate(ctx, s.db, s.path); err != nil {
			return err
		}
	}
	err = s.db.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) FROM entries`).Scan(&s.lastID)
	if err != nil {
		return fmt.Errorf("opening the history %s: reading the last entry: %w", s.path, err)
	}
	for _, p := range []struct {
		stmt  **sql.Stmt
		query string
	}{
		{&s.upsertEntry, upsertEntrySQL},
		{&s.updateEntry, updateEntrySQL},
		{&s.lastPage, lastPageSQL},
		{&s.before, beforeSQL},
	} {
		if *p.stmt, err = s.db.PrepareContext(ctx, p.query); err != nil {
			return fmt.Errorf("opening the history %s: preparing a statement: %w", s.path, err)
		}
	}
	return nil
}

// Path is the database's file.
func (s *Store) Path() string {
	return s.path
}

// Close closes the database and gives the configuration's lock back. A Writer on the store
// must be closed first.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		for _, st := range []*sql.Stmt{s.upsertEntry, s.updateEntry, s.lastPage, s.before} {
			if st != nil {
				st.Close()
			}
		}
		err := s.db.Close()
		if err != nil {
			err = fmt.Errorf("closing the history %s: %w", s.path, err)
		}
		s.closeErr = errors.Join(err, s.lock.release())
	})
	return s.closeErr
}

// newEntryID hands out the next entry id: one more than the last one handed out, which at
// open is the largest one stored. Ids only grow while the store is open, so an entry keeps
// its place in its conversation and a late write for an entry of a deleted conversation
// never lands on another entry. After a restart, the ids of the last entries deleted may be
// given again: nothing refers to them any more (their conversation and its sessions went
// with them).
func (s *Store) newEntryID() int64 {
	s.idMu.Lock()
	defer s.idMu.Unlock()
	s.lastID++
	return s.lastID
}

// inTx runs f in a write transaction, committed when f returns nil.
func (s *Store) inTx(ctx context.Context, f func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := f(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// oneRow turns an operation that changed no row into notFound.
func oneRow(res sql.Result, notFound error) error {
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return notFound
	}
	return nil
}

// closeRows closes rows and returns the error that ended their iteration.
func closeRows(rows *sql.Rows) error {
	err := rows.Err()
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	return err
}

// unixTime turns Unix nanoseconds back into a time, 0 into the zero time.
func unixTime(ns int64) time.Time {
	if ns == 0 {
		return time.Time{}
	}
	return time.Unix(0, ns)
}

// unixNano turns a time into Unix nanoseconds, the zero time into 0.
func unixNano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}
