package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	sdk "github.com/coder/acp-go-sdk"
)

// Session is one ACP session of a connection. Its updates go to its handler, on the
// connection's reading goroutine.
type Session struct {
	c  *Conn
	id string
	h  SessionHandler

	mu sync.Mutex
	// cancelled is set by Cancel until the next Prompt: a permission request arriving
	// meanwhile is answered "cancelled" at once.
	cancelled bool
	closed    bool
	perms     map[uint64]context.CancelFunc
	nextPerm  uint64
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
		return fmt.Errorf("session %q is already open on this connection", clean(s.id, 100))
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
	s := newSession(c, id, h)
	if err := c.register(s); err != nil {
		return nil, fmt.Errorf("loading a session of agent %q: %w", c.agent, err)
	}
	req := sdk.LoadSessionRequest{SessionId: sdk.SessionId(id), Cwd: cwd, McpServers: []sdk.McpServer{}}
	if _, err := c.call(ctx, "session/load", req, nil); err != nil {
		c.unregister(s)
		return nil, c.sessionError("loading a session of", "session/load", err)
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

// Prompt sends one user turn and waits until the agent ends it, returning why it
// ended (sdk.StopReasonCancelled after Cancel). The updates of the turn go to the
// handler meanwhile. When ctx is done, Prompt stops waiting without telling the agent;
// use Cancel to end a turn.
func (s *Session) Prompt(ctx context.Context, blocks []sdk.ContentBlock) (sdk.StopReason, error) {
	s.mu.Lock()
	s.cancelled = false
	s.mu.Unlock()
	if blocks == nil {
		blocks = []sdk.ContentBlock{}
	}
	req := sdk.PromptRequest{SessionId: sdk.SessionId(s.id), Prompt: blocks}
	raw, err := s.c.call(ctx, "session/prompt", req, nil)
	if err != nil {
		return "", s.c.sessionError("prompting", "session/prompt", err)
	}
	var r struct {
		StopReason string `json:"stopReason"`
	}
	if err := json.Unmarshal(raw, &r); err != nil || r.StopReason == "" {
		return "", fmt.Errorf("prompting agent %q: its answer has no stopReason", s.c.agent)
	}
	return sdk.StopReason(clean(r.StopReason, 100)), nil
}

// Cancel asks the agent to end the current turn (session/cancel) and answers the
// session's pending permission requests "cancelled", as well as any that arrive before
// the next Prompt. The turn ends when the agent answers the prompt, normally with
// sdk.StopReasonCancelled.
func (s *Session) Cancel() error {
	s.cancelPermissions(false)
	return s.c.notify(s.c.ctx, "session/cancel", sdk.CancelNotification{SessionId: sdk.SessionId(s.id)})
}

// Close stops routing the session's messages (they are ignored and counted from then
// on) and cancels its pending permission requests. It does not tell the agent.
func (s *Session) Close() {
	s.cancelPermissions(true)
	s.c.unregister(s)
}

func (s *Session) cancelPermissions(close bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cancelled = true
	if close {
		s.closed = true
	}
	for _, cancel := range s.perms {
		cancel()
	}
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
