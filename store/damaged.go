package store

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"modernc.org/sqlite"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// SQLite's primary result codes of a file that is not a sound database.
const (
	sqliteCorrupt = 11 // SQLITE_CORRUPT: "database disk image is malformed"
	sqliteNotADB  = 26 // SQLITE_NOTADB: "file is not a database"
)

// DamagedError says the history database cannot be opened because the file is damaged
// (truncated, overwritten): SQLite finds it malformed, or not a database at all. The file
// was left as it was.
type DamagedError struct {
	// Path is the history database.
	Path string
	// Err is SQLite's error.
	Err error
}

// Error says it in English; Message says it in the user's language.
func (e *DamagedError) Error() string { return e.Message(i18n.English) }

func (e *DamagedError) Unwrap() error { return e.Err }

// Reason is SQLite's own words for the damage ("database disk image is malformed").
func (e *DamagedError) Reason() string {
	var se *sqlite.Error
	if !errors.As(e.Err, &se) {
		return e.Err.Error()
	}
	// The driver ends its message with the code: " (11)".
	msg := se.Error()
	if i := strings.LastIndex(msg, " ("); i > 0 && strings.HasSuffix(msg, ")") {
		if _, err := strconv.Atoi(msg[i+2 : len(msg)-1]); err == nil {
			msg = msg[:i]
		}
	}
	return msg
}

// Message says the history is damaged and what to do, in lang: start with a new history
// (moving the file aside, which Sidekicks offers at its next start) and get back what it
// held with sqlite3's .recover.
func (e *DamagedError) Message(lang i18n.Lang) string {
	return catalogue.Text(lang, mDamaged, e.Path, e.Reason()) + "\n" + catalogue.Text(lang, mDamagedHelp)
}

// isDamaged reports whether err is SQLite finding the file malformed or not a database.
func isDamaged(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	code := se.Code() & 0xff // the primary code of an extended one
	return code == sqliteCorrupt || code == sqliteNotADB
}

// AsidePath is where SetAside moves the damaged database at path at the time now:
// "<path>.damaged-<UTC date and time>", beside it.
func AsidePath(path string, now time.Time) string {
	return path + ".damaged-" + now.UTC().Format("20060102T150405Z")
}

// SetAside moves the damaged database at path, with its -wal and -shm files, to aside
// (AsidePath), so that the next Open starts a new history while the damaged one is kept
// whole for sqlite3's .recover: its log keeps the name SQLite looks for beside it. It takes
// the history's lock for the move, so it refuses (a *LockedError) while another Sidekicks
// holds it, and it never replaces an existing file.
func SetAside(path, aside string) error {
	lock, err := acquireLock(path)
	if err != nil {
		return err
	}
	defer lock.release()
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if _, err := os.Lstat(aside + suffix); !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("moving the history %s aside: %s exists already", path, aside+suffix)
		}
	}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		err := os.Rename(path+suffix, aside+suffix)
		if err != nil && !(suffix != "" && errors.Is(err, os.ErrNotExist)) {
			return fmt.Errorf("moving the history %s aside: %w", path, err)
		}
	}
	return nil
}
