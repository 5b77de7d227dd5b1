package agentstack

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/store"
)

// turnsGrace bounds how long quitting waits for the agents to end their cancelled turns
// before their processes are stopped.
const turnsGrace = 5 * time.Second

// Stack is the agents of one configuration: the supervisor of their processes, each with
// an initialized ACP connection (agents.go), and the conversation service on them, which
// keeps its conversations in the history. The application's screen talks to it through
// its own interface (app.Agents); Stack is the one implementation.
type Stack struct {
	sup      *runtime.Supervisor
	svc      *chat.Service
	writer   *store.Writer
	conns    *Conns
	channels *chat.Channels
	commands *Commands
	perms    permissionsHook
	sessions *Sessions // modes.go
	mu       sync.Mutex
	agents   []config.Agent // as the supervisor has them (auth.go)
}

// New returns the agents of cfg, their logs going to o.Logs, their conversations kept in
// st. o.Conns is set by New.
func New(cfg *config.Config, o Options, st *store.Store) (*Stack, error) {
	lang := cfg.UI.Language
	hist := newStoreHistory(st, nil)
	hist.lang, hist.report = lang, o.HistoryStatus
	wopts := o.HistoryWriter
	wopts.Go, wopts.Status = o.Go, hist.status
	hist.w = store.NewWriterWith(st, wopts)
	a := &Stack{conns: NewConns(), writer: hist.w, commands: NewCommands(), agents: cfg.Agents}
	o.Conns = a.conns
	a.sessions = newSessions(st, nil)
	o.SessionOpened = a.sessions.opened
	a.sup = NewSupervisor(cfg, o)
	a.channels = chat.NewChannels(storeChannels{st}, lang)
	a.channels.SetAgents(agentRefs(cfg.Agents))
	a.svc = chat.NewService(a.channels.Options(chat.ServiceOptions{
		Agents:      Pool{Sup: a.sup},
		History:     hist,
		Permissions: a.perms.get,
		WrapHandler: a.wrapHandler(o.WrapHandler),
		TurnEnded:   o.TurnEnded,
		Go:          o.Go,
		Lang:        lang,
		Describe:    func(err error) string { return describeWithHint(err, lang, o.ErrorHint) },
	}))
	a.channels.Attach(a.svc)
	return a, nil
}

// Subscribe returns a channel of state changes, which first receives the current states,
// and a function that ends the subscription.
func (a *Stack) Subscribe() (<-chan runtime.Event, func()) { return a.sup.Subscribe() }

// SetAgents replaces the agents (a reload): changed ones take effect at their next start,
// removed ones are stopped.
func (a *Stack) SetAgents(agents []config.Agent) {
	a.channels.SetAgents(agentRefs(agents))
	a.sup.SetAgents(agents)
	a.mu.Lock()
	a.agents = agents
	a.mu.Unlock()
}

// SetLimits changes maxRunningAgents and stopIdleAgentsAfter.
func (a *Stack) SetLimits(maxRunning int, idleAfter time.Duration) {
	a.sup.SetLimits(maxRunning, idleAfter)
}

// Busy says whether the conversation has a turn in progress; it reads memory only.
func (a *Stack) Busy(k chat.Key) bool { return a.svc.Busy(k) }

// Cancel cancels the conversation's turn without waiting.
func (a *Stack) Cancel(k chat.Key) { a.svc.Cancel(k) }

// Service is the conversation service, for the windows that show conversations.
func (a *Stack) Service() *chat.Service { return a.svc }

// Routing is the channels' side of the service.
func (a *Stack) Routing() *chat.Channels { return a.channels }

// Commands are the commands each agent announced last, in any of its sessions.
func (a *Stack) Commands() *Commands { return a.commands }

// SetPermissions sets who answers the permission requests of the conversations opened
// from now on (the screen's dialogs, once the screen exists).
func (a *Stack) SetPermissions(f func(chat.Key) chat.Permissions) { a.perms.set(f) }

// Shutdown cancels every turn (waiting a little for the agents to end them), stops every
// agent with its afterStop, then writes what remains of the conversations.
func (a *Stack) Shutdown(ctx context.Context) error {
	tctx, cancel := context.WithTimeout(ctx, turnsGrace)
	svcErr := a.svc.Shutdown(tctx)
	cancel()
	if errors.Is(svcErr, context.DeadlineExceeded) && ctx.Err() == nil {
		svcErr = nil // turns abandoned after the grace: their agents are stopped now
	}
	supErr := a.sup.Shutdown(ctx)
	var wErr error
	if err := a.writer.Close(); err != nil {
		wErr = fmt.Errorf("writing the conversations: %w", err)
	}
	return errors.Join(svcErr, supErr, wErr)
}

// FlushHistory waits until every entry the open conversations have handed to the
// history is written, and returns the error of a write that failed.
func (a *Stack) FlushHistory() error { return a.writer.Flush() }

// StartAgent starts an agent as a turn would, and ends the turn at once. It does not stop
// another agent to make room, nor wait for a slot: ErrNoFreeSlot then.
func (a *Stack) StartAgent(ctx context.Context, name string) error {
	if st := a.sup.State(name); st.Pid == 0 && st.State != runtime.Starting {
		if running, limit := a.sup.Running(); limit > 0 && running >= limit {
			return ErrNoFreeSlot
		}
	}
	lease, err := a.sup.Acquire(ctx, name)
	if err != nil {
		return err
	}
	lease.Release()
	return nil
}

// ConnStatus returns what the connection of the agent's running process knows of it; the
// zero value when none runs.
func (a *Stack) ConnStatus(name string) chat.ConnStatus {
	c := a.conns.Get(name)
	if c == nil {
		return chat.ConnStatus{}
	}
	s := c.Stats()
	out := chat.ConnStatus{
		UnknownUpdates: s.UnknownUpdates, LastUnknownKind: s.LastUnknownKind, LastUnknownError: s.LastUnknownError,
		Ignored: s.Ignored, LastIgnored: s.LastIgnored,
		Malformed: s.Malformed, Oversize: s.Oversize,
	}
	if info := c.Info(); info != nil {
		for _, m := range info.AuthMethods {
			out.AuthMethods = append(out.AuthMethods, chat.AuthMethod{Name: m.Name, Description: m.Description})
		}
	}
	return out
}

// Supervisor is the supervisor of the agents' processes, for the Agents panel.
func (a *Stack) Supervisor() *runtime.Supervisor { return a.sup }

// ErrNoFreeSlot says that an agent was not started as its window opened: every slot is
// taken, and starting it would stop another agent. Its first message starts it.
var ErrNoFreeSlot = errors.New("every slot is taken")

// wrapHandler is the service's WrapHandler: the commands' tap, then next's when set, then
// outermost the sessions' (modes.go), which finds the session its handler is given to.
func (a *Stack) wrapHandler(next func(chat.Key, string, chat.SessionHandler) chat.SessionHandler) func(chat.Key, string, chat.SessionHandler) chat.SessionHandler {
	if next == nil {
		return func(k chat.Key, agent string, h chat.SessionHandler) chat.SessionHandler {
			return a.sessions.wrap(k, agent, a.commands.wrap(k, agent, h))
		}
	}
	return func(k chat.Key, agent string, h chat.SessionHandler) chat.SessionHandler {
		return a.sessions.wrap(k, agent, next(k, agent, a.commands.wrap(k, agent, h)))
	}
}
