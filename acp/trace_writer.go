package acp

import (
	"bufio"
	"strconv"
	"time"
)

// traceBufferSize is the writer's buffer: a batch of short lines is one system call.
const traceBufferSize = 256 << 10

// The writer keeps at most traceSpareCount buffers of at most traceSpareSize bytes for
// the next lines; longer ones go to the garbage collector.
const (
	traceSpareCount = 256
	traceSpareSize  = 64 << 10
)

// writeLoop is the trace's writing goroutine: it takes every line waiting at once,
// writes them (with the marker of the lines dropped meanwhile), and flushes the batch to
// the file, until the trace is closed or the file fails.
func (t *Trace) writeLoop() {
	defer t.end()
	out := bufio.NewWriterSize(t.w, traceBufferSize)
	var batch []traceEntry
	for {
		t.mu.Lock()
		for len(t.queue) == 0 && t.dropped == 0 && !t.closed {
			t.mu.Unlock()
			<-t.wake
			t.mu.Lock()
		}
		batch, t.queue = t.queue, batch[:0]
		t.bytes = 0
		if t.dropped > 0 {
			batch = append(batch, t.dropMarkerLocked())
		}
		closing := t.closed
		t.changed.Broadcast() // the queue has room
		t.mu.Unlock()

		lines := 0
		var err error
		for _, e := range batch {
			if _, err = out.Write(e.line); err != nil {
				break
			}
			if e.dropped == 0 {
				lines++
			}
		}
		if err == nil {
			err = out.Flush()
		}
		if err != nil {
			t.fail(err)
			return
		}
		for _, e := range batch {
			if e.dropped > 0 && t.o.Dropped != nil {
				t.o.Dropped(e.dropped)
			}
		}
		t.mu.Lock()
		t.written += uint64(lines)
		for i, e := range batch {
			if len(t.spare) < traceSpareCount && cap(e.line) <= traceSpareSize {
				t.spare = append(t.spare, e.line)
			}
			batch[i] = traceEntry{}
		}
		t.changed.Broadcast() // lines are on file
		t.mu.Unlock()
		if closing {
			return
		}
	}
}

// dropMarkerLocked makes the marker of the lines dropped since the last one; mu is held.
func (t *Trace) dropMarkerLocked() traceEntry {
	n := t.dropped
	t.droppedSaid += n
	t.dropped = 0
	b := t.appendStamp(make([]byte, 0, 100), time.Now())
	b = append(b, " - !! dropped "...)
	b = strconv.AppendInt(b, n, 10)
	b = append(b, " lines (the trace file could not keep up)\n"...)
	return traceEntry{line: b, dropped: n}
}

// fail stops the trace after a write error: the lines waiting are forgotten, later ones
// are not queued, and whoever waits is released.
func (t *Trace) fail(err error) {
	t.failed.Store(true)
	t.mu.Lock()
	t.err = err
	t.queue, t.bytes, t.spare = nil, 0, nil
	t.changed.Broadcast()
	t.mu.Unlock()
	if t.o.Failed != nil {
		t.o.Failed(err)
	}
}

// end closes the file and tells whoever waits that the writer is gone.
func (t *Trace) end() {
	_ = t.w.Close()
	t.mu.Lock()
	close(t.done)
	t.changed.Broadcast()
	t.mu.Unlock()
}
