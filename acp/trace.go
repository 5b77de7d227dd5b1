package acp

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"git.rickub.com/bots-garden/sidekicks/guard"
	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// TraceEnv names the environment variable that holds the trace file's path.
const TraceEnv = "SIDEKICKS_ACP_TRACE"

// The default bounds of the lines waiting for the trace file. A connection's line is at
// most DefaultMaxLine long, so the bytes allow one such line and more.
const (
	DefaultTraceQueueLines = 4096
	DefaultTraceQueueBytes = 32 << 20
)

// traceCloseWait bounds how long Close and Flush wait for the file to take the lines: a
// file that hangs (a stuck network mount) never holds Sidekicks.
const traceCloseWait = 5 * time.Second

// Trace appends every message to and from every agent to a file, one line each:
//
//	TIMESTAMP AGENT -> JSON   (sent by Sidekicks)
//	TIMESTAMP AGENT <- LINE   (read from the agent)
//
// TIMESTAMP is RFC 3339 with microseconds, AGENT the agent's name (spaces and control
// characters replaced by "_"), JSON and LINE the message exactly as on the wire. A line
// over the connection's limit, which is never held whole, is traced as a marker instead:
//
//	TIMESTAMP AGENT <- !skipped 20971520 bytes (over the 16777216-byte limit)
//
// One Trace is shared by every connection. A connection never writes the file: it adds
// its line, whole, to a bounded queue, and one goroutine writes the queue to the file.
// Lines therefore never interleave, and they are in time order (the time is read as the
// line is queued). When the queue is full, a trace made with TraceOptions.Wait makes the
// connection wait; otherwise the line is dropped and counted, and the writer says so in
// the file, after the lines that were waiting, with the marker
//
//	TIMESTAMP - !! dropped 12 lines (the trace file could not keep up)
//
// The zero of tracing is a nil *Trace, on which every method does nothing. A write error
// stops the trace: it never breaks the client.
type Trace struct {
	o TraceOptions
	w io.WriteCloser
	// closeWait bounds Close and Flush (traceCloseWait; tests shorten it).
	closeWait time.Duration

	// failed is set once the file failed: lines are no longer queued.
	failed atomic.Bool

	mu sync.Mutex
	// changed is signalled (under mu) when the queue has room again, when lines have
	// reached the file, and when the trace fails or its writer ends.
	changed *sync.Cond
	queue   []traceEntry
	bytes   int
	// dropped counts the lines dropped since the file last said so; droppedSaid those
	// it has said.
	dropped, droppedSaid int64
	closed               bool
	// queued and written count the lines added and the lines on file, for Flush.
	queued, written uint64
	// spare holds buffers the writer gave back, to be reused.
	spare [][]byte
	// wake tells the writer that there is work (capacity 1: wake-ups merge).
	wake chan struct{}
	done chan struct{}
	err  error

	// second is the Unix second whose formatted date and time (up to the seconds) is
	// head, and zone its time zone: a timestamp is formatted once a second.
	second     int64
	head, zone []byte
}

// TraceOptions say how a trace queues its lines. The zero value drops lines when the
// queue is full, with the default bounds.
type TraceOptions struct {
	// QueueLines and QueueBytes bound the lines waiting for the file
	// (DefaultTraceQueueLines and DefaultTraceQueueBytes when 0). A line longer than
	// QueueBytes is taken when nothing else waits.
	QueueLines int
	QueueBytes int
	// Wait makes a message wait for room instead of being dropped: for a command with no
	// screen to keep responsive, whose trace must be whole (`sidekicks ask`).
	Wait bool
	// Dropped, when set, is told how many lines were dropped each time the file says so,
	// on the writer's goroutine.
	Dropped func(n int64)
	// Failed, when set, is told once of the write error that stopped the trace, on the
	// writer's goroutine.
	Failed func(err error)
	// Go starts the writer's goroutine ("acp trace"); nil starts it with a plain go
	// statement.
	Go guard.Go
}

// traceEntry is one line waiting for the file; dropped is the count a marker says.
type traceEntry struct {
	line    []byte
	dropped int64
}

// OpenTrace opens (creating or appending to) the trace file at path, as `sidekicks ask`
// wants it: every message is traced, waiting for room when the file is behind. It
// returns nil when path is empty or the file cannot be opened: no trace, and nothing
// else.
func OpenTrace(path string) *Trace {
	if path == "" {
		return nil
	}
	t, err := OpenTraceWith(path, TraceOptions{Wait: true})
	if err != nil {
		return nil
	}
	return t
}

// OpenTraceWith opens (creating or appending to) the trace file at path with o's queue.
// The error says why the file cannot be written.
func OpenTraceWith(path string, o TraceOptions) (*Trace, error) {
	// O_NONBLOCK: a named pipe nobody reads is refused at once (ENXIO) rather than
	// holding the start; on a regular file it does nothing.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscall.O_NONBLOCK, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening the trace file: %w", err)
	}
	return newTrace(f, o), nil
}

// TraceFromEnv opens the trace file named by SIDEKICKS_ACP_TRACE as OpenTrace does, or
// returns nil.
func TraceFromEnv() *Trace {
	return OpenTrace(os.Getenv(TraceEnv))
}

// newTrace starts the writer of a trace to w.
func newTrace(w io.WriteCloser, o TraceOptions) *Trace {
	if o.QueueLines <= 0 {
		o.QueueLines = DefaultTraceQueueLines
	}
	if o.QueueBytes <= 0 {
		o.QueueBytes = DefaultTraceQueueBytes
	}
	t := &Trace{o: o, w: w, closeWait: traceCloseWait, wake: make(chan struct{}, 1), done: make(chan struct{})}
	t.changed = sync.NewCond(&t.mu)
	o.Go.Start("acp trace", t.writeLoop)
	return t
}

// traceName writes an agent's name as one word for the trace: control characters
// removed, spaces replaced by "_".
func traceName(agent string) string {
	if agent == "" {
		return "-"
	}
	b := []rune(safetext.Snippet(agent, 100))
	for i, r := range b {
		if r == ' ' || r == '\u00a0' {
			b[i] = '_'
		}
	}
	return string(b)
}

// sent traces a message written to the agent named name (as traceName made it).
func (t *Trace) sent(name string, msg []byte) { t.add(name, " -> ", msg, "") }

// received traces a line read from the agent.
func (t *Trace) received(name string, msg []byte) { t.add(name, " <- ", msg, "") }

// skipped traces the marker of an over-long line.
func (t *Trace) skipped(name string, size int64, limit int) {
	t.add(name, " <- ", nil, "!skipped "+strconv.FormatInt(size, 10)+" bytes (over the "+strconv.Itoa(limit)+"-byte limit)")
}

// traceStampMax is the longest timestamp: 2006-01-02T15:04:05.000000-07:00.
const traceStampMax = 32

// add queues one line: the message, or the marker text when msg is nil. It never waits
// for the file; it waits for room only with TraceOptions.Wait.
func (t *Trace) add(name, arrow string, msg []byte, marker string) {
	if t == nil || t.failed.Load() {
		return
	}
	size := traceStampMax + len(name) + len(arrow) + len(msg) + len(marker) + 1
	t.mu.Lock()
	defer t.mu.Unlock()
	for !t.closed && !t.failed.Load() && !t.roomFor(size) {
		if !t.o.Wait {
			t.dropped++
			return
		}
		t.changed.Wait()
	}
	if t.closed || t.failed.Load() {
		return
	}
	// The time is read under the lock so that the file's lines are in time order.
	b := t.buffer(size)
	b = t.appendStamp(b, time.Now())
	b = append(b, ' ')
	b = append(b, name...)
	b = append(b, arrow...)
	if msg != nil {
		b = append(b, msg...)
	} else {
		b = append(b, marker...)
	}
	b = append(b, '\n')
	t.push(traceEntry{line: b})
}

// roomFor reports whether a line of size bytes fits in the queue. A line longer than
// the whole queue fits when nothing else waits.
func (t *Trace) roomFor(size int) bool {
	if len(t.queue) >= t.o.QueueLines {
		return false
	}
	return len(t.queue) == 0 || t.bytes+size <= t.o.QueueBytes
}

// push adds an entry to the queue and wakes the writer; mu is held.
func (t *Trace) push(e traceEntry) {
	t.queue = append(t.queue, e)
	t.bytes += len(e.line)
	t.queued++
	select {
	case t.wake <- struct{}{}:
	default:
	}
}

// buffer returns an empty buffer of at least size bytes, reusing one the writer gave
// back; mu is held.
func (t *Trace) buffer(size int) []byte {
	if n := len(t.spare); n > 0 && cap(t.spare[n-1]) >= size {
		b := t.spare[n-1]
		t.spare = t.spare[:n-1]
		return b[:0]
	}
	return make([]byte, 0, max(size, 256))
}

// appendStamp appends now as RFC 3339 with microseconds, formatting the date and time
// only when the second changes; mu is held.
func (t *Trace) appendStamp(b []byte, now time.Time) []byte {
	if sec := now.Unix(); sec != t.second || t.head == nil {
		t.second = sec
		t.head = now.AppendFormat(t.head[:0], "2006-01-02T15:04:05")
		t.zone = now.AppendFormat(t.zone[:0], "Z07:00")
	}
	b = append(b, t.head...)
	var frac [7]byte
	frac[0] = '.'
	us := now.Nanosecond() / 1000
	for i := 6; i >= 1; i-- {
		frac[i] = byte('0' + us%10)
		us /= 10
	}
	b = append(b, frac[:]...)
	return append(b, t.zone...)
}

// Dropped returns how many lines the trace has dropped so far because the file could
// not keep up.
func (t *Trace) Dropped() int64 {
	if t == nil {
		return 0
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.dropped + t.droppedSaid
}

// Flush waits until every line queued before it is in the file, the trace has failed,
// or a few seconds have passed.
func (t *Trace) Flush() {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	target := t.queued
	t.waitLocked(func() bool { return t.written >= target || t.failed.Load() })
}

// Close writes the lines waiting, closes the file and stops the writer; later messages
// are not traced. It waits a few seconds at most for the file, and returns the write
// error that stopped the trace, if any.
func (t *Trace) Close() error {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.closed {
		t.closed = true
		t.changed.Broadcast()
		select {
		case t.wake <- struct{}{}:
		default:
		}
	}
	if !t.waitLocked(func() bool { return false }) {
		return errors.New("closing the trace file: it did not take the last lines within " + t.closeWait.String())
	}
	return t.err
}

// waitLocked waits, with mu held, until ok or the writer has ended, for closeWait at
// most; it reports whether it did not time out.
func (t *Trace) waitLocked(ok func() bool) bool {
	late := false // set under mu when closeWait has passed
	timer := time.AfterFunc(t.closeWait, func() {
		t.mu.Lock()
		late = true
		t.changed.Broadcast()
		t.mu.Unlock()
	})
	defer timer.Stop()
	for !ok() && !t.isDone() {
		if late {
			return false
		}
		t.changed.Wait()
	}
	return true
}

func (t *Trace) isDone() bool {
	select {
	case <-t.done:
		return true
	default:
		return false
	}
}
