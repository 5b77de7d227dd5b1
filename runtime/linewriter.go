package runtime

import (
	"bytes"
	"strings"
	"sync"
)

// lineWriter is an io.Writer that cuts what it receives into lines and hands each line,
// prefixed, to a log. A line longer than MaxLogLine is cut there and the rest of it
// skipped, so that a process writing without newlines never grows memory. It also keeps
// the last few lines, for the reason of a crash.
type lineWriter struct {
	log    *AgentLog
	prefix string

	mu       sync.Mutex
	partial  []byte
	skipping bool // the current line was cut; skip until its newline
	tail     []string
	tailMax  int
}

func newLineWriter(log *AgentLog, prefix string, tailMax int) *lineWriter {
	return &lineWriter{log: log, prefix: prefix, tailMax: tailMax}
}

// Write never fails and never waits for the disk.
func (w *lineWriter) Write(p []byte) (int, error) {
	n := len(p)
	w.mu.Lock()
	defer w.mu.Unlock()
	var lines []string
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		chunk := p
		if i >= 0 {
			chunk = p[:i]
			p = p[i+1:]
		} else {
			p = nil
		}
		if !w.skipping {
			room := MaxLogLine + 1 - len(w.partial) // one byte more says it was cut
			switch {
			case len(chunk) > room:
				w.partial = append(w.partial, chunk[:room]...)
				w.skipping = true
				lines = append(lines, w.take())
			case i >= 0 && len(w.partial) == 0:
				lines = append(lines, w.prefix+string(chunk)) // a whole line: no copy to partial
			default:
				w.partial = append(w.partial, chunk...)
			}
		}
		if i >= 0 {
			if !w.skipping && len(w.partial) > 0 {
				lines = append(lines, w.take())
			}
			w.skipping = false
		}
	}
	w.send(lines)
	return n, nil
}

// take returns the partial line, prefixed, and empties it.
func (w *lineWriter) take() string {
	line := w.prefix + string(w.partial)
	w.partial = w.partial[:0]
	return line
}

// send hands lines to the log and remembers the last non-blank ones.
func (w *lineWriter) send(lines []string) {
	if len(lines) == 0 {
		return
	}
	if w.log != nil {
		w.log.addLines(lines)
	}
	if w.tailMax <= 0 {
		return
	}
	// Only the last tailMax non-blank lines of this batch can stay in the tail.
	var last []string
	for i := len(lines) - 1; i >= 0 && len(last) < w.tailMax; i-- {
		if strings.TrimSpace(strings.TrimPrefix(lines[i], w.prefix)) != "" {
			last = append(last, lines[i])
		}
	}
	for i := len(last) - 1; i >= 0; i-- {
		line := last[i]
		if len(line) > 200 {
			line = line[:200] + "…"
		}
		if len(w.tail) == w.tailMax {
			copy(w.tail, w.tail[1:])
			w.tail = w.tail[:w.tailMax-1]
		}
		w.tail = append(w.tail, cleanLine(line))
	}
}

// Close sends an unfinished last line.
func (w *lineWriter) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.partial) > 0 && !w.skipping {
		w.send([]string{w.take()})
	}
	w.partial = nil
	w.skipping = false
	return nil
}

// Tail returns the last lines written.
func (w *lineWriter) Tail() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.tail...)
}
