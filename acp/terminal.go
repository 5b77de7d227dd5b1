package acp

import (
	"context"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// The agent's terminals (terminal/create and the requests on the terminal it names): the
// command runs through Options.Terminals, where the agent runs; its output is kept here,
// bounded, for terminal/output, and shown as it comes through the session's handler when
// that is a TerminalWatcher.

// Bounds of the terminals of one connection.
const (
	// MaxTerminalOutput is the most output one terminal keeps (1 MiB), whatever
	// outputByteLimit asked: past it, the oldest output is dropped (truncated).
	MaxTerminalOutput = 1 << 20
	// MaxTerminals is the most terminals one connection holds (running or not yet
	// released) at once; terminal/create is refused beyond.
	MaxTerminals = 64
	// MaxShownTerminalOutput is the most of a terminal's latest output a TerminalWatcher
	// is given (64 KiB).
	MaxShownTerminalOutput = 64 << 10
	// terminalShowEvery is how often, at most, a watcher is told of new output.
	terminalShowEvery = 100 * time.Millisecond
)

// TerminalRunner starts the commands of terminal/create where the agent runs (the runtime
// package's AgentCommand). With no runner, the client does not offer terminals.
type TerminalRunner interface {
	Start(ctx context.Context, cmd TerminalCommand) (RunningCommand, error)
}

// TerminalCommand is a command the agent asked to run.
type TerminalCommand struct {
	Command string      // a shell command line, as the agents send it
	Args    []string    // words to append to it
	Env     [][2]string // names and values, in the agent's order
	Cwd     string      // absolute, inside the workspace (checked lexically before Start)
}

// RunningCommand is a command a TerminalRunner started.
type RunningCommand interface {
	// Output is stdout and stderr together; it ends once the command has ended.
	Output() io.Reader
	// Wait waits for the command's end: its exit code, or -1 and the signal ("SIGKILL")
	// that ended it.
	Wait() (code int, signal string)
	// Kill ends the command and whatever it started, and returns once they are gone.
	Kill()
}

// TerminalWatcher is what a SessionHandler may also be: told, at most every 100 ms, of
// the output of the session's terminals, and once more when the command has ended.
type TerminalWatcher interface {
	TerminalOutput(id string, out TerminalSnapshot)
}

// TerminalSnapshot is a terminal's state: its latest output (at most
// MaxShownTerminalOutput bytes, cut at a character, valid UTF-8 but not sanitized), and
// how its command ended.
type TerminalSnapshot struct {
	Output    string
	Truncated bool // output was dropped before Output
	Exited    bool
	ExitCode  int    // when Exited and Signal is ""
	Signal    string // the signal that ended it ("SIGKILL"), when one did
	Killed    bool   // the client killed it (terminal/kill, a cancel, the user)
}

// terminalSeq numbers the terminals of every connection of the process: an id is never
// given twice, so that a tool call of an agent's earlier process still on screen never
// shows the output of a new terminal that took its terminal's id.
var terminalSeq atomic.Uint64

// terminalSet is a connection's terminals.
type terminalSet struct {
	mu   sync.Mutex
	byID map[string]*terminal
}

// terminal is one command an agent started.
type terminal struct {
	id      string
	session string
	run     RunningCommand
	limit   int
	watch   TerminalWatcher // nil: nobody shows it

	mu        sync.Mutex
	buf       []byte // the latest output, at most limit bytes
	truncated bool
	exited    bool
	code      int
	signal    string
	killed    bool
	lastShown time.Time
	showLater *time.Timer
	ended     chan struct{} // closed once exited and the output read
	released  chan struct{}
	once      sync.Once
}

// full reports whether the connection holds MaxTerminals already.
func (s *terminalSet) full() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.byID) >= MaxTerminals
}

// add registers t under a new id; false when the connection holds MaxTerminals already.
func (s *terminalSet) add(t *terminal) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byID == nil {
		s.byID = map[string]*terminal{}
	}
	if len(s.byID) >= MaxTerminals {
		return false
	}
	t.id = "term-" + strconv.FormatUint(terminalSeq.Add(1), 10)
	s.byID[t.id] = t
	return true
}

func (s *terminalSet) get(session, id string) *terminal {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.byID[id]
	if t == nil || t.session != session {
		return nil
	}
	return t
}

func (s *terminalSet) remove(id string) *terminal {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.byID[id]
	delete(s.byID, id)
	return t
}

// running lists the terminals of the session (every one when session is "") whose command
// has not ended.
func (s *terminalSet) running(session string) []*terminal {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*terminal
	for _, t := range s.byID {
		if session == "" || t.session == session {
			select {
			case <-t.ended:
			default:
				out = append(out, t)
			}
		}
	}
	return out
}

// follow reads the command's output until it ends, then waits for its exit.
func (t *terminal) follow() {
	buf := make([]byte, 32<<10)
	out := t.run.Output()
	for {
		n, err := out.Read(buf)
		if n > 0 {
			t.mu.Lock()
			t.buf = append(t.buf, buf[:n]...)
			if len(t.buf) > t.limit {
				t.buf = cutFront(t.buf, t.limit)
				t.truncated = true
			}
			t.mu.Unlock()
			t.show(false)
		}
		if err != nil {
			break
		}
	}
	code, signal := t.run.Wait()
	t.mu.Lock()
	t.exited, t.code, t.signal = true, code, signal
	t.mu.Unlock()
	// Shown before wait_for_exit is answered: the tool call the agent then ends shows the
	// whole output.
	t.show(true)
	close(t.ended)
}

// cutFront keeps the last limit bytes of b at most, starting at a character.
func cutFront(b []byte, limit int) []byte {
	if limit <= 0 {
		return b[:0]
	}
	start := len(b) - limit
	for i := 0; i < utf8.UTFMax && start < len(b) && !utf8.RuneStart(b[start]); i++ {
		start++
	}
	return append(b[:0], b[start:]...)
}

// text is output as valid UTF-8: an incomplete character at the end, which the next read
// may complete, is left out while the command runs.
func text(b []byte, running bool) string {
	if running {
		for i := 0; i < utf8.UTFMax && i < len(b); i++ {
			r, size := utf8.DecodeLastRune(b[:len(b)-i])
			if r != utf8.RuneError || size > 1 {
				b = b[:len(b)-i]
				break
			}
		}
	}
	return strings.ToValidUTF8(string(b), "\uFFFD") // a run of bad bytes: one U+FFFD
}

// snapshot is the terminal's state for terminal/output (max: limit) or a watcher.
func (t *terminal) snapshot(max int) TerminalSnapshot {
	t.mu.Lock()
	defer t.mu.Unlock()
	b, truncated := t.buf, t.truncated
	if len(b) > max {
		b, truncated = cutFront(append([]byte(nil), b...), max), true
	}
	out := text(b, !t.exited)
	if len(out) > max { // a bad byte became the 3 of U+FFFD
		out, truncated = string(cutFront([]byte(out), max)), true
	}
	return TerminalSnapshot{
		Output: out, Truncated: truncated,
		Exited: t.exited, ExitCode: t.code, Signal: t.signal, Killed: t.killed,
	}
}

// show tells the watcher of the terminal's state: at once when final, else at most every
// terminalShowEvery (what comes meanwhile is shown at the end of that wait).
func (t *terminal) show(final bool) {
	if t.watch == nil {
		return
	}
	t.mu.Lock()
	if !final {
		if t.showLater != nil {
			t.mu.Unlock()
			return
		}
		if wait := terminalShowEvery - time.Since(t.lastShown); wait > 0 {
			t.showLater = time.AfterFunc(wait, func() {
				t.mu.Lock()
				t.showLater = nil
				t.mu.Unlock()
				t.show(false)
			})
			t.mu.Unlock()
			return
		}
	} else if t.showLater != nil {
		t.showLater.Stop()
		t.showLater = nil
	}
	t.lastShown = time.Now()
	t.mu.Unlock()
	t.watch.TerminalOutput(t.id, t.snapshot(MaxShownTerminalOutput))
}

// kill ends the command, once, and returns once it is gone (at once when it had ended).
func (t *terminal) kill() {
	select {
	case <-t.ended:
		return
	default:
	}
	t.mu.Lock()
	t.killed = true
	t.mu.Unlock()
	t.run.Kill()
	<-t.ended
}

// release kills the command and forgets the terminal.
func (t *terminal) release() {
	t.once.Do(func() { close(t.released) })
	t.kill()
}
