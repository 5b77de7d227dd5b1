package agentstack

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"
	"sync"
	"time"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/guard"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/safetext"
	"git.rickub.com/bots-garden/sidekicks/store"
	sdk "github.com/coder/acp-go-sdk"
)

// This file wires the agents' processes (runtime), the ACP client (acp) and the
// conversations (chat): a supervisor whose processes come up with an initialized ACP
// connection, and the adapters that give chat's Service what it asks for.

// Options say how Sidekicks starts and talks to its agents.
type Options struct {
	// Trace receives every ACP message of every connection the supervisor makes (nil:
	// none): the application gives one for all its agents, ask one for its agent.
	Trace *acp.Trace
	// InitTimeout bounds the agent's answer to initialize (acp.DefaultInitTimeout when 0)
	// while it is silent; MaxInitWait while it writes on its stderr
	// (acp.DefaultMaxInitWait when 0).
	InitTimeout time.Duration
	MaxInitWait time.Duration
	// Elicit answers the agents' elicitations (the screen's form dialog); nil announces
	// no elicitation capability.
	Elicit acp.Elicitor
	// Logs receives the agents' logs (kept in memory when nil).
	Logs *runtime.Logs
	// StopGrace and AfterStopTimeout are the supervisor's (its defaults when zero).
	StopGrace        runtime.StopGrace
	AfterStopTimeout time.Duration
	// Conns, when set, is told each agent's connection (nil: not kept).
	Conns *Conns
	// ClientVersion is Sidekicks' version, announced to the agents in initialize.
	ClientVersion string
	// ReaderRest is each connection's acp.Options.Rest: how long its reader rests after
	// taking in an agent's lines without a wait for so long (nil: never).
	ReaderRest func(busy time.Duration) time.Duration
	// Go starts every long-lived goroutine of the stack: the processes' and the ACP
	// connections', the conversations' turns, the history's writer (a plain go when nil).
	// The application gives its screen's guard, which restores the terminal on a panic.
	Go guard.Go
	// WrapHandler wraps the handler of each session the conversations open (chat's
	// ServiceOptions.WrapHandler), after the stack's own.
	WrapHandler func(k chat.Key, agent string, h chat.SessionHandler) chat.SessionHandler
	// AllowWrite, when set, is asked before each write an agent makes through
	// fs/write_text_file (acp.Options.AllowWrite): an error refuses it and tells the agent
	// why. Nil leaves writes to the workspace's protections and the permission answers.
	AllowWrite func(agent, path string) error
	// ErrorHint, when set, is said on a line of its own after the error a turn of a
	// conversation ends with (but not after "shutting down"): where the user looks next,
	// the agent's log in the application.
	ErrorHint string
	// OwnFiles are Sidekicks' own files (see OwnFiles): every write an agent makes through
	// the client to one of them is refused, and the agent told which file it is.
	OwnFiles runtime.OwnFiles
	// OwnFileRefused, when set, is told each such refusal: the agent, the path as the
	// agent gave it, and which file it is (the refusal is in the agent's log too).
	OwnFileRefused func(agent, path string, kind runtime.OwnKind)
	// HistoryStatus, when set, is told when the history's entries cannot be written and
	// when they are again (on the history writer's goroutine; it must not wait).
	HistoryStatus func(HistoryStatus)
	// HistoryWriter sets the history writer's retries and bound (store.WriterOptions; its
	// Go and Status are the stack's).
	HistoryWriter store.WriterOptions
	// SessionOpened, when set, is called with each session an agent opens (loaded after
	// session/load), before it serves a turn; its error fails the session (modes.go).
	SessionOpened func(agent string, s *acp.Session, loaded bool) error
	// TurnEnded, when set, is told each turn's end (chat's ServiceOptions.TurnEnded).
	TurnEnded func(k chat.Key, r chat.TurnResult)
}

// Conns holds the ACP connection of each running agent, for the Agent status view:
// what the agent said about itself, and what it sent that could not be used.
type Conns struct {
	mu sync.Mutex
	m  map[string]*acp.Conn
}

func NewConns() *Conns { return &Conns{m: make(map[string]*acp.Conn)} }

func (r *Conns) set(name string, c *acp.Conn) {
	r.mu.Lock()
	r.m[name] = c
	r.mu.Unlock()
}

// Get returns the connection of the agent's running process, nil when none runs.
func (r *Conns) Get(name string) *acp.Conn {
	r.mu.Lock()
	c := r.m[name]
	r.mu.Unlock()
	if c == nil {
		return nil
	}
	select {
	case <-c.Done():
		return nil
	default:
		return c
	}
}

// exitWait bounds how long a failed call waits for the agent's process to be reaped, so
// that the error can say how it ended.
const exitWait = 3 * time.Second

// NewSupervisor returns the supervisor of the configuration's agents: each process it
// starts gets an ACP connection, initialized before the agent is ready.
func NewSupervisor(cfg *config.Config, o Options) *runtime.Supervisor {
	return runtime.New(runtime.Options{
		Agents:           cfg.Agents,
		MaxRunning:       cfg.Limits.MaxRunningAgents,
		IdleAfter:        cfg.Limits.StopIdleAgentsAfter,
		Logs:             o.Logs,
		Connect:          o.connect,
		StopGrace:        o.StopGrace,
		AfterStopTimeout: o.AfterStopTimeout,
		Go:               o.Go,
	})
}

// connect is the supervisor's Connect hook: ACP over the process's pipes, then initialize.
// An error makes the supervisor stop the process.
func (o Options) connect(ctx context.Context, a config.Agent, p *runtime.Process) (runtime.Conn, error) {
	ws := runtime.NewWorkspace(a, runtime.WorkspaceOptions{Own: o.OwnFiles, ForAgent: true})
	var logf func(string, ...any)
	if o.Logs != nil {
		log := o.Logs.Agent(a.Name)
		logf = func(format string, args ...any) { log.Printf("acp: "+format, args...) }
	}
	initTimeout := o.InitTimeout
	if initTimeout <= 0 {
		initTimeout = acp.DefaultInitTimeout
	}
	var allowWrite func(string) error
	if o.AllowWrite != nil {
		allowWrite = func(path string) error { return o.AllowWrite(a.Name, path) }
	}
	refused := func(rel string, kind runtime.OwnKind) {
		p := path.Join(ws.Root(), rel)
		if logf != nil {
			logf("refused a write to %s: one of Sidekicks' own files (%s)", p, kind.Reason(i18n.English))
		}
		if o.OwnFileRefused != nil {
			o.OwnFileRefused(a.Name, p, kind)
		}
	}
	c := acp.NewConn(a.Name, p.Stdout, p.Stdin, acp.Options{
		Workspace:     acpWorkspace{ws, refused},
		Terminals:     o.terminals(a),
		AllowWrite:    allowWrite,
		Trace:         o.Trace,
		InitTimeout:   initTimeout,
		StartActivity: p.StderrActivity,
		MaxInitWait:   o.MaxInitWait,
		Elicit:        o.Elicit,
		ClientVersion: o.ClientVersion,
		Rest:          o.ReaderRest,
		Logf:          logf,
		Go:            o.Go,
	})
	ictx, cancel := context.WithTimeout(ctx, max(initTimeout, o.MaxInitWait, acp.DefaultMaxInitWait)+time.Second)
	defer cancel()
	info, err := c.Initialize(ictx)
	if err != nil {
		err = fmt.Errorf("initializing ACP: %w", err)
		if errors.Is(err, acp.ErrAgentExited) {
			// The process is ending: how it ends says why (runtime.Options.Connect).
			_ = c.Close()
			return nil, err
		}
		// A cause of its own, which the exit that closing the connection causes must
		// not mask: the supervisor records it, then closes.
		return c, err
	}
	if o.Conns != nil {
		o.Conns.set(a.Name, c)
	}
	return &agentConn{
		conn: c, ws: ws, proc: p, logf: logf, opened: o.SessionOpened,
		info: chat.ConnInfo{Cwd: ws.Root(), LoadSession: info.LoadSession, EmbeddedContext: info.EmbeddedContext,
			Resume: c.SessionCaps().Resume},
		goStart: o.Go.Start,
	}, nil
}

// acpWorkspace gives the runtime's workspace to the ACP fs handlers, turning the
// runtime's refusals into the acp package's, so that the agent is told why. A write to one
// of Sidekicks' own files is told to refused.
type acpWorkspace struct {
	runtime.Workspace
	refused func(rel string, kind runtime.OwnKind)
}

func (w acpWorkspace) ReadFile(ctx context.Context, rel string, max int64) ([]byte, error) {
	b, err := w.Workspace.ReadFile(ctx, rel, max)
	return b, refusal(err)
}

func (w acpWorkspace) ReadLines(ctx context.Context, rel string, line, limit int, max int64) ([]byte, error) {
	b, err := w.Workspace.ReadLines(ctx, rel, line, limit, max)
	return b, refusal(err)
}

func (w acpWorkspace) WriteFile(ctx context.Context, rel string, data []byte) error {
	err := w.Workspace.WriteFile(ctx, rel, data)
	if own := runtime.OwnFileOf(err); own != nil {
		w.refused(rel, own.Kind)
	}
	return refusal(err)
}

func refusal(err error) error {
	switch {
	case errors.Is(err, runtime.ErrOutside):
		return fmt.Errorf("%w: %w", acp.ErrOutsideWorkspace, err)
	case errors.Is(err, runtime.ErrProtected):
		return fmt.Errorf("%w: %w", acp.ErrProtected, err)
	}
	return err
}

// agentConn is one agent process's ACP connection: the supervisor's Conn and chat's
// AgentConn.
type agentConn struct {
	conn *acp.Conn
	ws   runtime.Workspace
	proc *runtime.Process
	info chat.ConnInfo
	// logf writes to the agent's log (nil: no log).
	logf func(format string, args ...any)
	// opened is Options.SessionOpened.
	opened func(agent string, s *acp.Session, loaded bool) error
	// goStart starts a goroutine (Options.Go).
	goStart func(name string, f func())
}

func (c *agentConn) Close() error { return c.conn.Close() }

func (c *agentConn) Info() chat.ConnInfo { return c.info }

func (c *agentConn) Files() chat.FileSource { return newWorkspaceFiles(c.ws) }

func (c *agentConn) NewSession(ctx context.Context, cwd string, h chat.SessionHandler) (chat.AgentSession, error) {
	s, err := c.conn.NewSession(ctx, cwd, h)
	if err == nil {
		err = c.sessionOpened(s, false)
	}
	if err != nil {
		return nil, c.failed("session/new", err)
	}
	s.WatchTerminals(terminalWatcher{h})
	return &agentSession{Session: s, c: c}, nil
}

func (c *agentConn) LoadSession(ctx context.Context, id, cwd string, h chat.SessionHandler) (chat.AgentSession, error) {
	s, err := c.conn.LoadSession(ctx, id, cwd, h)
	if err == nil {
		err = c.sessionOpened(s, true)
	}
	if err != nil {
		return nil, c.failed("session/load", err)
	}
	s.WatchTerminals(terminalWatcher{h})
	return &agentSession{Session: s, c: c}, nil
}

// failed is what a call of method that failed with err returns: err, with how the
// process ended when the agent went away (exited). The failure goes to the agent's log
// too, whole (an agent's error with its data), beside the agent's own stderr, where the
// error shown on screen sends the user; a cancelled call is not a failure.
func (c *agentConn) failed(method string, err error) error {
	err = c.exited(err)
	if c.logf != nil && !errors.Is(err, context.Canceled) {
		c.logf("%s failed: %v", method, err)
	}
	return err
}

// exited adds how the process ended to an error that says the agent went away. When
// Sidekicks stopped the process on purpose, that explains any failure of the call (the
// prompt may have found the agent's stdin closed already), and the error says so with
// chat.ErrAgentRestarted or chat.ErrAgentStopped.
func (c *agentConn) exited(err error) error {
	stopped := stoppedError(c.proc.StopReason())
	if errors.Is(err, context.Canceled) ||
		stopped == nil && !errors.Is(err, acp.ErrAgentExited) && !errors.Is(err, acp.ErrClosed) {
		return err
	}
	t := time.NewTimer(exitWait)
	defer t.Stop()
	select {
	case <-c.proc.Done():
	case <-t.C:
		if stopped != nil {
			return fmt.Errorf("%w: %w", stopped, err)
		}
		return err
	}
	// The process ended: that is why the call failed, whichever came first of the reader
	// seeing the end of its output (ErrAgentExited) and the supervisor closing the
	// connection of a process that ended (ErrClosed).
	return &ExitError{err: acp.ErrAgentExited, status: c.proc.Wait(), stderr: c.proc.StderrTail(),
		stopped: stoppedError(c.proc.StopReason())}
}

// stoppedError is chat's error for a process stopped on purpose for reason (see
// runtime.Process.StopReason); nil when it was not.
func stoppedError(reason string) error {
	switch reason {
	case "":
		return nil
	case runtime.ReasonRestarting:
		return chat.ErrAgentRestarted
	}
	return chat.ErrAgentStopped
}

// agentSession is an ACP session as chat's Service uses it.
type agentSession struct {
	*acp.Session
	c *agentConn
}

// The service tells a session when a turn starts (BeginTurn), so that a cancel pressed
// before the prompt has left is sent after it; the embedded acp.Session provides it.
var _ interface{ BeginTurn() } = (*agentSession)(nil)

func (s *agentSession) Prompt(ctx context.Context, blocks []sdk.ContentBlock) (sdk.StopReason, error) {
	stop, err := s.Session.Prompt(ctx, blocks)
	if err != nil {
		return stop, s.c.failed("session/prompt", err)
	}
	if stop == sdk.StopReasonCancelled {
		// An agent that Sidekicks stops (its stdin closed first) may end the turn as
		// cancelled before it exits: the turn was stopped or restarted, which chat says
		// as such, unless the user had cancelled it.
		if stopped := stoppedError(s.c.proc.StopReason()); stopped != nil {
			return stop, stopped
		}
	}
	return stop, nil
}

// ExitError is an agent's call that failed because its process ended.
type ExitError struct {
	err    error
	status runtime.ExitStatus
	stderr []string
	// stopped is chat.ErrAgentRestarted or chat.ErrAgentStopped when Sidekicks stopped the
	// process on purpose; nil when it ended by itself.
	stopped error
}

func (e *ExitError) Error() string {
	return fmt.Sprintf("%v (%s)", e.err, e.status)
}

// Unwrap gives the acp package's error, and chat's when the process was stopped on purpose.
func (e *ExitError) Unwrap() []error {
	if e.stopped != nil {
		return []error{e.err, e.stopped}
	}
	return []error{e.err}
}

// maxStderrShown is how many of the last lines of a crashed agent's stderr an error shows.
const maxStderrShown = 3

// DescribeError says what went wrong for the user, in lang: the acp package's words, how
// the process ended and the last lines of its stderr when it ended, and the runtime's
// errors, on one line; then, on lines of their own, what the agent itself said about the
// error beyond that (its message, the error's data: acp.Details). Everything an agent
// wrote is sanitized.
func DescribeError(err error, lang i18n.Lang) string {
	var exit *ExitError
	var late *runtime.EngineTimeoutError
	var ws *runtime.WorkspaceError
	switch {
	case errors.As(err, &late):
		return safetext.Line(late.Text(lang))
	case errors.As(err, &exit):
		msg := acp.Describe(exit.err, lang)
		msg += " (" + ExitText(exit.status, lang) + ")"
		if tail := exit.stderr[max(0, len(exit.stderr)-maxStderrShown):]; len(tail) > 0 {
			msg += ": " + strings.Join(tail, " / ")
		}
		return safetext.Line(msg)
	case errors.As(err, &ws):
		return safetext.Line(catalogue.Text(lang, mWorkspaceMissing, config.ShellWord(ws.Dir)))
	case errors.Is(err, runtime.ErrProgramNotFound):
		return safetext.Line(catalogue.Text(lang, mProgramNotFound, err.Error()))
	case errors.Is(err, runtime.ErrUnknownAgent):
		return safetext.Line(catalogue.Text(lang, mUnknownAgent, err.Error()))
	case errors.Is(err, runtime.ErrShuttingDown):
		return catalogue.Text(lang, mShuttingDown)
	}
	return safetext.Line(acp.Describe(err, lang)) + detailLines(err)
}

// detailLines is what the agent itself said about err (acp.Details), each on a line of
// its own after the description, indented by four spaces (twice a wrapped line's hanging
// indent on screen, so that they read as apart from it); "" when it said nothing more.
func detailLines(err error) string {
	var b strings.Builder
	for _, d := range acp.Details(err) {
		b.WriteString("\n    ")
		b.WriteString(d)
	}
	return b.String()
}

// describeWithHint is DescribeError followed by the hint on a line of its own, except
// after a refusal because Sidekicks is shutting down, which nothing more explains.
func describeWithHint(err error, lang i18n.Lang, hint string) string {
	msg := DescribeError(err, lang)
	if hint != "" && !errors.Is(err, runtime.ErrShuttingDown) {
		msg += "\n" + hint
	}
	return msg
}

// ExitText says how a process ended, in lang.
func ExitText(s runtime.ExitStatus, lang i18n.Lang) string {
	if s.Signal != "" {
		return catalogue.Text(lang, mExitSignal, s.Signal)
	}
	return catalogue.Text(lang, mExitCode, s.Code)
}

// Pool gives the supervisor to chat's Service.
type Pool struct{ Sup *runtime.Supervisor }

// Acquire starts the agent when needed and leases its connection for one turn.
func (a Pool) Acquire(ctx context.Context, agent string) (chat.Lease, error) {
	l, err := a.Sup.Acquire(ctx, agent)
	if err != nil {
		return nil, err
	}
	return supervisorLease{l}, nil
}

type supervisorLease struct{ l *runtime.Lease }

func (l supervisorLease) Conn() chat.AgentConn {
	if c, ok := l.l.Conn().(*agentConn); ok && c != nil {
		return c
	}
	return nil
}

func (l supervisorLease) Release() { l.l.Release() }
