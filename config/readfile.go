package config

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"syscall"
	"time"
)

// Every read of Sidekicks' own files — the configuration, the project agents file, the
// preferences — goes through readBounded, so that no such file can hold Sidekicks up or
// fill its memory:
//
//   - only a regular file is read: a named pipe (open(2) would wait for a writer forever)
//     or a device such as /dev/zero (which never ends) is refused, a link to one too. The
//     file is looked at before it is opened, opened without blocking, then looked at again,
//     so that a pipe swapped in between is refused as well;
//   - at most max+1 bytes are read, whatever the file says its size is;
//   - the read gives up after ReadTimeout (a network file system that stopped answering
//     blocks even a regular file), or as soon as its context is done. The read itself then
//     goes on in the background until the system lets it go; while it does, other reads of
//     the same path give up at once rather than pile up behind it.

// ReadTimeout is how long a read of one of Sidekicks' own files may take before it is
// given up: a local file takes microseconds.
const ReadTimeout = 10 * time.Second

// readTimeout is ReadTimeout; tests shorten it.
var readTimeout = ReadTimeout

// ErrNotRegular is wrapped by the error of a read of a file that is not a regular file
// (a named pipe, a device, a socket).
var ErrNotRegular = errors.New("not a regular file")

// errIsFolder is the error of a read of a folder.
var errIsFolder = fmt.Errorf("is a folder: %w", fs.ErrInvalid)

// errTooLarge is the error of a read of a file over its bound.
var errTooLarge = errors.New("file too large")

// TimeoutError is the error of a read that did not finish within ReadTimeout.
type TimeoutError struct {
	After time.Duration
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("no answer within %s", e.After)
}

// readBounded returns the content of the regular file at path (a link is followed), of
// at most max bytes (see the comment at the top of this file).
func readBounded(ctx context.Context, path string, max int64) ([]byte, error) {
	var data []byte
	err := bounded(ctx, path, func() error {
		var err error
		data, err = readRegular(path, max)
		return err
	})
	return data, err
}

// ReadConfigFile returns the content of the configuration file at path, read as Load
// reads it: a regular file of at most 1 MiB, within ReadTimeout.
func ReadConfigFile(ctx context.Context, path string) ([]byte, error) {
	return readBounded(ctx, path, maxFileSize)
}

// readRegular opens the regular file at path without blocking and reads at most max+1
// bytes of it.
func readRegular(path string, max int64) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := readable(fi, max); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err = f.Stat(); err == nil {
		err = readable(fi, max)
	}
	if err != nil {
		return nil, err
	}
	buf := make([]byte, 0, min(fi.Size(), max)+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > max {
			// It grew while it was read.
			return nil, errTooLarge
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// readable refuses a folder, what is not a regular file, a file over max bytes.
func readable(fi fs.FileInfo, max int64) error {
	switch {
	case fi.IsDir():
		return errIsFolder
	case !fi.Mode().IsRegular():
		return ErrNotRegular
	case fi.Size() > max:
		return errTooLarge
	}
	return nil
}

// isRegularFile says whether path is a regular file (a link to one counts), without
// waiting more than ReadTimeout for the answer.
func isRegularFile(path string) bool {
	return bounded(context.Background(), path, func() error {
		fi, err := os.Stat(path)
		if err == nil && !fi.Mode().IsRegular() {
			err = ErrNotRegular
		}
		return err
	}) == nil
}

// stuck holds the paths whose last operation was given up and still runs, each with a
// channel closed once it has ended.
var stuck = struct {
	sync.Mutex
	paths map[string]chan struct{}
}{paths: map[string]chan struct{}{}}

// stuckOn returns the channel closed once the operation given up on path ends, nil when
// none is running.
func stuckOn(path string) <-chan struct{} {
	stuck.Lock()
	defer stuck.Unlock()
	if ch, ok := stuck.paths[path]; ok {
		return ch
	}
	return nil
}

// bounded runs op, an operation on the file at path, and waits for it at most
// readTimeout, or until ctx is done. An operation given up goes on in the background;
// until it ends, other operations on path are given up at once.
func bounded(ctx context.Context, path string, op func() error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if stuckOn(path) != nil {
		return &TimeoutError{After: readTimeout}
	}
	done := make(chan error, 1)
	var mu sync.Mutex
	var ended chan struct{} // set when the operation is given up
	// A plain goroutine: it only makes system calls on a path, nothing from outside is
	// interpreted on it.
	go func() {
		err := op()
		mu.Lock()
		defer mu.Unlock()
		if ended != nil {
			stuck.Lock()
			// Another operation given up at the same time may have marked the path
			// since: its mark stays until it ends.
			if stuck.paths[path] == ended {
				delete(stuck.paths, path)
			}
			stuck.Unlock()
			close(ended)
		}
		done <- err
	}()
	timer := time.NewTimer(readTimeout)
	defer timer.Stop()
	var err error
	select {
	case err := <-done:
		return err
	case <-timer.C:
		err = &TimeoutError{After: readTimeout}
	case <-ctx.Done():
		err = ctx.Err()
	}
	mu.Lock()
	defer mu.Unlock()
	select {
	case err := <-done:
		// It ended meanwhile after all.
		return err
	default:
	}
	ended = make(chan struct{})
	stuck.Lock()
	stuck.paths[path] = ended
	stuck.Unlock()
	return err
}
