package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// appLogName is Sidekicks' own log, beside the agents' logs.
const appLogName = "sidekicks.log"

// appLogQueue bounds the lines waiting for the disk; past it, lines are counted and
// dropped, so that logging never waits.
const appLogQueue = 1024

// appLog is Sidekicks' own log: errors and events of the application, one line per record
// with its time, and a panic's report. Printf never waits for the disk, so the screen's
// goroutine may log; one goroutine writes. The file is rotated like the agents' logs.
type appLog struct {
	path    string
	maxSize int64
	now     func() time.Time

	lines   chan string
	flushes chan chan struct{}
	done    chan struct{}

	mu      sync.Mutex
	closed  bool
	dropped int
	// problem, when set, is told when the file cannot be written, and (nil) when it is
	// again (log_problems.go); it runs on the writing goroutine.
	problem func(error)

	// Owned by the writing goroutine.
	f    *os.File
	size int64
	// failed is why the file could not be written, until it is again; missing counts
	// the records lost meanwhile.
	failed  error
	missing int
}

// appLogPath returns where Sidekicks' own log goes: <state dir>/logs/sidekicks.log.
func appLogPath() (string, error) {
	dir, err := runtime.LogsDir()
	if err != nil {
		return "", fmt.Errorf("finding the logs folder: %w", err)
	}
	return filepath.Join(dir, appLogName), nil
}

// openAppLog opens (creating it and its folder) the log at path for appending. maxSize is
// the size past which the file becomes path.1 and a new one starts (0: the agents' size).
func openAppLog(path string, maxSize int64) (*appLog, error) {
	if maxSize <= 0 {
		maxSize = runtime.DefaultLogFileSize
	}
	l := &appLog{path: path, maxSize: maxSize, now: time.Now,
		lines: make(chan string, appLogQueue), flushes: make(chan chan struct{}), done: make(chan struct{})}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("creating the logs folder: %w", err)
	}
	if err := l.open(); err != nil {
		return nil, err
	}
	go l.write()
	return l, nil
}

// open opens the file, rotating it first when it is already too big.
func (l *appLog) open() error {
	if fi, err := os.Stat(l.path); err == nil && fi.Size() >= l.maxSize {
		return l.rotate()
	}
	return l.reopen()
}

// rotate makes the file path.1 (replacing the previous one) and starts a new one.
func (l *appLog) rotate() error {
	if err := os.Rename(l.path, l.path+".1"); err != nil {
		return fmt.Errorf("rotating %s: %w", l.path, err)
	}
	return l.reopen()
}

// reopen opens the file for appending, the user's alone (0600).
func (l *appLog) reopen() error {
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("opening the log %s: %w", l.path, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("opening the log %s: %w", l.path, err)
	}
	// A file left readable by others (by an older Sidekicks, say) becomes the user's alone.
	if fi.Mode().Perm()&0o077 != 0 {
		_ = f.Chmod(0o600)
	}
	l.f, l.size = f, fi.Size()
	return nil
}

// Path is the log's file ("" for a nil log).
func (l *appLog) Path() string {
	if l == nil {
		return ""
	}
	return l.path
}

// Printf adds a record. It never waits: when the writer is behind by appLogQueue records,
// the record is dropped and the next one written says how many were. Text from outside
// (an agent's, a file's) is cleaned of escape sequences. A nil log drops everything.
func (l *appLog) Printf(format string, args ...any) {
	if l == nil {
		return
	}
	text := safetext.Text(fmt.Sprintf(format, args...))
	line := l.now().Format(time.RFC3339) + " " + strings.TrimRight(text, "\n") + "\n"
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	if l.dropped > 0 {
		select {
		case l.lines <- fmt.Sprintf("%s (%d records dropped: the log could not keep up)\n", l.now().Format(time.RFC3339), l.dropped):
			l.dropped = 0
		default:
		}
	}
	select {
	case l.lines <- line:
	default:
		l.dropped++
	}
}

// Flush waits until every record added before it is in the file.
func (l *appLog) Flush() {
	if l == nil {
		return
	}
	l.mu.Lock()
	closed := l.closed
	l.mu.Unlock()
	if closed {
		return
	}
	c := make(chan struct{})
	select {
	case l.flushes <- c:
		<-c
	case <-l.done:
	}
}

// Close writes what is waiting and closes the file.
func (l *appLog) Close() {
	if l == nil {
		return
	}
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return
	}
	l.closed = true
	close(l.lines)
	l.mu.Unlock()
	<-l.done
}

// write is the writing goroutine.
func (l *appLog) write() {
	defer close(l.done)
	defer func() {
		if l.f != nil {
			l.f.Close()
		}
	}()
	for {
		select {
		case line, ok := <-l.lines:
			if !ok {
				return
			}
			l.writeLine(line)
		case c := <-l.flushes:
			// Everything queued before the flush was asked is written first.
			for n := len(l.lines); n > 0; n-- {
				line, ok := <-l.lines
				if !ok {
					break
				}
				l.writeLine(line)
			}
			close(c)
		}
	}
}

func (l *appLog) writeLine(line string) {
	l.wrote(l.tryLine(line))
}

// tryLine writes one record, rotating the file first when it is full, and returns the
// error that kept it from the file: the log is lost rather than the application stopped.
func (l *appLog) tryLine(line string) error {
	if l.f == nil {
		if err := l.reopen(); err != nil {
			return err
		}
	}
	if l.size+int64(len(line)) > l.maxSize && l.size > 0 {
		l.f.Close()
		l.f = nil
		if err := l.rotate(); err != nil {
			return err
		}
	}
	n, err := l.f.WriteString(line)
	l.size += int64(n)
	return err
}
