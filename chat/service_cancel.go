package chat

import (
	"context"
)

// Cancel cancels every turn of the conversation in progress: a turn waiting for its agent
// or opening its session is withdrawn; a turn with the agent gets session/cancel, which
// also cancels its pending permission request, and ends when the agent answers (normally
// "cancelled"). Queued messages stay queued.
func (s *Service) Cancel(k Key) {
	s.mu.Lock()
	cs := s.convs[k]
	if cs == nil {
		s.mu.Unlock()
		return
	}
	running := cs.markCancelled()
	s.mu.Unlock()
	showCancelling(cs, running)
}

// showCancelling tells the conversation that the turns are being cancelled.
func showCancelling(cs *convState, running []*turn) {
	for _, t := range running {
		cs.conv.Cancelling(t.agent)
	}
}

// Abandon ends at once the agent's turn in the conversation that is being cancelled,
// without waiting any longer for the agent to answer: the turn ends cancelled, and the
// agent's session in the conversation is closed, so that whatever the agent still sends
// for it is dropped (an agent that ignores session/cancel is stopped next; the next turn
// reloads the session when it can). It reports whether there was such a turn.
func (s *Service) Abandon(k Key, agent string) bool {
	s.mu.Lock()
	cs := s.convs[k]
	var t *turn
	if cs != nil {
		t = cs.turns[agent]
	}
	if t == nil || t.phase != PhaseCancelling {
		s.mu.Unlock()
		return false
	}
	t.cancel() // Prompt stops waiting: the turn ends cancelled
	as := cs.sessions[agent]
	delete(cs.sessions, agent)
	s.mu.Unlock()
	if as != nil {
		as.sess.Close()
	}
	return true
}

// turnBeginner is a session that keeps a turn's cancel after its prompt: BeginTurn says
// a turn is decided, whose prompt the next Prompt sends, and a Cancel that comes before
// Prompt has sent it is sent right after it (acp.Session is one). The service begins the
// turn when it enters PhaseRunning, the phase from which Cancel sends session/cancel, so
// a cancel can never reach the agent before the prompt it cancels (an agent ignores a
// cancel for no turn). Sessions that are not turnBeginners (the tests' own) are used
// as they are.
type turnBeginner interface {
	BeginTurn()
}

// beginTurn begins a turn on sess, when it is a turnBeginner.
func beginTurn(sess AgentSession) {
	if b, ok := sess.(turnBeginner); ok {
		b.BeginTurn()
	}
}

// CancelAgent cancels the agent's turns in every conversation, as Cancel does (the Agent
// menu's "cancel turn").
func (s *Service) CancelAgent(agent string) {
	s.mu.Lock()
	var keys []Key
	for k, cs := range s.convs {
		if cs.turns[agent] != nil {
			keys = append(keys, k)
		}
	}
	s.mu.Unlock()
	for _, k := range keys {
		s.cancelOne(k, agent)
	}
}

// cancelOne cancels one agent's turn in a conversation.
func (s *Service) cancelOne(k Key, agent string) {
	s.mu.Lock()
	cs := s.convs[k]
	if cs == nil || cs.turns[agent] == nil {
		s.mu.Unlock()
		return
	}
	running := cs.markCancelled(cs.turns[agent])
	s.mu.Unlock()
	showCancelling(cs, running)
}

// markCancelled marks the turns cancelled (every turn of the conversation when none is
// given), withdraws those not yet with their agents, sends session/cancel for the others
// and returns them. The caller holds Service.mu: the cancel is sent while the turn is
// surely its session's current one (the agent's next turn in this conversation cannot
// begin before this one has left cs.turns, under Service.mu), so that a cancel meant for
// a turn that is ending can never be taken for the next one's. AgentSession.Cancel only
// queues the notification (acp.Session.Cancel never waits for the agent).
func (cs *convState) markCancelled(only ...*turn) []*turn {
	turns := only
	if len(turns) == 0 {
		for _, t := range cs.turns {
			turns = append(turns, t)
		}
	}
	var running []*turn
	for _, t := range turns {
		t.cancelled = true
		if t.phase >= PhaseRunning {
			t.phase = PhaseCancelling
			_ = t.sess.Cancel()
			running = append(running, t)
		} else {
			t.cancel()
		}
	}
	return running
}

// Close closes the conversation of k (its window was closed): queued messages are
// dropped, turns cancelled (session/cancel) without waiting for the agents' answers, and
// once they have ended the sessions are closed and the last entries saved. It does not
// wait; opening the conversation again waits for it to finish.
func (s *Service) Close(k Key) {
	s.mu.Lock()
	cs := s.convs[k]
	if cs == nil {
		s.mu.Unlock()
		return
	}
	delete(s.convs, k)
	done := make(chan struct{})
	s.closing[k] = done
	cs.closed = true
	cs.queue = nil
	running := cs.markCancelled()
	for _, t := range running {
		t.cancel() // the prompts stop waiting
	}
	s.mu.Unlock()
	s.opts.Go.Start("chat closing "+k.String(), func() {
		cs.active.Wait()
		s.closeSessions(cs)
		cs.conv.Flush()
		s.mu.Lock()
		delete(s.closing, k)
		s.mu.Unlock()
		close(done)
	})
}

// closeSessions closes the conversation's sessions once its turns have ended.
func (s *Service) closeSessions(cs *convState) {
	s.mu.Lock()
	sessions := cs.sessions
	cs.sessions = make(map[string]*agentSession)
	s.mu.Unlock()
	for _, as := range sessions {
		as.sess.Close()
	}
}

// Shutdown ends the service (Sidekicks quits): queued messages are dropped, every turn is
// cancelled (session/cancel) and waited for until ctx is done, when the turns still
// running are abandoned; then the sessions are closed and every conversation's entries
// written to the history. It returns ctx's error when turns had to be abandoned, or the
// history's error.
func (s *Service) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.shut = true
	convs := make([]*convState, 0, len(s.convs))
	for _, cs := range s.convs {
		convs = append(convs, cs)
		cs.queue = nil
		cs.markCancelled()
	}
	closing := make([]chan struct{}, 0, len(s.closing))
	for _, c := range s.closing {
		closing = append(closing, c)
	}
	s.mu.Unlock()

	ended := make(chan struct{})
	// Only waits: nothing from outside reaches this goroutine, so it needs no guard.
	go func() {
		s.turns.Wait()
		close(ended)
	}()
	var err error
	select {
	case <-ended:
	case <-ctx.Done():
		err = ctx.Err()
		s.mu.Lock()
		for _, cs := range convs {
			for _, t := range cs.turns {
				t.cancel()
			}
		}
		s.mu.Unlock()
		<-ended // prompts stop waiting at once when their context ends
	}
	for _, c := range closing {
		<-c
	}
	for _, cs := range convs {
		s.closeSessions(cs)
		cs.conv.Flush()
	}
	if s.opts.History != nil {
		if herr := s.opts.History.Flush(); herr != nil && err == nil {
			err = herr
		}
	}
	return err
}
