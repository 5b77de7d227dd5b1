package chat

import (
	"context"
	"errors"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// This file is the sessions an agent keeps beyond the conversation: the title the agent
// gives its session (session_info_update), and continuing one of the agent's earlier
// sessions (listed by session/list) in a conversation, through session/resume, or
// session/load when the agent cannot resume.

// SessionResumer is what an AgentConn may also offer: session/resume, which continues a
// session without replaying its history.
type SessionResumer interface {
	ResumeSession(ctx context.Context, id, cwd string, h SessionHandler) (AgentSession, error)
}

// ErrTurnInProgress is returned by ContinueSession while the agent has a turn in the
// conversation.
var ErrTurnInProgress = errors.New("the agent has a turn in progress")

// ErrCannotReopen is returned by ContinueSession when the agent offers neither
// session/resume nor session/load.
var ErrCannotReopen = errors.New("the agent can neither resume nor load a session")

// ErrSessionOpen is returned by ContinueSession when the session asked for is the one the
// conversation has open with the agent: there is nothing to continue.
var ErrSessionOpen = errors.New("the session is the one open here")

// sessionInfo applies a session_info_update: the session's title ("" clears it).
func (h *AgentHandler) sessionInfo(u *sdk.SessionSessionInfoUpdate) {
	if u.Title == nil {
		return
	}
	c := h.c
	c.mu.Lock()
	h.a.title = line(*u.Title)
	c.rev++
	c.unlock(true)
}

// SessionTitle returns the title the agent gave its current session, "" when none.
func (c *Conversation) SessionTitle(agent string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if a, ok := c.agents[agent]; ok {
		return a.title
	}
	return ""
}

// forgetSession drops what the agent said of its previous session (its usage and its
// title): the new one has said nothing yet. The function it returns puts them back, for
// when the new session fails to open and the previous one stays.
func (c *Conversation) forgetSession(agent string) (restore func()) {
	c.mu.Lock()
	a := c.agent(agent)
	title, usage := a.title, a.usage
	c.mu.Unlock()
	c.forgetUsage(agent)
	c.mu.Lock()
	changed := a.title != ""
	a.title = ""
	if changed {
		c.rev++
	}
	c.unlock(changed)
	return func() {
		c.mu.Lock()
		a.title, a.usage = title, usage
		c.rev++
		c.unlock(true)
	}
}

// reopen reopens the agent's earlier session id on conn: session/resume when the agent
// offers it and prefer says so (or it cannot load), else session/load.
func reopen(ctx context.Context, conn AgentConn, id string, h *sessionHandler, preferResume bool) (AgentSession, bool, error) {
	info := conn.Info()
	r, canResume := conn.(SessionResumer)
	canResume = canResume && info.Resume
	switch {
	case canResume && (preferResume || !info.LoadSession):
		s, err := r.ResumeSession(ctx, id, info.Cwd, h)
		return s, true, err
	case info.LoadSession:
		s, err := conn.LoadSession(ctx, id, info.Cwd, h)
		return s, false, err
	}
	return nil, false, ErrCannotReopen
}

// ContinueSession makes the agent's conversation k continue the agent's earlier session
// id (one of session/list's), titled title: session/resume when the agent offers it,
// else session/load, whose replay of the session's messages the conversation shows. The
// session the conversation had is closed, and the new one kept in the history, so that
// the next start of the agent reopens it. It waits for the agent (starting it when
// needed); it fails with ErrTurnInProgress while the agent has a turn in k, and a message
// sent to the agent meanwhile waits for it to end.
func (s *Service) ContinueSession(ctx context.Context, k Key, agent, id, title string) error {
	cs, err := s.open(k)
	if err != nil {
		return err
	}
	// The reopening takes the agent's turn in the conversation: a message sent meanwhile
	// waits for it, the window shows the session opening, and a cancel (Esc) gives it up.
	s.mu.Lock()
	switch {
	case s.shut || cs.closed:
		s.mu.Unlock()
		return ErrShutdown
	case cs.turns[agent] != nil:
		s.mu.Unlock()
		return ErrTurnInProgress
	case cs.sessions[agent] != nil && cs.sessions[agent].sess.ID() == id:
		s.mu.Unlock()
		return ErrSessionOpen
	}
	t := s.beginOpening(ctx, cs, agent)
	s.mu.Unlock()
	defer s.endOpening(cs, t)
	ctx = t.ctx
	lease, err := s.opts.Agents.Acquire(ctx, agent)
	if err != nil {
		return err
	}
	defer lease.Release()
	conn := lease.Conn()
	if conn == nil {
		return ErrCannotReopen
	}
	h := s.handler(cs, agent)
	restore := cs.conv.forgetSession(agent)
	sess, resumed, err := reopen(ctx, conn, id, h, true)
	if err != nil {
		restore()
		return err
	}
	s.mu.Lock()
	old := cs.sessions[agent]
	s.mu.Unlock()
	if old != nil {
		old.sess.Close()
	}
	s.keep(cs, agent, conn, sess, true)
	how := msgSessionLoaded
	if resumed {
		how = msgSessionResumed
	}
	if title == "" {
		title = id
	}
	cs.conv.AddNotice(sessionText.Text(s.opts.Lang, how, line(agent), line(title)))
	return nil
}

type sessionMsg int

const (
	msgSessionResumed sessionMsg = iota
	msgSessionLoaded
)

var sessionText = i18n.NewCatalogue[sessionMsg]([]string{
	msgSessionResumed: "%s continues its session “%s” (resumed: its earlier messages are not shown here)",
	msgSessionLoaded:  "%s continues its session “%s” (loaded: its earlier messages follow)",
}, []string{
	msgSessionResumed: "%s reprend sa session « %s » (ses messages précédents ne sont pas affichés ici)",
	msgSessionLoaded:  "%s reprend sa session « %s » (ses messages précédents suivent)",
})
