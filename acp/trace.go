package acp

import (
	"bufio"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// TraceEnv names the environment variable that holds the trace file's path.
const TraceEnv = "SIDEKICKS_ACP_TRACE"

// traceFlushDelay is how long a traced line may wait in memory before it reaches the
// file: lines are written in batches so that tracing a fast stream costs no system call
// per message.
const traceFlushDelay = 50 * time.Millisecond

// Trace appends every message to and from every agent to a file, one line each:
//
//	TIMESTAMP AGENT -> JSON   (sent by Sidekicks)
//	TIMESTAMP AGENT <- JSON   (received from the agent)
//
// TIMESTAMP is RFC 3339 with microseconds, AGENT the agent's name (spaces and control
// characters replaced by "_"), JSON the message exactly as on the wire. A line over the
// connection's limit, which is never held whole, is traced as a marker instead:
//
//	TIMESTAMP AGENT <- !skipped 20971520 bytes (over the 16777216-byte limit)
//
// One Trace is shared by every connection; its lines never interleave. The zero of
// tracing is a nil *Trace, on which every method does nothing. A write error disables
// the trace: it never breaks the client.
type Trace struct {
	mu        sync.Mutex
	f         *os.File
	w         *bufio.Writer
	scheduled bool
	failed    atomic.Bool

	// second is the Unix second whose formatted date and time (up to the seconds) is
	// head, and zone its time zone: a timestamp is formatted once a second.
	second     int64
	head, zone []byte
	frac       [7]byte
}

// OpenTrace opens (creating or appending to) the trace file at path. It returns nil when
// path is empty or the file cannot be opened: no trace, and nothing else.
func OpenTrace(path string) *Trace {
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil
	}
	return &Trace{f: f, w: bufio.NewWriterSize(f, 256<<10)}
}

// TraceFromEnv opens the trace file named by SIDEKICKS_ACP_TRACE, or returns nil.
func TraceFromEnv() *Trace {
	return OpenTrace(os.Getenv(TraceEnv))
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
func (t *Trace) sent(name string, msg []byte) { t.line(name, " -> ", msg, 0, 0) }

// received traces a message read from the agent.
func (t *Trace) received(name string, msg []byte) { t.line(name, " <- ", msg, 0, 0) }

// skipped traces the marker of an over-long line.
func (t *Trace) skipped(name string, size int64, limit int) {
	t.line(name, " <- ", nil, size, limit)
}

func (t *Trace) line(name, arrow string, msg []byte, size int64, limit int) {
	if t == nil || t.failed.Load() {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.w == nil {
		return
	}
	// The time is read under the lock so that the file's lines are in time order.
	t.writeStamp(time.Now())
	t.w.WriteByte(' ')
	t.w.WriteString(name)
	t.w.WriteString(arrow)
	if msg != nil {
		t.w.Write(msg)
	} else {
		t.w.WriteString("!skipped ")
		t.w.WriteString(strconv.FormatInt(size, 10))
		t.w.WriteString(" bytes (over the ")
		t.w.WriteString(strconv.Itoa(limit))
		t.w.WriteString("-byte limit)")
	}
	if err := t.w.WriteByte('\n'); err != nil {
		t.failLocked()
		return
	}
	if !t.scheduled {
		t.scheduled = true
		time.AfterFunc(traceFlushDelay, t.Flush)
	}
}

// writeStamp writes now as RFC 3339 with microseconds, formatting the date and time
// only when the second changes.
func (t *Trace) writeStamp(now time.Time) {
	if sec := now.Unix(); sec != t.second || t.head == nil {
		t.second = sec
		t.head = now.AppendFormat(t.head[:0], "2006-01-02T15:04:05")
		t.zone = now.AppendFormat(t.zone[:0], "Z07:00")
	}
	t.w.Write(t.head)
	t.frac[0] = '.'
	us := now.Nanosecond() / 1000
	for i := 6; i >= 1; i-- {
		t.frac[i] = byte('0' + us%10)
		us /= 10
	}
	t.w.Write(t.frac[:])
	t.w.Write(t.zone)
}

// Flush writes the buffered lines to the file.
func (t *Trace) Flush() {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.scheduled = false
	if t.w == nil || t.failed.Load() {
		return
	}
	if err := t.w.Flush(); err != nil {
		t.failLocked()
	}
}

// Close flushes and closes the trace file; later messages are not traced.
func (t *Trace) Close() error {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.w == nil {
		return nil
	}
	err := t.w.Flush()
	if cerr := t.f.Close(); err == nil {
		err = cerr
	}
	t.w, t.f = nil, nil
	return err
}

// failLocked disables the trace after a write error.
func (t *Trace) failLocked() {
	t.failed.Store(true)
	if t.f != nil {
		t.f.Close()
	}
	t.w, t.f = nil, nil
}
