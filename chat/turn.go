package chat

import (
	"errors"
	"slices"
	"time"

	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// Stop reasons of a turn, as ACP names them.
const (
	StopEndTurn         = "end_turn"
	StopMaxTokens       = "max_tokens"
	StopMaxTurnRequests = "max_turn_requests"
	StopRefusal         = "refusal"
	StopCancelled       = "cancelled"
)

// Errors a turn fails with when its agent's process was stopped on purpose while the turn
// ran (the Agents panel's Stop or Restart, the agent's window closed): the turn then ends
// with a notice that says so, not with an error. The agents' port wraps them in its error.
var (
	ErrAgentStopped   = errors.New("the agent was stopped")
	ErrAgentRestarted = errors.New("the agent was restarted")
)

// agentState is what the conversation knows of one agent: its turn, the entries it is
// feeding, its tool calls, commands and usage.
type agentState struct {
	name       string
	turn       int64
	busy       bool
	cancelling bool
	cancelled  bool // the last turn ended cancelled
	started    time.Time

	open     *item             // the entry that text chunks of openKind extend
	plan     *item             // this turn's plan, updated in place
	tools    map[toolRef]*item // its tool calls still addressable, by session and id (toolcall.go)
	terms    terminalTrack     // the output of its terminals, and the tool calls showing them
	created  int               // entries made in this turn, against MaxTurnEntries
	full     bool              // the turn reached MaxTurnEntries and said so
	perm     *permGroup        // the permission requests waiting, one notice for all
	sessions uint64            // how many handlers (sessions) it was given: the last one's number

	commands []Command
	usage    *Usage
	title    string // the session's title (session_info_update)
	stats    Stats
}

// TurnState is where an agent is in its turn.
type TurnState struct {
	// Turn is the number of the agent's current or last turn (0 before the first).
	Turn int64
	// Busy is true from BeginAgentTurn to EndTurn.
	Busy bool
	// Cancelling is true once the turn is being cancelled, until it ends.
	Cancelling bool
	// Cancelled is true when the last turn, ended, was cancelled: nothing waits for the
	// user after it.
	Cancelled bool
	// Started is when the current or last turn began.
	Started time.Time
}

// agent returns the state of an agent, creating it. The caller holds the lock.
func (c *Conversation) agent(name string) *agentState {
	a, ok := c.agents[name]
	if !ok {
		a = &agentState{name: name, tools: make(map[toolRef]*item)}
		c.agents[name] = a
	}
	return a
}

// AddUser adds the user's message, as typed (sanitized all the same: it may have been
// pasted), and starts a new turn number, which it returns. In a channel the lead adds the
// message once, then begins the turn of each agent it is routed to.
func (c *Conversation) AddUser(text string) int64 {
	c.mu.Lock()
	turn := c.addUser(text)
	c.unlock(true)
	return turn
}

func (c *Conversation) addUser(text string) int64 {
	c.turn++
	now := c.now()
	it := c.addItem(KindUser, nil, now)
	c.setText(it, text)
	c.finish(it, now)
	return c.turn
}

// BeginAgentTurn starts an agent's turn, numbered like the last user message, and returns
// that number. Whatever the agent was still feeding is finished first.
func (c *Conversation) BeginAgentTurn(agent string) int64 {
	c.mu.Lock()
	turn := c.beginAgentTurn(agent)
	c.unlock(true)
	return turn
}

func (c *Conversation) beginAgentTurn(agent string) int64 {
	a := c.agent(agent)
	now := c.now()
	c.finishAgent(a, now)
	if c.turn == 0 {
		c.turn = 1
	}
	a.turn = c.turn
	a.busy, a.cancelling, a.cancelled, a.started = true, false, false, now
	a.created, a.full = 0, false
	c.queueMark(TurnMark{Agent: a.name, Turn: a.turn, Started: now, Open: true})
	c.rev++
	return a.turn
}

// BeginTurn adds the user's message and starts the agent's turn: the one-to-one case of
// AddUser then BeginAgentTurn. It returns the turn's number.
func (c *Conversation) BeginTurn(agent, userText string) int64 {
	c.mu.Lock()
	c.addUser(userText)
	turn := c.beginAgentTurn(agent)
	c.unlock(true)
	return turn
}

// Cancelling marks the agent's turn as being cancelled (session/cancel was sent); the turn
// ends when the agent answers the prompt, with EndTurn.
func (c *Conversation) Cancelling(agent string) {
	c.mu.Lock()
	a := c.agent(agent)
	changed := a.busy && !a.cancelling
	if changed {
		a.cancelling = true
		c.rev++
	}
	c.unlock(changed)
}

// EndTurn ends an agent's turn: every entry it was feeding is finished (and saved), and a
// notice says why the turn ended when that is not the normal end: an error (err, whose
// message is sanitized; ErrAgentRestarted and ErrAgentStopped say the turn was
// interrupted), a cancel, a limit or a refusal. With an empty stop reason and no
// error it only finishes what the agent was feeding, which is what to call after a
// session/load has replayed a conversation.
func (c *Conversation) EndTurn(agent, stopReason string, err error) {
	c.mu.Lock()
	a := c.agent(agent)
	c.finishAgent(a, c.now())
	name := line(agent)
	switch {
	case errors.Is(err, ErrAgentRestarted):
		c.addNotice(a, catalogue.Text(c.lang, msgTurnRestarted, name))
	case errors.Is(err, ErrAgentStopped):
		c.addNotice(a, catalogue.Text(c.lang, msgTurnStopped, name))
	case err != nil:
		c.addNotice(a, catalogue.Text(c.lang, msgTurnError, name, safetext.Text(err.Error())))
	case stopReason == "" || stopReason == StopEndTurn:
	case stopReason == StopCancelled:
		c.addNotice(a, catalogue.Text(c.lang, msgTurnCancelled, name))
	case stopReason == StopMaxTokens:
		c.addNotice(a, catalogue.Text(c.lang, msgStopMaxTokens, name))
	case stopReason == StopMaxTurnRequests:
		c.addNotice(a, catalogue.Text(c.lang, msgStopMaxTurnRequests, name))
	case stopReason == StopRefusal:
		c.addNotice(a, catalogue.Text(c.lang, msgStopRefusal, name))
	default:
		c.addNotice(a, catalogue.Text(c.lang, msgStopOther, name, line(stopReason)))
	}
	if a.busy {
		c.queueMark(TurnMark{Agent: a.name, Turn: a.turn})
	}
	if a.busy {
		a.cancelled = a.cancelling || stopReason == StopCancelled
	}
	a.busy, a.cancelling = false, false
	c.rev++
	c.unlock(true)
}

// forgetUsage drops the agent's last usage_update: its new session has reported none yet.
func (c *Conversation) forgetUsage(agent string) {
	c.mu.Lock()
	a := c.agent(agent)
	changed := a.usage != nil
	if changed {
		a.usage = nil
		c.rev++
	}
	c.unlock(changed)
}

// Busy reports whether the agent is in a turn.
func (c *Conversation) Busy(agent string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	a, ok := c.agents[agent]
	return ok && a.busy
}

// State returns where the agent is in its turn.
func (c *Conversation) State(agent string) TurnState {
	c.mu.Lock()
	defer c.mu.Unlock()
	a, ok := c.agents[agent]
	if !ok {
		return TurnState{}
	}
	return TurnState{Turn: a.turn, Busy: a.busy, Cancelling: a.cancelling, Cancelled: a.cancelled, Started: a.started}
}

// finishAgent finishes every entry the agent is still feeding. The caller holds the lock.
func (c *Conversation) finishAgent(a *agentState, now time.Time) {
	var mine []*item
	for it := range c.live {
		if it.agent == a {
			mine = append(mine, it)
		}
	}
	slices.SortFunc(mine, bySeq) // saved in the order they were made
	for _, it := range mine {
		c.finish(it, now)
	}
	a.open, a.plan = nil, nil
}
