package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// Session is one ACP session of a connection. Its updates go to its handler, on the
// connection's reading goroutine.
//
// A session keeps its turn's messages in order: session/cancel never reaches the agent
// before the prompt it cancels (an agent rightly ignores a cancel for no turn). Prompt
// queues its request and Cancel its notification under the session's lock, on the
// connection's single ordered outbox. A caller that decides to run a turn and hands the
// prompt to another goroutine calls BeginTurn first: a Cancel between BeginTurn and the
// moment Prompt queues its request is held, and Prompt sends it right after the prompt.
type Session struct {
	c  *Conn
	id string
	h  SessionHandler

	// beforeQueue, when set (by tests), runs in Prompt between the start of the turn and
	// the queuing of its request: the window a concurrent Cancel must not slip through.
	beforeQueue func()

	mu sync.Mutex
	// starting is set from BeginTurn (or the start of Prompt) until Prompt queues the
	// turn's request.
	starting bool
	// cancelPending is set by a Cancel while starting: Prompt queues session/cancel
	// right after the prompt.
	cancelPending bool
	// prompting counts the prompts queued whose callers still wait for their answers.
	prompting int
	// cancelled is set when session/cancel is queued, until the next turn begins: a
	// permission request arriving meanwhile is answered "cancelled" at once.
	cancelled bool
	closed    bool
	// refusals are the files the current turn may not write (permission not given).
	refusals refusals
	perms    map[uint64]context.CancelFunc
	nextPerm uint64
	// state is the session's modes and options, onState who is told of their changes
	// (modes.go).
	state   SessionState
	onState func(SessionState)
	// watch is told of the output of the terminals the session's tool calls embed.
	watch TerminalWatcher // see WatchTerminals
}

// ID returns the session's id, as the agent chose it.
func (s *Session) ID() string { return s.id }

func newSession(c *Conn, id string, h SessionHandler) *Session {
	return &Session{c: c, id: id, h: h, perms: make(map[uint64]context.CancelFunc)}
}

// register makes the connection route the session's messages to it.
func (c *Conn) register(s *Session) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended {
		return c.err
	}
	if _, open := c.sessions[s.id]; open {
		return fmt.Errorf("session %q is already open on this connection", safetext.Snippet(s.id, 100))
	}
	c.sessions[s.id] = s
	return nil
}

func (c *Conn) unregister(s *Session) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sessions[s.id] == s {
		delete(c.sessions, s.id)
	}
}

// NewSession creates a session whose working directory is cwd (the workspace as the
// agent sees it), with no MCP servers. Its updates go to h from the moment the agent
// answers. A refusal for lack of login is an *AuthRequiredError.
func (c *Conn) NewSession(ctx context.Context, cwd string, h SessionHandler) (*Session, error) {
	if c.Info() == nil {
		return nil, fmt.Errorf("starting a session with agent %q: %w", c.agent, ErrNotInitialized)
	}
	if h == nil {
		return nil, errors.New("starting a session: no handler")
	}
	var s *Session
	req := sdk.NewSessionRequest{Cwd: cwd, McpServers: []sdk.McpServer{}}
	_, err := c.call(ctx, "session/new", req, func(raw json.RawMessage) error {
		var r struct {
			SessionID string `json:"sessionId"`
		}
		if err := json.Unmarshal(raw, &r); err != nil || r.SessionID == "" {
			return errors.New("the agent's answer to session/new has no sessionId")
		}
		s = newSession(c, r.SessionID, h)
		s.stateFromResult(raw)
		return c.register(s)
	})
	if err != nil {
		return nil, c.sessionError("starting a session with", "session/new", err)
	}
	return s, nil
}

// LoadSession reopens the session id (from an earlier connection) in cwd, when the
// agent announced loadSession (ErrNoLoadSession otherwise). The updates the agent
// replays while loading go to h.
func (c *Conn) LoadSession(ctx context.Context, id, cwd string, h SessionHandler) (*Session, error) {
	info := c.Info()
	switch {
	case info == nil:
		return nil, fmt.Errorf("loading a session of agent %q: %w", c.agent, ErrNotInitialized)
	case !info.LoadSession:
		return nil, fmt.Errorf("loading a session of agent %q: %w", c.agent, ErrNoLoadSession)
	case h == nil:
		return nil, errors.New("loading a session: no handler")
	}
	req := sdk.LoadSessionRequest{SessionId: sdk.SessionId(id), Cwd: cwd, McpServers: []sdk.McpServer{}}
	return c.reopen(ctx, id, h, "session/load", "loading a session of", req)
}

// reopen opens the earlier session id with method (session/load or session/resume): the
// session is routed to h before the call, so that what the agent sends while answering
// reaches it, and dropped again when the call fails. doing says what failed.
func (c *Conn) reopen(ctx context.Context, id string, h SessionHandler, method, doing string, req any) (*Session, error) {
	s := newSession(c, id, h)
	if err := c.register(s); err != nil {
		return nil, fmt.Errorf("%s agent %q: %w", doing, c.agent, err)
	}
	// The answer to session/load or session/resume carries the session's modes and options.
	if _, err := c.call(ctx, method, req, func(raw json.RawMessage) error { s.stateFromResult(raw); return nil }); err != nil {
		c.unregister(s)
		return nil, c.sessionError(doing, method, err)
	}
	return s, nil
}

// sessionError says what failed; a refusal for lack of login is returned as an
// *AuthRequiredError, which says everything itself.
func (c *Conn) sessionError(doing, method string, err error) error {
	err = c.authError(method, err)
	var auth *AuthRequiredError
	if errors.As(err, &auth) {
		return auth
	}
	return fmt.Errorf("%s agent %q: %w", doing, c.agent, err)
}

// BeginTurn tells the session that its caller has decided to run a turn, whose prompt the
// next call to Prompt sends (typically on another goroutine). From then on, Cancel cancels
// that turn: a Cancel that comes before Prompt has queued its request is held, and sent
// right after the prompt, so that the agent sees the prompt, then the cancel, and ends
// the turn "cancelled". (Sending the prompt anyway, rather than not sending it, keeps the
// agent's view of the conversation the same as the user's: the message was sent, then
// cancelled.)
//
// Calling BeginTurn is only needed when Cancel may run before Prompt is called; Prompt
// begins the turn itself otherwise. A Cancel with no turn begun holds nothing: it is sent
// at once, and an agent with no turn in progress ignores it, so a late or spurious Cancel
// never cancels a later turn. A turn begun and never prompted is replaced, with its held
// cancel, by the next BeginTurn.
func (s *Session) BeginTurn() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.beginLocked()
}

// beginLocked starts a turn: nothing held from a previous one applies to it.
func (s *Session) beginLocked() {
	s.starting = true
	s.cancelPending = false
	s.cancelled = false
	s.refusals = refusals{}
}

// Prompt sends one user turn and waits until the agent ends it, returning why it
// ended (sdk.StopReasonCancelled after Cancel). The updates of the turn go to the
// handler meanwhile. When ctx is done, Prompt stops waiting without telling the agent;
// use Cancel to end a turn. It continues the turn begun by BeginTurn, if any, and
// begins one otherwise: a Cancel from another goroutine while Prompt runs is sent after
// the prompt.
func (s *Session) Prompt(ctx context.Context, blocks []sdk.ContentBlock) (sdk.StopReason, error) {
	s.mu.Lock()
	if !s.starting {
		s.beginLocked()
	}
	s.mu.Unlock()
	if blocks == nil {
		blocks = []sdk.ContentBlock{}
	}
	req := sdk.PromptRequest{SessionId: sdk.SessionId(s.id), Prompt: blocks}
	r, err := s.c.prepare("session/prompt", req, nil)
	if err != nil {
		s.mu.Lock()
		s.starting, s.cancelPending = false, false
		s.mu.Unlock()
		return "", s.c.sessionError("prompting", "session/prompt", err)
	}
	if s.beforeQueue != nil {
		s.beforeQueue()
	}
	s.mu.Lock()
	s.starting = false
	s.c.queue(r)
	s.prompting++
	if s.cancelPending {
		s.cancelPending = false
		_ = s.cancelLocked() // its failure is the prompt's too, reported by await
	}
	s.mu.Unlock()

	raw, err := s.c.await(ctx, r)
	s.mu.Lock()
	s.prompting--
	s.mu.Unlock()
	if err != nil {
		return "", s.c.sessionError("prompting", "session/prompt", err)
	}
	var res struct {
		StopReason string `json:"stopReason"`
	}
	if err := json.Unmarshal(raw, &res); err != nil || res.StopReason == "" {
		return "", fmt.Errorf("prompting agent %q: its answer has no stopReason", s.c.agent)
	}
	return sdk.StopReason(safetext.Snippet(res.StopReason, 100)), nil
}

// Cancel asks the agent to end the current turn: it queues session/cancel, then answers
// the session's pending permission requests "cancelled" (in that order, the protocol's),
// as well as any that arrive before the next turn begins. The turn ends when the agent
// answers the prompt, normally with sdk.StopReasonCancelled.
//
// Cancel never waits for the agent (the notification is written after every message
// queued before it) and fails only when the connection has ended. Its order with the
// turn's prompt is the session's concern: see BeginTurn.
func (s *Session) Cancel() error {
	s.c.opts.Go.Start("acp terminal kill "+s.c.agent, func() { s.KillTerminals() })
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.starting {
		s.cancelPending = true
		if s.prompting == 0 {
			return nil // Prompt sends it after its request
		}
		// Another prompt is with the agent (two turns at once on one session, which
		// the protocol does not expect): it is cancelled now, the next one after it.
	}
	return s.cancelLocked()
}

// cancelLocked queues session/cancel, then cancels the permission requests. The caller
// holds s.mu.
func (s *Session) cancelLocked() error {
	err := s.c.post("session/cancel", sdk.CancelNotification{SessionId: sdk.SessionId(s.id)})
	s.cancelled = true
	for _, cancel := range s.perms {
		cancel()
	}
	return err
}

// Close stops routing the session's messages (they are ignored and counted from then
// on) and cancels its pending permission requests. It does not tell the agent.
func (s *Session) Close() {
	s.mu.Lock()
	s.closed = true
	for _, cancel := range s.perms {
		cancel()
	}
	s.mu.Unlock()
	s.c.unregister(s)
}

// recordAnswer remembers, for the rest of the turn, the files a permission request named
// when its answer did not allow it.
func (s *Session) recordAnswer(req sdk.RequestPermissionRequest, resp sdk.RequestPermissionResponse) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refusals.record(req, resp)
}

// writeRefused returns the title of the tool call whose refusal forbids writing p (an
// absolute path) in the current turn, and whether it does.
func (s *Session) writeRefused(p string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refusals.refused(p)
}

// beginPermission returns the context a permission request waits under: cancelled by
// Cancel, Close, or the end of the connection; already cancelled after Cancel.
func (s *Session) beginPermission(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(parent)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancelled || s.closed {
		cancel()
		return ctx, cancel
	}
	id := s.nextPerm
	s.nextPerm++
	s.perms[id] = cancel
	return ctx, func() {
		s.mu.Lock()
		delete(s.perms, id)
		s.mu.Unlock()
		cancel()
	}
}
