package chat

import (
	"context"
	"fmt"

	sdk "github.com/coder/acp-go-sdk"
)

// The Service reaches the supervisor, the ACP client and the store through the small
// interfaces of this file; package main wires the real ones (chat imports none of them).

// Key names a conversation: an agent's own window (Agent set) or a channel (Channel set).
type Key struct {
	// Agent is the agent of its own window; "" for a channel.
	Agent string
	// Channel is the channel's id in the history; 0 for an agent window.
	Channel int64
}

// AgentKey is the key of an agent's own window.
func AgentKey(name string) Key { return Key{Agent: name} }

// ChannelKey is the key of a channel's conversation.
func ChannelKey(id int64) Key { return Key{Channel: id} }

// String names the conversation for logs: "agent alice" or "channel 3".
func (k Key) String() string {
	if k.Agent != "" {
		return fmt.Sprintf("agent %s", k.Agent)
	}
	return fmt.Sprintf("channel %d", k.Channel)
}

// Agents is the supervisor as the service sees it.
type Agents interface {
	// Acquire starts a turn with an agent: it starts the agent when needed, or waits for a
	// free slot, and returns once the agent is ready. Cancelling ctx gives up the wait.
	Acquire(ctx context.Context, agent string) (Lease, error)
}

// Lease is a turn in progress with a running agent; the agent keeps running while it is
// held.
type Lease interface {
	// Conn is the ACP connection of the agent's current process. The same process gives
	// the same value (compared with ==): a different one means the agent was restarted,
	// and its sessions must be opened again.
	Conn() AgentConn
	// Release ends the turn. Calling it again does nothing.
	Release()
}

// ConnInfo is what the service needs to know of an agent's connection.
type ConnInfo struct {
	// Cwd is the workspace as the agent sees it: every session's working directory.
	Cwd string
	// LoadSession says the agent can reopen an earlier session (session/load).
	LoadSession bool
	// Resume says the agent can continue an earlier session without replaying it
	// (session/resume; the AgentConn is then a SessionResumer).
	Resume bool
	// EmbeddedContext says prompts may carry files' contents (resource blocks).
	EmbeddedContext bool
}

// AgentConn is one agent process's ACP connection.
type AgentConn interface {
	Info() ConnInfo
	// Files is the agent's workspace as prompt building sees it, for one prompt (it may
	// cache what it lists).
	Files() FileSource
	// NewSession creates a session in cwd; its updates go to h.
	NewSession(ctx context.Context, cwd string, h SessionHandler) (AgentSession, error)
	// LoadSession reopens the session id in cwd; the updates it replays, then the
	// session's, go to h.
	LoadSession(ctx context.Context, id, cwd string, h SessionHandler) (AgentSession, error)
}

// AgentSession is one ACP session.
type AgentSession interface {
	ID() string
	// Prompt sends one user turn and waits until the agent ends it; when ctx is done it
	// stops waiting without telling the agent.
	Prompt(ctx context.Context, blocks []sdk.ContentBlock) (sdk.StopReason, error)
	// Cancel asks the agent to end the current turn (session/cancel) and cancels the
	// session's pending permission requests.
	Cancel() error
	// Close stops routing the session's updates.
	Close()
}

// SessionHandler receives what an agent sends for one session (the acp package's
// SessionHandler has the same methods). Chunk and Update are called on the goroutine that
// reads the agent and must be quick; RequestPermission may wait for the user until ctx is
// done.
type SessionHandler interface {
	Chunk(kind string, text string)
	Update(u sdk.SessionUpdate)
	RequestPermission(ctx context.Context, req sdk.RequestPermissionRequest) sdk.RequestPermissionResponse
}

// History is where conversations are kept (the store).
type History interface {
	// Open returns the history of one conversation, created when missing.
	Open(k Key) (Transcript, error)
	// Flush waits until every entry saved so far is written.
	Flush() error
}

// Transcript is the history of one conversation. As a Sink it saves the conversation's
// entries: it gives each new entry (by Seq) an id, and updates that row when the entry
// is saved again.
type Transcript interface {
	Sink
	// LastPage returns the last n entries, oldest first.
	LastPage(n int) ([]Entry, error)
	// Before returns the n entries just before the entry id, oldest first.
	Before(id int64, n int) ([]Entry, error)
	// Session returns the ACP session id the agent has in this conversation, "" when none.
	Session(agent string) (string, error)
	// SetSession records the agent's ACP session id in this conversation.
	SetSession(agent, id string) error
}
