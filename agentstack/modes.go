package agentstack

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"
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

// Sessions keeps the open ACP sessions of the application's agents by conversation, so
// that the screen can show and change their modes and options (Agent ▸ Session options…,
// the window's rule), and remembers the choices made in each, per session (in the
// history), to send them again when the session is reloaded after the agent restarted.
//
// A session is found through its handler: the service wraps each session's handler
// (WrapHandler) knowing the conversation and the agent, just before it opens the session;
// that wrapper, the outermost, is bound to the session when it opens (opened), and only
// then replaces the conversation's previous one: a session that fails to open (a resume
// refused) leaves the conversation's open session found.
type Sessions struct {
	mu   sync.Mutex
	taps map[tapKey]*sessionTap
	st   *store.Store // nil: nothing remembered
	logf func(format string, args ...any)
}

type tapKey struct {
	k     chat.Key
	agent string
}

func newSessions(st *store.Store, logf func(string, ...any)) *Sessions {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	return &Sessions{taps: make(map[tapKey]*sessionTap), st: st, logf: logf}
}

// sessionTap passes a session's handler on unchanged; it knows the session's
// conversation, and the session once it opened.
type sessionTap struct {
	chat.SessionHandler
	key     tapKey
	mu      sync.Mutex
	session *acp.Session
}

// Unwrap is the handler inside.
func (t *sessionTap) Unwrap() chat.SessionHandler { return t.SessionHandler }

// wrap is part of the service's WrapHandler: the handler of the conversation's next
// session with agent, which replaces the previous one.
func (r *Sessions) wrap(k chat.Key, agent string, h chat.SessionHandler) chat.SessionHandler {
	return &sessionTap{SessionHandler: h, key: tapKey{k, agent}}
}

// tapOf finds the sessionTap among the handlers a session's handler wraps.
func tapOf(h acp.SessionHandler) *sessionTap {
	for range 8 {
		if t, ok := h.(*sessionTap); ok {
			return t
		}
		u, ok := h.(interface{ Unwrap() chat.SessionHandler })
		if !ok {
			return nil
		}
		h = u.Unwrap()
	}
	return nil
}

// opened binds a session to its conversation, and sends a reloaded session the choices
// remembered for it (a choice the agent refuses is logged and skipped: the agent may have
// changed its list).
func (r *Sessions) opened(agent string, s *acp.Session, loaded bool) error {
	if t := tapOf(s.Handler()); t != nil {
		t.mu.Lock()
		t.session = s
		t.mu.Unlock()
		r.mu.Lock()
		r.taps[t.key] = t
		r.mu.Unlock()
	}
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
// options in the order of the session's list, and returns every failure joined. A session
// that lists no modes but an option of category mode gets the mode as that option.
func ApplyChoices(ctx context.Context, s *acp.Session, mode string, options map[string]string) error {
	var errs []error
	st := s.State()
	if o, ok := st.ModeOption(); ok && len(st.Modes) == 0 && mode != "" {
		if _, set := options[o.ID]; !set {
			options = maps.Clone(options)
			if options == nil {
				options = map[string]string{}
			}
			options[o.ID] = mode
		}
		mode = ""
	}
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

// ErrNoSession means the conversation has no open session with the agent yet (its first
// message opens one).
var ErrNoSession = errors.New("no session is open with the agent in this conversation yet")

// Session returns the open ACP session an agent has in a conversation, nil when it has
// none (no message yet, or its process ended). It reads memory only.
func (a *Stack) Session(k chat.Key, agent string) *acp.Session {
	a.sessions.mu.Lock()
	t := a.sessions.taps[tapKey{k, agent}]
	a.sessions.mu.Unlock()
	if t == nil {
		return nil
	}
	t.mu.Lock()
	s := t.session
	t.mu.Unlock()
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
// conversation; false when it has none. It reads memory only.
func (a *Stack) SessionState(k chat.Key, agent string) (SessionState, bool) {
	s := a.Session(k, agent)
	if s == nil {
		return SessionState{}, false
	}
	return s.State(), true
}

// SessionLabel is what the window's rule shows of the agent's session in a conversation:
// its model and its mode ("Opus · Plan"), "" when it has neither. It reads memory only.
func (a *Stack) SessionLabel(k chat.Key, agent string) string {
	st, ok := a.SessionState(k, agent)
	if !ok {
		return ""
	}
	var parts []string
	for _, o := range st.Options {
		if o.Category == acp.CategoryModel && o.Type == acp.OptionSelect {
			parts = append(parts, o.CurrentName())
			break
		}
	}
	if o, ok := st.ModeOption(); ok {
		parts = append(parts, o.CurrentName())
	} else if len(st.Modes) > 0 {
		parts = append(parts, st.ModeName())
	}
	return strings.Join(parts, " · ")
}

// TerminalOutput passes the output of the session's terminals on to the handler inside.
func (t *sessionTap) TerminalOutput(id string, out chat.TerminalOutput) {
	chat.ForwardTerminal(t.SessionHandler, id, out)
}
