package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"git.rickub.com/bots-garden/sidekicks/guard"
	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// Defaults of Options.
const (
	DefaultInitTimeout      = 15 * time.Second
	DefaultMaxAgentRequests = 256
)

// Options configure a connection. The zero value is usable.
type Options struct {
	// Workspace is where the agent's fs requests are answered; nil refuses them.
	Workspace Workspace
	// Terminals runs the agent's terminal commands (in Workspace); nil offers none.
	Terminals TerminalRunner
	// AllowWrite, when set, is asked before each fs/write_text_file the handler would
	// carry out, with the path as the agent gave it (absolute, inside the workspace): an
	// error refuses the write, and its message tells the agent why.
	AllowWrite func(path string) error
	// Trace receives every message sent and received; nil traces nothing.
	Trace *Trace
	// MaxLine is the longest message read, in bytes (DefaultMaxLine when 0). A longer
	// line is skipped while it is read, never held whole, and counted; the request it
	// answered fails with an *OversizeError.
	MaxLine int
	// InitTimeout bounds the wait for the answer to initialize (DefaultInitTimeout when
	// 0).
	InitTimeout time.Duration
	// StartActivity, when set, says when the agent last wrote on its stderr, and that
	// line: while it writes, Initialize waits longer than InitTimeout, up to MaxInitWait
	// (DefaultMaxInitWait when 0).
	StartActivity func() (last time.Time, line string)
	MaxInitWait   time.Duration
	// MaxAgentRequests bounds the agent's requests (permission, fs) being answered at
	// once (DefaultMaxAgentRequests when 0). Beyond it, the reading goroutine waits for
	// one to finish: a flooding agent is slowed by its own pipe.
	MaxAgentRequests int
	// ClientVersion is the version announced in clientInfo ("dev" when empty).
	ClientVersion string
	// Logf, when set, receives the connection's diagnostics (malformed lines, ignored
	// messages), at most a few per kind of problem and power of two of its count.
	Logf func(format string, args ...any)
	// Elicit answers the agent's elicitation/create requests and is told its
	// elicitation/complete notifications; nil cancels every elicitation.
	Elicit Elicitor
	// Rest, when set, is told how long the reader has read and handled the agent's lines
	// since it last rested or waited for one (at least restAfter), and says how long it
	// rests now (0: not at all): the agent meanwhile waits on its own pipe. That time
	// includes the waits inside the handling of a line (for a free request slot,
	// MaxAgentRequests): a rest should be bounded. The application has the
	// reader of a flooding agent rest while the user types, so that keys find a CPU.
	Rest func(busy time.Duration) time.Duration
	// Go starts the connection's goroutines: its reader ("acp reader <agent>"), its
	// writer ("acp writer <agent>") and those answering the agent's requests ("acp request
	// <agent>", "acp answer <agent>"). Nil starts them with a plain go statement; the
	// application passes a guard that restores the terminal and logs a panic.
	Go guard.Go
}

// Conn is the client side of one ACP connection: the agent's stdout is read on one
// goroutine that applies session updates to their handlers in order; calls wait for
// their answers; the agent's requests are answered on goroutines of their own; writes
// to the agent's stdin go through one writer goroutine, one message at a time.
//
// Conn reads and writes byte streams only: the process is its owner's. When the agent's
// output ends, every pending call fails with ErrAgentExited. An agent that leaves a
// grandchild holding its stdout open never reaches that end: the process owner kills
// the process group and calls Close, which unblocks everything.
type Conn struct {
	agent string
	// name is the agent's name as the trace writes it.
	name string
	opts Options
	lr   *lineReader
	// stdout and stdin are the agent's: read from, written to.
	stdout io.Reader
	stdin  io.Writer
	trace  *Trace

	outq *outbox
	sem  chan struct{}

	mu       sync.Mutex
	nextID   int64
	pending  map[int64]*pending
	ended    bool
	err      error
	info     *AgentInfo
	sessions map[string]*Session
	// reads bounds the bytes the fs reads being answered hold at once.
	reads *readBudget
	terms terminalSet
	// served is the agent's requests being answered, for $/cancel_request.
	served served

	done   chan struct{}
	once   sync.Once
	ctx    context.Context
	cancel context.CancelFunc

	// fast is the reading goroutine's reusable decoding of the hot path.
	fast fastMessage

	stats counters
}

// pending is a call waiting for its answer.
type pending struct {
	method string
	// ch receives the answer; nil once the caller stopped waiting.
	ch chan callResult
	// onResult, when set, runs on the reading goroutine before the answer is delivered,
	// so that what it registers (a new session) is in place for the next message.
	onResult func(result json.RawMessage) error
}

type callResult struct {
	result json.RawMessage
	err    error
}

// NewConn starts a connection to the agent named agent (the name is used in errors and
// the trace) over its stdout and stdin. It starts reading at once; call Initialize
// before anything else. When agentStdout or agentStdin is an io.Closer, Close closes it.
func NewConn(agent string, agentStdout io.Reader, agentStdin io.Writer, opts Options) *Conn {
	if opts.MaxLine <= 0 {
		opts.MaxLine = DefaultMaxLine
	}
	if opts.InitTimeout <= 0 {
		opts.InitTimeout = DefaultInitTimeout
	}
	if opts.MaxInitWait <= 0 {
		opts.MaxInitWait = DefaultMaxInitWait
	}
	if opts.MaxAgentRequests <= 0 {
		opts.MaxAgentRequests = DefaultMaxAgentRequests
	}
	if opts.ClientVersion == "" {
		opts.ClientVersion = "dev"
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := &Conn{
		agent:    agent,
		name:     traceName(agent),
		opts:     opts,
		lr:       newLineReader(agentStdout, opts.MaxLine),
		stdout:   agentStdout,
		stdin:    agentStdin,
		trace:    opts.Trace,
		outq:     newOutbox(),
		sem:      make(chan struct{}, opts.MaxAgentRequests),
		reads:    newReadBudget(MaxReadInFlight),
		pending:  make(map[int64]*pending),
		sessions: make(map[string]*Session),
		done:     make(chan struct{}),
		ctx:      ctx,
		cancel:   cancel,
	}
	opts.Go.Start("acp writer "+agent, c.writeLoop)
	opts.Go.Start("acp reader "+agent, c.readLoop)
	return c
}

// Agent returns the agent's name, as given to NewConn.
func (c *Conn) Agent() string { return c.agent }

// Done is closed when the connection has ended: the agent's output ended, reading
// failed, or Close was called.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err says why the connection ended (ErrAgentExited, ErrClosed, or a read error); nil
// while it has not.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Close ends the connection: every pending call fails with ErrClosed, pending permission
// requests are cancelled, and the agent's stdin and stdout are closed when they are
// io.Closers (which unblocks a read or write in progress). It does not stop the process.
func (c *Conn) Close() error {
	c.finish(ErrClosed)
	if cl, ok := c.stdin.(io.Closer); ok {
		cl.Close()
	}
	if cl, ok := c.stdout.(io.Closer); ok {
		cl.Close()
	}
	return nil
}

// finish ends the connection once, failing every pending call with err.
func (c *Conn) finish(err error) {
	c.once.Do(func() {
		c.mu.Lock()
		c.ended = true
		c.err = err
		pend := c.pending
		c.pending = nil
		c.mu.Unlock()
		c.cancel()
		close(c.done)
		for _, p := range pend {
			if p.ch != nil {
				p.ch <- callResult{err: fmt.Errorf("waiting for the answer to %s: %w", p.method, err)}
			}
		}
	})
}

// isDone reports whether the connection has ended.
func (c *Conn) isDone() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// errReaderStopped ends a connection whose reading goroutine stopped on a panic (which
// its guard recovered): nothing reads the agent any more, so nothing would answer the
// pending calls.
var errReaderStopped = errors.New("reading from the agent stopped on an internal error")

// readLoop reads the agent's output until it ends.
func (c *Conn) readLoop() {
	// Every return below comes after the connection has ended (finish runs once): this
	// ends it only when the loop stops on a panic.
	defer c.finish(errReaderStopped)
	rested := time.Now() // when the reader last rested, or waited for the agent
	for {
		var before time.Time
		if c.opts.Rest != nil {
			if before = time.Now(); before.Sub(rested) >= restAfter {
				if d := c.opts.Rest(before.Sub(rested)); d > 0 {
					time.Sleep(d)
					before = time.Now()
				}
				rested = before
			}
		}
		ln, err := c.lr.next()
		if c.opts.Rest != nil && time.Since(before) >= restAfter {
			rested = time.Now() // it waited for the agent's next line
		}
		if c.isDone() {
			return
		}
		if err != nil {
			if err == io.EOF {
				c.finish(ErrAgentExited)
			} else {
				c.finish(fmt.Errorf("reading from the agent: %w", err))
			}
			return
		}
		if ln.skipped {
			c.handleSkipped(ln)
			continue
		}
		c.trace.received(c.name, ln.data)
		c.handleLine(ln.data)
	}
}

// restAfter is how long the reader reads and handles lines without waiting for one before
// it asks Options.Rest.
const restAfter = time.Millisecond

// session returns the open session id, or nil.
func (c *Conn) session(id string) *Session {
	c.mu.Lock()
	s := c.sessions[id]
	c.mu.Unlock()
	return s
}

// sessionBytes is session for an id still in the line's bytes (no copy).
func (c *Conn) sessionBytes(id []byte) *Session {
	c.mu.Lock()
	s := c.sessions[string(id)]
	c.mu.Unlock()
	return s
}

// logf passes a diagnostic to Options.Logf.
func (c *Conn) logf(format string, args ...any) {
	if c.opts.Logf != nil {
		c.opts.Logf("acp %s: "+format, append([]any{safetext.Snippet(c.agent, 100)}, args...)...)
	}
}
