package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// This file is the sessions an agent keeps (stable v1 schema): session/list, with its
// pages, session/resume (a session continued without its history replayed) and
// session/close. Each is offered by the agent in sessionCapabilities.

// Limits of ListSessions: at most maxListPages pages and maxListed sessions are read.
const (
	maxListPages = 50
	maxListed    = 2000
)

// ErrNoSessionList and ErrNoResume mean the agent did not offer the method.
var (
	ErrNoSessionList = errors.New("the agent does not list its sessions (session/list)")
	ErrNoResume      = errors.New("the agent does not resume sessions (session/resume)")
)

// SessionSummary is one session of session/list, sanitized but for its id.
type SessionSummary struct {
	// ID is the agent's id, given back as it is to resume the session.
	ID string
	// Cwd is the folder the session works in; Title its title ("" when none).
	Cwd, Title string
	// Updated is its last activity (zero when the agent did not say, or not as ISO 8601).
	Updated time.Time
}

// SessionCaps are the session methods an agent offers.
type SessionCaps struct {
	List, Resume, Close, Load bool
}

// SessionCaps says which session methods the agent offered in initialize.
func (c *Conn) SessionCaps() SessionCaps {
	info := c.Info()
	if info == nil {
		return SessionCaps{}
	}
	sc := info.Capabilities.SessionCapabilities
	return SessionCaps{List: sc.List != nil, Resume: sc.Resume != nil, Close: sc.Close != nil, Load: info.LoadSession}
}

// ListSessions lists the agent's sessions working in cwd ("" for all), reading every page
// (within maxListPages and maxListed; a cursor seen twice ends the list).
func (c *Conn) ListSessions(ctx context.Context, cwd string) ([]SessionSummary, error) {
	if !c.SessionCaps().List {
		return nil, fmt.Errorf("listing the sessions of agent %q: %w", c.agent, ErrNoSessionList)
	}
	var out []SessionSummary
	seen := map[string]bool{}
	cursor := ""
	for page := 0; page < maxListPages && len(out) < maxListed; page++ {
		req := sdk.ListSessionsRequest{}
		if cwd != "" {
			req.Cwd = &cwd
		}
		if cursor != "" {
			req.Cursor = &cursor
		}
		raw, err := c.call(ctx, "session/list", req, nil)
		if err != nil {
			return out, c.sessionError("listing the sessions of", "session/list", err)
		}
		var r struct {
			Sessions   []json.RawMessage `json:"sessions"`
			NextCursor string            `json:"nextCursor"`
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			return out, fmt.Errorf("listing the sessions of agent %q: the answer is not a list of sessions", c.agent)
		}
		for _, s := range r.Sessions {
			if sum, ok := decodeSummary(s); ok && len(out) < maxListed {
				out = append(out, sum)
			}
		}
		if r.NextCursor == "" || seen[r.NextCursor] {
			break
		}
		seen[r.NextCursor] = true
		cursor = r.NextCursor
	}
	return out, nil
}

// decodeSummary reads one listed session; false when it has no id.
func decodeSummary(raw json.RawMessage) (SessionSummary, bool) {
	var s struct {
		SessionID string `json:"sessionId"`
		Cwd       string `json:"cwd"`
		Title     string `json:"title"`
		UpdatedAt string `json:"updatedAt"`
	}
	if json.Unmarshal(raw, &s) != nil || s.SessionID == "" {
		return SessionSummary{}, false
	}
	sum := SessionSummary{ID: s.SessionID, Cwd: safetext.Line(s.Cwd), Title: safetext.Line(s.Title)}
	if t, err := time.Parse(time.RFC3339, s.UpdatedAt); err == nil {
		sum.Updated = t
	}
	return sum, true
}

// ResumeSession continues the session id in cwd without its history (session/resume),
// when the agent offered it (ErrNoResume otherwise). Its updates go to h from then on.
func (c *Conn) ResumeSession(ctx context.Context, id, cwd string, h SessionHandler) (*Session, error) {
	switch {
	case c.Info() == nil:
		return nil, fmt.Errorf("resuming a session of agent %q: %w", c.agent, ErrNotInitialized)
	case !c.SessionCaps().Resume:
		return nil, fmt.Errorf("resuming a session of agent %q: %w", c.agent, ErrNoResume)
	case h == nil:
		return nil, errors.New("resuming a session: no handler")
	}
	req := sdk.ResumeSessionRequest{SessionId: sdk.SessionId(id), Cwd: cwd, McpServers: []sdk.McpServer{}}
	return c.reopen(ctx, id, h, "session/resume", "resuming a session of", req)
}

// closeWait bounds the wait for the answer to session/close: the window is gone, the
// answer changes nothing.
const closeWait = 5 * time.Second

// CloseRemote closes the session (Close), and tells the agent with session/close when it
// offered it, so that it frees what the session holds. It waits for the answer at most
// a few seconds, and never when the agent did not offer the method.
func (s *Session) CloseRemote(ctx context.Context) error {
	s.Close()
	if !s.c.SessionCaps().Close {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, closeWait)
	defer cancel()
	_, err := s.c.call(ctx, "session/close", sdk.CloseSessionRequest{SessionId: sdk.SessionId(s.id)}, nil)
	if err != nil {
		return s.c.sessionError("closing a session of", "session/close", err)
	}
	return nil
}
