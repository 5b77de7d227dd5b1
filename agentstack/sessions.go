package agentstack

import (
	"context"
	"errors"
	"slices"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/chat"
)

// This file gives the application the sessions agents keep: session/list for Agent ▸
// Sessions…, continuing one in the agent's window (chat.Service.ContinueSession through
// session/resume or session/load), and session/close when a conversation's session ends.

// ErrNoSessionList means the agent does not list its sessions.
var ErrNoSessionList = acp.ErrNoSessionList

// SessionList is an agent's sessions, most recent first, and where its workspace is.
type SessionList struct {
	Sessions []acp.SessionSummary
	// Workspace is the agent's working directory as it sees it: a session of another
	// folder cannot be continued in its window.
	Workspace string
	// Resume says the agent continues sessions with session/resume; otherwise with
	// session/load (Load), or not at all.
	Resume, Load bool
	// Open is the id of the session open in the agent's window, "" when none: the list
	// marks it, and continuing it would change nothing.
	Open string
}

// ListSessions starts the agent when needed and lists its sessions (session/list).
func (a *Stack) ListSessions(ctx context.Context, name string) (SessionList, error) {
	lease, err := a.sup.Acquire(ctx, name)
	if err != nil {
		return SessionList{}, err
	}
	defer lease.Release()
	c, ok := lease.Conn().(*agentConn)
	if !ok || c == nil {
		return SessionList{}, errors.New("the agent has no ACP connection")
	}
	caps := c.conn.SessionCaps()
	out := SessionList{Workspace: c.ws.Root(), Resume: caps.Resume, Load: caps.Load}
	list, err := c.conn.ListSessions(ctx, "")
	if err != nil {
		return out, c.failed("session/list", err)
	}
	slices.SortStableFunc(list, func(x, y acp.SessionSummary) int { return y.Updated.Compare(x.Updated) })
	out.Sessions = list
	if s := a.Session(chat.AgentKey(name), name); s != nil {
		out.Open = s.ID()
	}
	return out, nil
}

// ContinueSession makes the agent's window continue its session id (chat.Service's).
func (a *Stack) ContinueSession(ctx context.Context, name, id, title string) error {
	return a.svc.ContinueSession(ctx, chat.AgentKey(name), name, id, title)
}

// ResumeSession continues an earlier session without its history (session/resume).
func (c *agentConn) ResumeSession(ctx context.Context, id, cwd string, h chat.SessionHandler) (chat.AgentSession, error) {
	s, err := c.conn.ResumeSession(ctx, id, cwd, h)
	if err == nil { // like a loaded session: bound to its window, its choices sent again
		err = c.sessionOpened(s, true)
	}
	if err != nil {
		return nil, c.failed("session/resume", err)
	}
	s.WatchTerminals(terminalWatcher{h})
	return &agentSession{Session: s, c: c}, nil
}

var _ chat.SessionResumer = (*agentConn)(nil)

// Close stops routing the session's updates and, when the agent offers session/close,
// tells it, on a goroutine of its own (the answer changes nothing, and the conversation
// closing does not wait for it).
func (s *agentSession) Close() {
	select {
	case <-s.c.conn.Done(): // its process ended: nothing to tell
		s.Session.Close()
		return
	default:
	}
	if !s.c.conn.SessionCaps().Close {
		s.Session.Close()
		return
	}
	closeIt := func() {
		if err := s.Session.CloseRemote(context.Background()); err != nil && s.c.logf != nil {
			s.c.logf("closing session %s: %v", s.ID(), err)
		}
	}
	if s.c.goStart == nil {
		go closeIt()
		return
	}
	s.c.goStart("acp close session "+s.c.conn.Agent(), closeIt)
}
