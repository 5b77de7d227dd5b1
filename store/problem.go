package store

import (
	"errors"
	"io/fs"
	"os"
	"syscall"

	sqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// Problem says in lang, in a few words, why the history could not be written: "disk is
// full", "the file cannot be changed (immutable)"… SQLite reports most of these as a bare
// code, so what its code does not say is asked of the file itself: the database and its
// write-ahead log are opened for writing (never created nor truncated) to learn the
// system's reason.
func (s *Store) Problem(lang i18n.Lang, err error) string {
	if err == nil {
		return ""
	}
	code := sqliteCode(err)
	if code&0xff == sqlite3.SQLITE_FULL || errors.Is(err, syscall.ENOSPC) {
		return catalogue.Text(lang, mProblemFull)
	}
	if m, ok := errnoProblem(err); ok {
		return catalogue.Text(lang, m)
	}
	for _, p := range []string{s.path, s.path + "-wal"} {
		f, oerr := os.OpenFile(p, os.O_WRONLY, 0)
		if oerr == nil {
			f.Close()
			continue
		}
		if m, ok := errnoProblem(oerr); ok {
			return catalogue.Text(lang, m)
		}
	}
	switch {
	case code&0xff == sqlite3.SQLITE_READONLY:
		return catalogue.Text(lang, mProblemReadOnly)
	case code&0xff == sqlite3.SQLITE_IOERR || errors.Is(err, syscall.EIO):
		return catalogue.Text(lang, mProblemIO)
	case errors.Is(err, ErrClosed):
		return catalogue.Text(lang, mProblemClosed)
	}
	return safetext.Line(err.Error())
}

// FileProblem says in lang, in a few words, why a file could not be written, from the
// system's error ("disk is full", "permission denied"), or the error's own words.
func FileProblem(lang i18n.Lang, err error) string {
	if m, ok := errnoProblem(err); ok {
		return catalogue.Text(lang, m)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return safetext.Line(pe.Err.Error())
	}
	return safetext.Line(err.Error())
}

// errnoProblem is the message of a system error that says why a file cannot be written.
func errnoProblem(err error) (message, bool) {
	switch {
	case errors.Is(err, syscall.ENOSPC):
		return mProblemFull, true
	case errors.Is(err, syscall.EDQUOT):
		return mProblemQuota, true
	case errors.Is(err, syscall.EROFS):
		return mProblemReadOnlyFS, true
	case errors.Is(err, syscall.EPERM):
		return mProblemImmutable, true
	case errors.Is(err, syscall.EACCES):
		return mProblemDenied, true
	case errors.Is(err, syscall.EIO):
		return mProblemIO, true
	}
	return 0, false
}

// sqliteCode is the SQLite result code of err, 0 when it has none.
func sqliteCode(err error) int {
	var e *sqlite.Error
	if errors.As(err, &e) {
		return e.Code()
	}
	return 0
}

// isReadOnly says whether err is SQLite refusing to write a file it opened read-only.
func isReadOnly(err error) bool { return sqliteCode(err)&0xff == sqlite3.SQLITE_READONLY }
