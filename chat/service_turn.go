package chat

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// TurnPhase is where a turn in progress is.
type TurnPhase int

// The phases of a turn, in order.
const (
	// PhaseWaiting: the agent is starting, or the turn waits for a free slot
	// (maxRunningAgents); the supervisor's state says which.
	PhaseWaiting TurnPhase = iota
	// PhaseOpening: the agent's session is being created or reloaded.
	PhaseOpening
	// PhaseRunning: the prompt is with the agent.
	PhaseRunning
	// PhaseCancelling: session/cancel was sent; the agent has not answered yet.
	PhaseCancelling
)

// String names the phase.
func (p TurnPhase) String() string {
	switch p {
	case PhaseWaiting:
		return "waiting"
	case PhaseOpening:
		return "opening"
	case PhaseRunning:
		return "running"
	case PhaseCancelling:
		return "cancelling"
	}
	return fmt.Sprintf("TurnPhase(%d)", int(p))
}

// TurnInfo describes a turn in progress.
type TurnInfo struct {
	Agent   string
	Turn    int64
	Phase   TurnPhase
	Started time.Time
}

func sortTurns(ts []TurnInfo) {
	slices.SortFunc(ts, func(a, b TurnInfo) int { return strings.Compare(a.Agent, b.Agent) })
}

// turn is one agent's turn in a conversation. Its mutable fields are guarded by
// Service.mu.
type turn struct {
	agent   string
	text    string
	num     int64 // set before the turn's goroutine starts
	started time.Time
	// ctx ends when the turn is withdrawn (before its prompt) or abandoned (Close,
	// Shutdown): Acquire and the session calls give up, Prompt stops waiting.
	ctx    context.Context
	cancel context.CancelFunc

	phase     TurnPhase
	sess      AgentSession // set from PhaseRunning on
	cancelled bool
}

// agentSession is an agent's ACP session in one conversation, on one process.
type agentSession struct {
	conn AgentConn
	sess AgentSession
}

// run plays a turn to its end, then dispatches what the turn held up.
func (s *Service) run(cs *convState, t *turn) {
	defer s.turns.Done()
	defer cs.active.Done()
	res := s.play(cs, t)
	defer t.cancel()

	var shown error
	switch {
	case errors.Is(res.Err, ErrAgentRestarted):
		shown = ErrAgentRestarted
	case errors.Is(res.Err, ErrAgentStopped):
		shown = ErrAgentStopped
	case res.Err != nil:
		shown = errors.New(s.opts.Describe(res.Err))
	}
	cs.conv.EndTurn(t.agent, res.StopReason, shown)
	s.mu.Lock()
	if cs.turns[t.agent] == t {
		delete(cs.turns, t.agent)
	}
	res.Cancelled = t.cancelled
	s.mu.Unlock()
	if s.opts.TurnEnded != nil {
		s.opts.TurnEnded(cs.key, res)
	}
	s.dispatch(cs)
}

// play gets the agent, its session, and sends the prompt.
func (s *Service) play(cs *convState, t *turn) TurnResult {
	res := TurnResult{Agent: t.agent, Turn: t.num}
	withdrawn := func(err error) TurnResult {
		// A cancelled turn whose agent was stopped meanwhile (Esc again, quitting) ends
		// cancelled too.
		stopped := errors.Is(err, ErrAgentStopped) || errors.Is(err, ErrAgentRestarted)
		if t.ctx.Err() != nil || (errors.Is(err, context.Canceled) || stopped) && s.wasCancelled(t) {
			res.StopReason = StopCancelled
		} else {
			res.Err = err
		}
		return res
	}
	lease, err := s.opts.Agents.Acquire(t.ctx, t.agent)
	if err != nil {
		return withdrawn(err)
	}
	defer lease.Release()
	conn := lease.Conn()
	if conn == nil {
		return withdrawn(fmt.Errorf("agent %q has no ACP connection", t.agent))
	}
	if !s.enter(t, PhaseOpening, nil) {
		return withdrawn(context.Canceled)
	}
	as, err := s.session(cs, t, conn)
	if err != nil {
		return withdrawn(err)
	}
	files := conn.Files()
	if s.opts.Files != nil {
		files = s.opts.Files(cs.key, t.agent, files)
	}
	blocks := BuildPrompt(t.text, files, conn.Info().EmbeddedContext)
	if s.opts.Prepare != nil {
		blocks = append(s.opts.Prepare(cs.key, t.agent, t.text), blocks...)
	}
	if !s.enter(t, PhaseRunning, as.sess) {
		return withdrawn(context.Canceled)
	}
	stop, err := as.sess.Prompt(t.ctx, blocks)
	if err != nil {
		return withdrawn(err)
	}
	res.StopReason = string(stop)
	return res
}

// wasCancelled reports whether Cancel, Close or Shutdown asked for the turn's end.
func (s *Service) wasCancelled(t *turn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return t.cancelled
}

// enter moves a turn to a phase, unless it was cancelled before it: false then. Entering
// PhaseRunning begins the turn on its session (beginTurn), so that a Cancel from then on
// reaches the agent after the prompt.
func (s *Service) enter(t *turn, p TurnPhase, sess AgentSession) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t.cancelled || t.ctx.Err() != nil {
		return false
	}
	t.phase, t.sess = p, sess
	if p == PhaseRunning {
		beginTurn(sess)
	}
	return true
}

// session returns the agent's session in the conversation on conn: the one it has when
// it was opened on this process, else the previous one reloaded (session/load, when the
// agent can and an id is known), else a new one — with a notice when an earlier session
// could not be continued.
func (s *Service) session(cs *convState, t *turn, conn AgentConn) (*agentSession, error) {
	s.mu.Lock()
	old := cs.sessions[t.agent]
	prev := cs.lastID[t.agent]
	s.mu.Unlock()
	if old != nil && old.conn == conn {
		return old, nil
	}
	if old != nil { // its process ended
		old.sess.Close()
	}
	if cs.tr != nil {
		if id, err := cs.tr.Session(t.agent); err != nil {
			s.opts.Logf("reading the session of %s in %s: %v", t.agent, cs.key, err)
		} else if id != "" {
			prev = id
		}
	}

	info := conn.Info()
	h := s.handler(cs, t.agent)
	restarted := false
	if _, canResume := conn.(SessionResumer); prev != "" && (info.LoadSession || info.Resume && canResume) {
		// Loaded (its replay is the history shown already), or resumed (sessions.go).
		h.loading.Store(true)
		sess, _, err := reopen(t.ctx, conn, prev, h, false)
		h.loading.Store(false)
		if err == nil {
			return s.keep(cs, t.agent, conn, sess, false), nil
		}
		if t.ctx.Err() != nil {
			return nil, err
		}
		s.opts.Logf("reloading session %s of %s in %s: %v", prev, t.agent, cs.key, err)
		restarted = true
	}
	// The usage and title shown are the session's: a new one starts from nothing (before
	// session/new, which may already send them).
	cs.conv.forgetSession(t.agent)
	sess, err := conn.NewSession(t.ctx, info.Cwd, h)
	if err != nil {
		return nil, err
	}
	switch {
	case restarted:
		cs.conv.SessionRestarted(t.agent)
	case prev != "":
		cs.conv.sessionForgotten(t.agent)
	}
	return s.keep(cs, t.agent, conn, sess, true), nil
}

// keep records an agent's session in the conversation (and its id in the history when
// it is new).
func (s *Service) keep(cs *convState, agent string, conn AgentConn, sess AgentSession, isNew bool) *agentSession {
	as := &agentSession{conn: conn, sess: sess}
	if isNew && cs.tr != nil {
		if err := cs.tr.SetSession(agent, sess.ID()); err != nil {
			s.opts.Logf("saving the session of %s in %s: %v", agent, cs.key, err)
		}
	}
	s.mu.Lock()
	cs.sessions[agent] = as
	cs.lastID[agent] = sess.ID()
	s.mu.Unlock()
	return as
}

// sessionForgotten adds the notice that an agent's new session does not continue the
// earlier one (the agent cannot reload sessions).
func (c *Conversation) sessionForgotten(agent string) {
	c.mu.Lock()
	a := c.agent(agent)
	c.addNotice(a, catalogue.Text(c.lang, msgSessionForgotten, line(agent)))
	c.unlock(true)
}

// touch tells the conversation's observers that something the service shows with it
// changed (its queue).
func (c *Conversation) touch() {
	c.mu.Lock()
	c.rev++
	c.unlock(true)
}
