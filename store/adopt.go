package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// OpenConfig opens the history of the configuration file at configPath (Open on
// DefaultPath). When that database does not exist yet and the one an earlier Sidekicks
// kept under the unresolved path does (LegacyPath: the configuration was reached through
// a linked folder), that one is moved in its place first, so that no history is lost: its
// write-ahead log is folded into it, then it is renamed. A legacy history that another
// Sidekicks holds is refused like the history itself (a *LockedError).
func OpenConfig(configPath string) (*Store, error) {
	path, err := DefaultPath(configPath)
	if err != nil {
		return nil, err
	}
	return openAdopting(path, LegacyPath(configPath))
}

// openAdopting is Open of path, adopting the database at legacy when path has none.
func openAdopting(path, legacy string) (*Store, error) {
	if err := ensureDir(path); err != nil {
		return nil, err
	}
	lock, err := acquireLock(path)
	if err != nil {
		return nil, err
	}
	if legacy != "" {
		if err := adopt(legacy, path); err != nil {
			lock.release()
			return nil, err
		}
	}
	s, err := openLocked(path)
	if err != nil {
		lock.release()
		if isDamaged(err) {
			err = &DamagedError{Path: path, Err: err}
		}
		return nil, err
	}
	s.lock = lock
	return s, nil
}

// adopt moves the database at old (with its -wal and -shm files) to path when path does
// not exist and old does. The caller holds path's lock; old's is taken for the move, so a
// Sidekicks still using old is not robbed of it.
func adopt(old, path string) error {
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		return nil // a history is there (or cannot be looked at): it is the one opened
	}
	if fi, err := os.Stat(old); err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	oldLock, err := acquireLock(old)
	if err != nil {
		return err
	}
	defer oldLock.release()
	// Fold the log into the database, so that the rename below moves one file whole. A
	// database that cannot be opened is moved as it is, log and all, for the open that
	// follows to report.
	checkpoint(old)
	for _, suffix := range []string{"", "-wal", "-shm"} {
		err := os.Rename(old+suffix, path+suffix)
		if err != nil && !(suffix != "" && errors.Is(err, os.ErrNotExist)) {
			return fmt.Errorf("moving the history %s to %s: %w", old, filepath.Base(path), err)
		}
	}
	return nil
}

// checkpoint copies the write-ahead log of the database at path into it and empties the
// log; errors are ignored (the log then moves with the database).
func checkpoint(path string) {
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		return
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	_, _ = db.ExecContext(context.Background(), "PRAGMA wal_checkpoint(TRUNCATE)")
}
