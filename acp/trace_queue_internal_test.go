package acp

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// gateWriter is a trace file that takes nothing until its gate opens: the trace's writer
// stays inside Write, as on a disk that cannot keep up.
type gateWriter struct {
	entered chan struct{} // signalled at each Write
	gate    chan struct{} // closed to let writes through
	wrote   chan struct{} // signalled after each Write
	err     error

	mu     sync.Mutex
	buf    bytes.Buffer
	closed bool
}

func newGate() *gateWriter {
	return &gateWriter{entered: make(chan struct{}, 1), gate: make(chan struct{}), wrote: make(chan struct{}, 1)}
}

func (g *gateWriter) Write(p []byte) (int, error) {
	select {
	case g.entered <- struct{}{}:
	default:
	}
	<-g.gate
	g.mu.Lock()
	if g.err == nil {
		g.buf.Write(p)
	}
	g.mu.Unlock()
	select {
	case g.wrote <- struct{}{}:
	default:
	}
	if g.err != nil {
		return 0, g.err
	}
	return len(p), nil
}

func (g *gateWriter) Close() error {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
	return nil
}

func (g *gateWriter) isClosed() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.closed
}

func (g *gateWriter) text() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.buf.String()
}

// wait waits for a signal on ch, failing the test after a deadline.
func wait(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s did not happen within 10s", what)
	}
}

// traceLineRE is one line of a trace: the timestamp, the agent, the arrow, the rest.
var traceLineRE = regexp.MustCompile(`^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}(?:Z|[+-]\d\d:\d\d)) (\S+) (->|<-|!!) (.*)$`)

// traceLines splits a trace into its lines, failing on one that is not a trace line.
func traceLines(t *testing.T, text string) [][]string {
	t.Helper()
	if text != "" && !strings.HasSuffix(text, "\n") {
		t.Fatalf("the trace does not end with a whole line: %.80q", text[max(0, len(text)-80):])
	}
	var out [][]string
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if l == "" && text == "" {
			break
		}
		m := traceLineRE.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("not a trace line: %.100q", l)
		}
		out = append(out, m[1:])
	}
	return out
}

// dropMarker matches the line that says how many lines were dropped.
var dropMarker = regexp.MustCompile(`^dropped (\d+) lines \(the trace file could not keep up\)$`)

func TestTraceFullQueueDropsAndCounts(t *testing.T) {
	g := newGate()
	var mu sync.Mutex
	var said []int64
	tr := newTrace(g, TraceOptions{QueueLines: 8, Dropped: func(n int64) {
		mu.Lock()
		said = append(said, n)
		mu.Unlock()
	}})
	tr.sent("alice", []byte(`{"n":0}`))
	wait(t, g.entered, "the writer's first write")
	// The writer is stuck on line 0: 8 lines fill the queue, the next 5 are dropped, and
	// none of the 13 calls waits for the file.
	done := make(chan struct{})
	go func() {
		for i := 1; i <= 13; i++ {
			tr.received("bob", []byte(fmt.Sprintf(`{"n":%d}`, i)))
		}
		close(done)
	}()
	wait(t, done, "tracing 13 lines while the file is stuck")
	if n := tr.Dropped(); n != 5 {
		t.Errorf("Dropped() = %d while the file is stuck, want 5", n)
	}
	close(g.gate)
	wait(t, g.wrote, "the first write")
	tr.Flush()
	tr.received("bob", []byte(`{"n":"after"}`))
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	lines := traceLines(t, g.text())
	var got []string
	for _, l := range lines {
		got = append(got, l[1]+" "+l[2]+" "+l[3])
	}
	want := []string{`alice -> {"n":0}`}
	for i := 1; i <= 8; i++ {
		want = append(want, fmt.Sprintf(`bob <- {"n":%d}`, i))
	}
	want = append(want, `- !! dropped 5 lines (the trace file could not keep up)`, `bob <- {"n":"after"}`)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the trace:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	mu.Lock()
	defer mu.Unlock()
	if len(said) != 1 || said[0] != 5 {
		t.Errorf("Dropped was told %v, want [5]", said)
	}
	if n := tr.Dropped(); n != 5 {
		t.Errorf("Dropped() = %d after the marker, want 5", n)
	}
	if !g.isClosed() {
		t.Error("Close did not close the file")
	}
}

func TestTraceQueueIsBoundedInBytes(t *testing.T) {
	g := newGate()
	tr := newTrace(g, TraceOptions{QueueBytes: 300})
	tr.sent("a", []byte("first"))
	wait(t, g.entered, "the writer's first write")
	// Nothing waits: a line longer than the whole queue is taken.
	big := strings.Repeat("b", 1000)
	tr.sent("a", []byte(big))
	// Now the queue holds more than its bytes: every line is dropped.
	tr.sent("a", []byte("small"))
	tr.sent("a", []byte(big))
	if n := tr.Dropped(); n != 2 {
		t.Errorf("Dropped() = %d, want 2", n)
	}
	close(g.gate)
	tr.Flush()
	tr.sent("a", []byte("resumed"))
	tr.Close()
	var msgs []string
	for _, l := range traceLines(t, g.text()) {
		msgs = append(msgs, l[3])
	}
	want := []string{"first", big, "dropped 2 lines (the trace file could not keep up)", "resumed"}
	if strings.Join(msgs, "\n") != strings.Join(want, "\n") {
		t.Errorf("the trace's messages: %.200q", msgs)
	}
}

// TestTraceLinesNeverInterleave writes from many goroutines at once, with messages
// longer than the writer's buffer, and checks that every line is whole and each writer's
// lines are in its order. A trace that waits for room (ask's) has every line; one that
// drops (the application's, here with a small queue so that lines are both written and
// dropped) has, on file, the lines written plus the dropped ones its markers count.
func TestTraceLinesNeverInterleave(t *testing.T) {
	for _, wait := range []bool{true, false} {
		t.Run(fmt.Sprintf("wait=%v", wait), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "trace.log")
			var mu sync.Mutex
			var told int64
			tr := OpenTrace(path)
			if !wait {
				var err error
				tr, err = OpenTraceWith(path, TraceOptions{QueueLines: 16, Dropped: func(n int64) {
					mu.Lock()
					told += n
					mu.Unlock()
				}})
				if err != nil {
					t.Fatal(err)
				}
			}
			const writers, each = 8, 1000
			var wg sync.WaitGroup
			for w := range writers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					traceFromWriter(tr, w, each)
				}()
			}
			wg.Wait()
			if err := tr.Close(); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			onFile, dropped, skipped := checkWriterLines(t, traceLines(t, string(data)), writers)
			mu.Lock()
			defer mu.Unlock()
			t.Logf("%d lines on file, %d dropped", onFile, dropped)
			switch {
			case wait && (onFile != writers*each || skipped != writers || dropped != 0 || tr.Dropped() != 0):
				t.Errorf("%d lines, %d skipped markers, %d dropped on file; want every line", onFile, skipped, dropped)
			case !wait && (onFile+skipped+dropped != writers*(each+1) || told != dropped || tr.Dropped() != dropped):
				t.Errorf("%d lines on file and %d said dropped (%d told, %d counted), want %d in all",
					onFile+skipped, dropped, told, tr.Dropped(), writers*(each+1))
			}
		})
	}
}

// traceFromWriter traces each messages of writer w, alternately sent and received, every
// 200th over the writer's buffer, then the marker of a skipped line.
func traceFromWriter(tr *Trace, w, each int) {
	agent := traceName(fmt.Sprintf("agent %d", w))
	for i := range each {
		msg := fmt.Sprintf(`{"w":%d,"i":%d,"pad":"%s"}`, w, i, strings.Repeat("p", padOf(i)))
		if i%2 == 0 {
			tr.sent(agent, []byte(msg))
		} else {
			tr.received(agent, []byte(msg))
		}
	}
	tr.skipped(agent, 20<<20, 16<<20)
}

func padOf(i int) int {
	if i%200 == 0 {
		return 300 << 10
	}
	return 10
}

// checkWriterLines checks the lines traceFromWriter wrote and returns how many messages
// are on file, how many lines the drop markers count, and how many skipped markers there
// are.
func checkWriterLines(t *testing.T, lines [][]string, writers int) (onFile, dropped, skipped int64) {
	t.Helper()
	next := make([]int, writers)
	var last string
	for _, l := range lines {
		if l[0] < last {
			t.Errorf("time goes back: %s after %s", l[0], last)
		}
		last = l[0]
		switch {
		case l[2] == "!!":
			m := dropMarker.FindStringSubmatch(l[3])
			if l[1] != "-" || m == nil {
				t.Fatalf("marker %q %q", l[1], l[3])
			}
			n, _ := strconv.ParseInt(m[1], 10, 64)
			dropped += n
			continue
		case strings.HasPrefix(l[3], "!skipped "):
			if l[2] != "<-" || l[3] != "!skipped 20971520 bytes (over the 16777216-byte limit)" {
				t.Errorf("marker %q %q", l[2], l[3])
			}
			skipped++
			continue
		}
		var w, i int
		var pad string
		if _, err := fmt.Sscanf(l[3], `{"w":%d,"i":%d,"pad":"%s`, &w, &i, &pad); err != nil {
			t.Fatalf("message %.80q: %v", l[3], err)
		}
		arrow := "<-"
		if i%2 == 0 {
			arrow = "->"
		}
		if w < 0 || w >= writers || l[1] != fmt.Sprintf("agent_%d", w) || l[2] != arrow || pad != strings.Repeat("p", padOf(i))+`"}` {
			t.Fatalf("line of writer %d, message %d, is not whole", w, i)
		}
		if i < next[w] {
			t.Fatalf("writer %d: message %d after message %d", w, i, next[w]-1)
		}
		next[w] = i + 1
		onFile++
	}
	return onFile, dropped, skipped
}

func TestTraceWaitModeNeverDrops(t *testing.T) {
	g := newGate()
	tr := newTrace(g, TraceOptions{QueueLines: 2, Wait: true})
	tr.sent("a", []byte("0"))
	wait(t, g.entered, "the writer's first write")
	done := make(chan struct{})
	go func() {
		for i := 1; i <= 10; i++ {
			tr.sent("a", []byte(strconv.Itoa(i)))
		}
		close(done)
	}()
	select {
	case <-done:
		t.Fatal("10 lines were taken by a queue of 2 while the file was stuck")
	case <-g.wrote:
		t.Fatal("the gate let a write through")
	default:
	}
	close(g.gate)
	wait(t, done, "the waiting lines")
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, l := range traceLines(t, g.text()) {
		msgs = append(msgs, l[3])
	}
	if strings.Join(msgs, " ") != "0 1 2 3 4 5 6 7 8 9 10" || tr.Dropped() != 0 {
		t.Errorf("the trace holds %q, %d dropped; want every line", msgs, tr.Dropped())
	}
}

func TestTraceLinesReachTheFileWithoutFlush(t *testing.T) {
	g := newGate()
	close(g.gate)
	tr := newTrace(g, TraceOptions{})
	defer tr.Close()
	tr.received("alice", []byte(`{"jsonrpc":"2.0"}`))
	wait(t, g.wrote, "the line's write")
	if l := traceLines(t, g.text()); len(l) != 1 || l[0][3] != `{"jsonrpc":"2.0"}` {
		t.Errorf("the file holds %q", g.text())
	}
}

func TestTraceWriteErrorStopsIt(t *testing.T) {
	g := newGate()
	g.err = errors.New("disk full")
	close(g.gate)
	failed := make(chan error, 2)
	tr := newTrace(g, TraceOptions{Failed: func(err error) { failed <- err }})
	tr.sent("a", []byte("1"))
	select {
	case err := <-failed:
		if err != g.err {
			t.Errorf("Failed told %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Failed was not told within 10s")
	}
	tr.sent("a", []byte("2"))
	tr.Flush()
	if err := tr.Close(); err != g.err {
		t.Errorf("Close() = %v, want the write error", err)
	}
	if len(failed) != 0 || !g.isClosed() {
		t.Errorf("Failed told again, or the file not closed (%v)", g.isClosed())
	}
}

func TestTraceCloseNeverHangsOnAStuckFile(t *testing.T) {
	g := newGate()
	defer close(g.gate)
	tr := newTrace(g, TraceOptions{})
	tr.closeWait = 100 * time.Millisecond
	tr.sent("a", []byte("1"))
	wait(t, g.entered, "the writer's first write")
	done := make(chan error, 1)
	go func() {
		tr.Flush()
		done <- tr.Close()
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Error("Close on a stuck file returned no error")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close waited for a stuck file")
	}
	tr.sent("a", []byte("after close")) // no effect, and no wait
}

// A path that cannot be written is refused at once, with why: a missing folder, a
// directory, and a named pipe nobody reads (which a plain open would wait on forever).
func TestOpenTraceWithSaysWhy(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{filepath.Join(dir, "missing", "t.log"), dir, fifo} {
		done := make(chan struct{})
		go func() {
			defer close(done)
			tr, err := OpenTraceWith(path, TraceOptions{})
			if tr != nil || err == nil {
				t.Errorf("OpenTraceWith(%s) = %v, %v", path, tr, err)
				tr.Close()
			}
		}()
		wait(t, done, "opening "+filepath.Base(path))
	}
}
