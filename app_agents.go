package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/store"
)

// agentRunner is what the application asks of the agents: their states, and the changes
// of a reload and of quitting. Every method but Subscribe may wait on I/O or on processes:
// the application calls them off the screen's goroutine.
type agentRunner interface {
	// Subscribe returns a channel of state changes, which first receives the current
	// states, and a function that ends the subscription.
	Subscribe() (<-chan runtime.Event, func())
	// SetAgents replaces the agents (a reload): changed ones take effect at their next
	// start, removed ones are stopped.
	SetAgents(agents []config.Agent)
	// SetLimits changes maxRunningAgents and stopIdleAgentsAfter.
	SetLimits(maxRunning int, idleAfter time.Duration)
	// Shutdown ends the turns, stops every agent and waits for their ends and afterStop
	// commands.
	Shutdown(ctx context.Context) error
}

// turnCanceller is an agentRunner that runs conversations: Agent ▸ Cancel turn asks it.
// Busy reads memory only (the screen's goroutine may call it); Cancel does not wait.
type turnCanceller interface {
	Busy(k chat.Key) bool
	Cancel(k chat.Key)
}

// agentsFactory makes the agents of a configuration, with their logs and the history.
type agentsFactory func(cfg *config.Config, logs *runtime.Logs, st *store.Store) (agentRunner, error)

// turnsGrace bounds how long quitting waits for the agents to end their cancelled turns
// before their processes are stopped.
const turnsGrace = 5 * time.Second

// appAgents are the application's agents: the supervisor of their processes, each with an
// initialized ACP connection (agents.go), and the conversation service on them, which
// keeps its conversations in the history.
type appAgents struct {
	sup      *runtime.Supervisor
	svc      *chat.Service
	writer   *store.Writer
	conns    *agentConns
	channels *channelRouting
	commands *knownCommands
	perms    permissionsHook
}

// newAppAgents is the application's agentsFactory.
func newAppAgents(cfg *config.Config, logs *runtime.Logs, st *store.Store) (agentRunner, error) {
	a := &appAgents{conns: newAgentConns(), writer: store.NewWriter(st), commands: newKnownCommands()}
	a.sup = newSupervisor(cfg, agentsOptions{Logs: logs, Conns: a.conns})
	lang := cfg.UI.Language
	a.channels = newChannelRouting(st, a.writer.Flush, lang, nil)
	a.channels.setAgents(cfg.Agents)
	a.svc = chat.NewService(a.channels.options(chat.ServiceOptions{
		Agents:      agentPool{a.sup},
		History:     newStoreHistory(st, a.writer),
		Permissions: a.perms.get,
		WrapHandler: a.commands.wrap,
		Lang:        lang,
		Describe:    func(err error) string { return describeError(err, lang) },
	}))
	a.channels.attach(a.svc)
	return a, nil
}

func (a *appAgents) Subscribe() (<-chan runtime.Event, func()) { return a.sup.Subscribe() }

func (a *appAgents) SetAgents(agents []config.Agent) {
	a.channels.setAgents(agents)
	a.sup.SetAgents(agents)
}

func (a *appAgents) SetLimits(maxRunning int, idleAfter time.Duration) {
	a.sup.SetLimits(maxRunning, idleAfter)
}

func (a *appAgents) Busy(k chat.Key) bool { return a.svc.Busy(k) }

func (a *appAgents) Cancel(k chat.Key) { a.svc.Cancel(k) }

// Service is the conversation service, for the windows that show conversations.
func (a *appAgents) Service() *chat.Service { return a.svc }

// Routing is the channels' side of the service.
func (a *appAgents) Routing() *channelRouting { return a.channels }

// Commands are the commands each agent announced last, in any of its sessions.
func (a *appAgents) Commands() *knownCommands { return a.commands }

// SetPermissions sets who answers the permission requests of the conversations opened
// from now on (the screen's dialogs, once the screen exists).
func (a *appAgents) SetPermissions(f func(chat.Key) chat.Permissions) { a.perms.set(f) }

// Shutdown cancels every turn (waiting a little for the agents to end them), stops every
// agent with its afterStop, then writes what remains of the conversations.
func (a *appAgents) Shutdown(ctx context.Context) error {
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
