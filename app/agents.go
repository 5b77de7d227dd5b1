package app

import (
	"context"
	"os/exec"
	"time"

	"git.rickub.com/bots-garden/sidekicks/agentstack"
	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/store"
)

// Agents is everything the screen needs from the agent stack, in one interface: no feature
// depends on a type assertion, so a fake that lacks a method does not compile instead of
// making a feature vanish. agentstack.Stack implements it.
//
// Busy and Subscribe read memory only (the screen's goroutine may call them); Cancel does
// not wait; every other method may wait on I/O or on processes, and the application calls
// them off the screen's goroutine.
type Agents interface {
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

	// Busy says whether the conversation has a turn in progress; Cancel cancels it
	// (Agent ▸ Cancel turn).
	Busy(k chat.Key) bool
	Cancel(k chat.Key)
	// Service is the conversation service the windows show.
	Service() *chat.Service
	// Routing is the channels' side of the service.
	Routing() *chat.Channels
	// Commands are the commands each agent announced last, in any of its sessions.
	Commands() *agentstack.Commands
	// SetPermissions sets who answers the permission requests of the conversations
	// opened from now on (the screen, once it exists).
	SetPermissions(f func(chat.Key) chat.Permissions)

	// StartAgent starts the agent as its window opens, unless that would stop another
	// one or wait for a slot (agentstack.ErrNoFreeSlot); it returns once the agent is
	// ready, failed, or ctx ended.
	StartAgent(ctx context.Context, name string) error
	// ConnStatus is what the connection of the agent's running process knows of it.
	ConnStatus(name string) chat.ConnStatus
	// Supervisor runs the agents' processes, for the Agents panel.
	Supervisor() *runtime.Supervisor

	// Signing in (signin.go): the login methods of the agent's running process, signing
	// in with one of them or out, the command of a terminal login.
	LoginMethods(agent string) ([]agentstack.LoginMethod, bool, error)
	SignIn(ctx context.Context, agent, methodID string) error
	SignOut(ctx context.Context, agent string) error
	TerminalLogin(agent, methodID string) (*exec.Cmd, error)
	// Session options (options.go): the modes and options of an agent's session in a
	// conversation, and changing them (remembered for the session).
	SessionState(k chat.Key, agent string) (agentstack.SessionState, bool)
	SetSessionMode(ctx context.Context, k chat.Key, agent, mode string) error
	SetSessionOption(ctx context.Context, k chat.Key, agent, id, value string) error
	// SessionLabel is the model and mode of the agent's session, for its window's rule; it
	// reads memory only.
	SessionLabel(k chat.Key, agent string) string
	// ListSessions lists an agent's sessions (Agent ▸ Sessions…), starting it when
	// needed; ContinueSession makes its window continue one of them.
	ListSessions(ctx context.Context, name string) (agentstack.SessionList, error)
	ContinueSession(ctx context.Context, name, id, title string) error
}

var _ Agents = (*agentstack.Stack)(nil)

// agentsFactory makes the agents of a configuration, kept in the history st, with the
// options the application chose (their logs, the screen's guard as their starter).
type agentsFactory func(cfg *config.Config, o agentstack.Options, st *store.Store) (Agents, error)

// newAgents is the application's agentsFactory.
func newAgents(cfg *config.Config, o agentstack.Options, st *store.Store) (Agents, error) {
	return agentstack.New(cfg, o, st)
}
