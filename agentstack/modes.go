package agentstack

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/store"
)

// reapplyTimeout bounds how long the choices remembered for a reloaded session take to be
// sent again.
const reapplyTimeout = 10 * time.Second

// sessionOpened is called by agentConn with each session it opens, before the session
// serves a turn: Options.SessionOpened's error fails the session.
func (c *agentConn) sessionOpened(s *acp.Session, loaded bool) error {
	if c.opened == nil {
		return nil
	}
	if err := c.opened(c.conn.Agent(), s, loaded); err != nil {
		s.Close()
		return err
	}
	return nil
}

// Sessions keeps the open ACP sessions of the application's agents, so that the screen
// can show and change their modes and options (Agent ▸ Session options…), and remembers
// the choices made in each, per session (in the history), to send them again when the
// session is reloaded after the agent restarted.
type Sessions struct {
	mu   sync.Mutex
	m    map[sessionRef]*acp.Session
	st   *store.Store // nil: nothing remembered
	logf func(format string, args ...any)
}

type sessionRef struct{ agent, id string }

func newSessions(st *store.Store, logf func(string, ...any)) *Sessions {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	return &Sessions{m: make(map[sessionRef]*acp.Session), st: st, logf: logf}
}

// opened registers a session, forgets those whose connection ended, and sends a reloaded
// session the choices remembered for it (a choice the agent refuses is logged and skipped:
// the agent may have changed its list).
func (r *Sessions) opened(agent string, s *acp.Session, loaded bool) error {
	r.mu.Lock()
	for k, old := range r.m {
		select {
		case <-old.Ended():
			delete(r.m, k)
		default:
		}
	}
	r.m[sessionRef{agent, s.ID()}] = s
	r.mu.Unlock()
	if !loaded || r.st == nil {
		return nil
	}
	c, err := r.st.SessionChoices(agent, s.ID())
	if err != nil {
		r.logf("%v", err)
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), reapplyTimeout)
	defer cancel()
	if err := ApplyChoices(ctx, s, c.Mode, c.Options); err != nil {
		r.logf("sending the session options chosen earlier again: %v", err)
	}
	return nil
}

// ApplyChoices sends a session a mode (none when "") and option values (by option id), the
// options in the order of the session's list, and returns every failure joined.
func ApplyChoices(ctx context.Context, s *acp.Session, mode string, options map[string]string) error {
	var errs []error
	if mode != "" {
		errs = append(errs, s.SetMode(ctx, mode))
	}
	done := map[string]bool{}
	for _, o := range s.State().Options {
		if v, ok := options[o.ID]; ok {
			errs = append(errs, s.SetOption(ctx, o.ID, v))
			done[o.ID] = true
		}
	}
	for id, v := range options {
		if !done[id] { // not listed: SetOption says so
			errs = append(errs, s.SetOption(ctx, id, v))
		}
	}
	return errors.Join(errs...)
}

// get returns the open session of an agent with that id, nil when there is none.
func (r *Sessions) get(agent, id string) *acp.Session {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.m[sessionRef{agent, id}]
	if s == nil {
		return nil
	}
	select {
	case <-s.Ended():
		return nil
	default:
		return s
	}
}

// ErrNoSession means the conversation has no open session with the agent yet (its first
// message opens one).
var ErrNoSession = errors.New("no session is open with the agent in this conversation yet")

// Session returns the open ACP session an agent has in a conversation, nil when it has
// none (no message yet, or its process ended).
func (a *Stack) Session(k chat.Key, agent string) *acp.Session {
	if a.hist == nil {
		return nil
	}
	t, err := a.hist.Open(k)
	if err != nil {
		return nil
	}
	id, err := t.Session(agent)
	if err != nil || id == "" {
		return nil
	}
	return a.sessions.get(agent, id)
}

// SetSessionMode changes the mode of an agent's session in a conversation, and remembers it.
func (a *Stack) SetSessionMode(ctx context.Context, k chat.Key, agent, mode string) error {
	return a.changeSession(k, agent, func(s *acp.Session, c *store.SessionChoices) error {
		c.Mode = mode
		return s.SetMode(ctx, mode)
	})
}

// SetSessionOption changes one option of an agent's session in a conversation, and
// remembers it.
func (a *Stack) SetSessionOption(ctx context.Context, k chat.Key, agent, id, value string) error {
	return a.changeSession(k, agent, func(s *acp.Session, c *store.SessionChoices) error {
		if c.Options == nil {
			c.Options = map[string]string{}
		}
		c.Options[id] = value
		return s.SetOption(ctx, id, value)
	})
}

// changeSession makes a change to the session and, when the agent accepted it, records
// the choices.
func (a *Stack) changeSession(k chat.Key, agent string, change func(*acp.Session, *store.SessionChoices) error) error {
	s := a.Session(k, agent)
	if s == nil {
		return ErrNoSession
	}
	st := a.sessions.st
	var c store.SessionChoices
	if st != nil {
		var err error
		if c, err = st.SessionChoices(agent, s.ID()); err != nil {
			a.sessions.logf("%v", err)
		}
	}
	if err := change(s, &c); err != nil {
		return err
	}
	if st != nil {
		if err := st.SetSessionChoices(agent, s.ID(), c); err != nil {
			return fmt.Errorf("the agent took the change, but it could not be remembered: %w", err)
		}
	}
	return nil
}

// SessionState returns the modes and options of the agent's open session in a
// conversation; false when it has none.
func (a *Stack) SessionState(k chat.Key, agent string) (SessionState, bool) {
	s := a.Session(k, agent)
	if s == nil {
		return SessionState{}, false
	}
	return s.State(), true
}
