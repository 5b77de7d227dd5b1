package store

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// LockedError says that another Sidekicks holds the history: two Sidekicks on the same
// configuration would start every agent twice.
type LockedError struct {
	// Path is the history database.
	Path string
	// PID is the process that holds it, 0 when it could not be read.
	PID int
}

// Error says which process holds the history, in English; Message says it in the user's
// language.
func (e *LockedError) Error() string {
	return e.Message(i18n.English)
}

// Message says which process holds the history in lang.
func (e *LockedError) Message(lang i18n.Lang) string {
	if e.PID > 0 {
		return catalogue.Text(lang, mLockedBy, e.Path, e.PID)
	}
	return catalogue.Text(lang, mLocked, e.Path)
}

// fileLock is the exclusive advisory lock on "<db>.lock", which holds its holder's PID.
type fileLock struct {
	f *os.File
}

// lockPath is the lock file of the database at dbPath.
func lockPath(dbPath string) string {
	return dbPath + ".lock"
}

// acquireLock takes the lock of the database at dbPath without waiting, and writes this
// process's PID in it. The file is never removed: removing it would let a second process
// lock a fresh file while a third still holds the old one.
func acquireLock(dbPath string) (*fileLock, error) {
	path := lockPath(dbPath)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening the lock file %s: %w", path, err)
	}
	held, err := tryLock(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	if held {
		pid := readPID(f)
		f.Close()
		return nil, &LockedError{Path: dbPath, PID: pid}
	}
	if err := f.Truncate(0); err == nil {
		_, err = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	if err != nil {
		unlock(f)
		f.Close()
		return nil, fmt.Errorf("writing the lock file %s: %w", path, err)
	}
	return &fileLock{f: f}, nil
}

// release gives the lock back; the file stays.
func (l *fileLock) release() error {
	if l == nil || l.f == nil {
		return nil
	}
	unlockErr := unlock(l.f)
	closeErr := l.f.Close()
	l.f = nil
	if unlockErr != nil {
		return fmt.Errorf("unlocking the history: %w", unlockErr)
	}
	if closeErr != nil {
		return fmt.Errorf("closing the lock file: %w", closeErr)
	}
	return nil
}

// readPID reads the holder's PID from the lock file, 0 when it is not there (yet).
func readPID(f *os.File) int {
	buf := make([]byte, 32)
	n, _ := f.ReadAt(buf, 0)
	pid, err := strconv.Atoi(strings.TrimSpace(string(buf[:n])))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}

// ensureDir creates the database's folder, private to the user.
func ensureDir(dbPath string) error {
	dir := filepath.Dir(dbPath)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating the history folder %s: %w", dir, err)
	}
	return nil
}
