package agentstack

import (
	"context"
	"errors"
	"fmt"
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
	// InitTimeout bounds the agent's answer to initialize (acp.DefaultInitTimeout when 0).
	InitTimeout time.Duration
	// Logs receives the agents' logs (kept in memory when nil).
	Logs *runtime.Logs
	// StopGrace and AfterStopTimeout are the supervisor's (its defaults when zero).
	StopGrace        runtime.StopGrace
	AfterStopTimeout time.Duration
	// Conns, when set, is told each agent's connection (nil: not kept).
	Conns *Conns
	// ClientVersion is Sidekicks' version, announced to the agents in initialize.
	ClientVersion string
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
	ws := runtime.WorkspaceFor(a)
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
	c := acp.NewConn(a.Name, p.Stdout, p.Stdin, acp.Options{
		Workspace:     acpWorkspace{ws},
		AllowWrite:    allowWrite,
		Trace:         o.Trace,
		InitTimeout:   initTimeout,
		ClientVersion: o.ClientVersion,
		Logf:          logf,
		Go:            o.Go,
	})
	ictx, cancel := context.WithTimeout(ctx, initTimeout+time.Second)
	defer cancel()
	info, err := c.Initialize(ictx)
	if err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("initializing ACP: %w", err)
	}
	if o.Conns != nil {
		o.Conns.set(a.Name, c)
	}
	return &agentConn{
		conn: c, ws: ws, proc: p,
		info: chat.ConnInfo{Cwd: ws.Root(), LoadSession: info.LoadSession, EmbeddedContext: info.EmbeddedContext},
	}, nil
}

// acpWorkspace gives the runtime's workspace to the ACP fs handlers, turning the
// runtime's refusals into the acp package's, so that the agent is told why.
type acpWorkspace struct{ runtime.Workspace }

func (w acpWorkspace) ReadFile(ctx context.Context, rel string, max int64) ([]byte, error) {
	b, err := w.Workspace.ReadFile(ctx, rel, max)
	return b, refusal(err)
}

func (w acpWorkspace) ReadLines(ctx context.Context, rel string, line, limit int, max int64) ([]byte, error) {
	b, err := w.Workspace.ReadLines(ctx, rel, line, limit, max)
	return b, refusal(err)
}

func (w acpWorkspace) WriteFile(ctx context.Context, rel string, data []byte) error {
	return refusal(w.Workspace.WriteFile(ctx, rel, data))
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
}

func (c *agentConn) Close() error { return c.conn.Close() }

func (c *agentConn) Info() chat.ConnInfo { return c.info }

func (c *agentConn) Files() chat.FileSource { return newWorkspaceFiles(c.ws) }

func (c *agentConn) NewSession(ctx context.Context, cwd string, h chat.SessionHandler) (chat.AgentSession, error) {
	s, err := c.conn.NewSession(ctx, cwd, h)
	if err != nil {
		return nil, c.exited(err)
	}
	return &agentSession{Session: s, c: c}, nil
}

func (c *agentConn) LoadSession(ctx context.Context, id, cwd string, h chat.SessionHandler) (chat.AgentSession, error) {
	s, err := c.conn.LoadSession(ctx, id, cwd, h)
	if err != nil {
		return nil, c.exited(err)
	}
	return &agentSession{Session: s, c: c}, nil
}

// exited adds how the process ended to an error that says the agent went away.
func (c *agentConn) exited(err error) error {
	if !errors.Is(err, acp.ErrAgentExited) && !errors.Is(err, acp.ErrClosed) {
		return err
	}
	t := time.NewTimer(exitWait)
	defer t.Stop()
	select {
	case <-c.proc.Done():
	case <-t.C:
		return err
	}
	// The process ended: that is why the call failed, whichever came first of the reader
	// seeing the end of its output (ErrAgentExited) and the supervisor closing the
	// connection of a process that ended (ErrClosed).
	return &ExitError{err: acp.ErrAgentExited, status: c.proc.Wait(), stderr: c.proc.StderrTail()}
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
		return stop, s.c.exited(err)
	}
	return stop, nil
}

// ExitError is an agent's call that failed because its process ended.
type ExitError struct {
	err    error
	status runtime.ExitStatus
	stderr []string
}

func (e *ExitError) Error() string {
	return fmt.Sprintf("%v (%s)", e.err, e.status)
}

func (e *ExitError) Unwrap() error { return e.err }

// maxStderrShown is how many of the last lines of a crashed agent's stderr an error shows.
const maxStderrShown = 3

// DescribeError says what went wrong for the user, in lang: the acp package's words, how
// the process ended and the last lines of its stderr when it ended, and the runtime's
// errors. Everything an agent wrote is sanitized.
func DescribeError(err error, lang i18n.Lang) string {
	var exit *ExitError
	switch {
	case errors.As(err, &exit):
		msg := acp.Describe(exit.err, lang)
		msg += " (" + ExitText(exit.status, lang) + ")"
		if tail := exit.stderr[max(0, len(exit.stderr)-maxStderrShown):]; len(tail) > 0 {
			msg += ": " + strings.Join(tail, " / ")
		}
		return safetext.Line(msg)
	case errors.Is(err, runtime.ErrProgramNotFound):
		return safetext.Line(catalogue.Text(lang, mProgramNotFound, err.Error()))
	case errors.Is(err, runtime.ErrUnknownAgent):
		return safetext.Line(catalogue.Text(lang, mUnknownAgent, err.Error()))
	case errors.Is(err, runtime.ErrShuttingDown):
		return catalogue.Text(lang, mShuttingDown)
	}
	return safetext.Line(acp.Describe(err, lang))
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
