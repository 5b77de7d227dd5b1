package chat

import (
	"context"
	"fmt"
)

// OpenSession opens the agent's session in the conversation of k before the first message,
// so that the agent announces its commands (available_commands_update) while the user
// types: the application calls it once the agent of a window that opens is running. It
// takes the agent as a turn would, without a prompt: a message sent meanwhile waits in the
// queue until the session is open, then goes to it. It does nothing when the conversation
// is not open, or the agent is in a turn of it or already has its session there; it waits
// for the agent (starting it when needed) and returns once the session is open or failed.
// A failure adds nothing to the conversation: the first message tries again, and says why.
func (s *Service) OpenSession(ctx context.Context, k Key, agent string) error {
	s.mu.Lock()
	cs := s.convs[k]
	if s.shut || cs == nil || cs.closed || cs.turns[agent] != nil || cs.sessions[agent] != nil {
		s.mu.Unlock()
		return nil
	}
	t := s.beginOpening(ctx, cs, agent)
	s.mu.Unlock()
	defer s.endOpening(cs, t)
	return s.openSession(cs, t)
}

// beginOpening takes the agent's turn in the conversation for opening a session, without a
// prompt: a message sent meanwhile waits for it, the window shows the session opening, and
// a cancel gives it up. Called with s.mu held; endOpening ends it.
func (s *Service) beginOpening(ctx context.Context, cs *convState, agent string) *turn {
	tctx, cancel := context.WithCancel(ctx)
	t := &turn{agent: agent, ctx: tctx, cancel: cancel, started: s.now(), phase: PhaseOpening}
	cs.turns[agent] = t
	s.turns.Add(1)
	cs.active.Add(1)
	return t
}

// endOpening gives back the turn beginOpening took, and sends what waited for it.
func (s *Service) endOpening(cs *convState, t *turn) {
	t.cancel()
	s.mu.Lock()
	if cs.turns[t.agent] == t {
		delete(cs.turns, t.agent)
	}
	s.mu.Unlock()
	cs.active.Done()
	s.turns.Done()
	s.dispatch(cs) // what was sent while the session opened
}

// openSession gets the agent and opens its session for OpenSession.
func (s *Service) openSession(cs *convState, t *turn) error {
	lease, err := s.opts.Agents.Acquire(t.ctx, t.agent)
	if err != nil {
		return err
	}
	defer lease.Release()
	conn := lease.Conn()
	if conn == nil {
		return fmt.Errorf("agent %q has no ACP connection", t.agent)
	}
	_, err = s.session(cs, t, conn)
	return err
}
