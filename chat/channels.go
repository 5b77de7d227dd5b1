package chat

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	sdk "github.com/coder/acp-go-sdk"
)

// ChannelStore is the history as channels need it: who is in a channel, and how far each
// agent has read it. The store implements it through the agent stack's adapter.
type ChannelStore interface {
	// Members returns the channel's members.
	Members(channel int64) ([]string, error)
	// AddMember adds an agent to the channel.
	AddMember(channel int64, agent string) error
	// Unseen returns, oldest first, the newest entries of the channel's conversation the
	// agent has not seen yet: read from the newest back until the messages (the user's and
	// the agents' replies) hold maxBytes of text, the one that crosses it included; all of
	// them when maxBytes ≤ 0. earlier counts the messages with text before those it returns,
	// which it did not read.
	Unseen(channel int64, agent string, maxBytes int) (entries []Entry, earlier int, err error)
	// SetSeen records that the agent has seen the channel up to the entry id; a channel
	// deleted since is not an error.
	SetSeen(channel int64, agent string, id int64) error
}

// Channels is the channels' side of the conversation service (DESIGN.md, "Channels"):
// where a message typed in a channel goes (Route), what an addressed agent hears before the
// message (Prepare: the catch-up of what it has not seen), and how far each agent has read
// the channel (its seen mark in the history, moved once its turn has ended). An agent's own
// window goes through it unchanged. Its methods may be called from any goroutine.
type Channels struct {
	st ChannelStore
	// flush writes every entry handed to the history so far (History.Flush): the
	// catch-up reads the store, which must hold what the conversation shows.
	flush func() error
	// catchUpBytes bounds the catch-up (DefaultCatchUpBytes when 0).
	catchUpBytes int
	// lang is the language of the lines routing adds to a conversation.
	lang i18n.Lang
	logf func(format string, args ...any)

	mu     sync.Mutex
	svc    *Service
	agents []AgentRef
	// pending holds, by conversation and agent, the seen mark the agent reaches once the
	// turn that was given its catch-up ends.
	pending map[agentInConv]int64
	hooks   ChannelHooks
}

// agentInConv names one agent's place in one conversation.
type agentInConv struct {
	key   Key
	agent string
}

// ChannelHooks tell the application what routing did, from the goroutine that sent the
// message (never the screen's). Each may be nil.
type ChannelHooks struct {
	// Members: routing added members to the channel (a mention of an agent that was not
	// one); the channel list must be read again.
	Members func(channel int64)
	// Note: the message was kept as a note (nobody was addressed); r says how to address
	// someone (Routing.HintText in the screen's language).
	Note func(k Key, r Routing)
	// Logf receives the problems the user need not see (the application's log).
	Logf func(format string, args ...any)
}

// NewChannels returns the channels kept in st, whose notices are in lang.
// Hand its Options to NewService, then Attach the service.
func NewChannels(st ChannelStore, lang i18n.Lang) *Channels {
	return &Channels{st: st, lang: lang, logf: func(string, ...any) {}, pending: make(map[agentInConv]int64)}
}

// Options sets the service options of channels in o: Route, Prepare, Files, and TurnEnded
// (calling o's own TurnEnded after it). The catch-up flushes o.History first.
func (c *Channels) Options(o ServiceOptions) ServiceOptions {
	if o.History != nil {
		c.flush = o.History.Flush
	}
	o.Route = c.route
	o.Prepare = c.prepare
	o.Files = c.files
	next := o.TurnEnded
	o.TurnEnded = func(k Key, r TurnResult) {
		c.turnEnded(k, r)
		if next != nil {
			next(k, r)
		}
	}
	return o
}

// LimitCatchUp bounds a catch-up to about n bytes (DefaultCatchUpBytes when n ≤ 0).
func (c *Channels) LimitCatchUp(n int) {
	c.mu.Lock()
	c.catchUpBytes = n
	c.mu.Unlock()
}

// Attach gives the channels the service they serve, to find the conversations they add
// notices to and read turns from.
func (c *Channels) Attach(svc *Service) {
	c.mu.Lock()
	c.svc = svc
	c.mu.Unlock()
}

// SetAgents replaces the configuration's agents (at start and at each reload): a mention
// of one of them adds it to the channel.
func (c *Channels) SetAgents(agents []AgentRef) {
	c.mu.Lock()
	c.agents = append([]AgentRef(nil), agents...)
	c.mu.Unlock()
}

// SetHooks sets what the application is told.
func (c *Channels) SetHooks(h ChannelHooks) {
	c.mu.Lock()
	c.hooks = h
	c.mu.Unlock()
}

// log writes to the hooks' log, else to the routing's own.
func (c *Channels) log(format string, args ...any) {
	c.mu.Lock()
	logf := c.hooks.Logf
	c.mu.Unlock()
	if logf == nil {
		logf = c.logf
	}
	logf(format, args...)
}

// state returns what routing reads under the lock.
func (c *Channels) state() (*Service, []AgentRef, ChannelHooks) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.svc, c.agents, c.hooks
}

// routeError is a channel message that routing refused: nothing was sent or kept, the
// input keeps the text, and the routing's hint says why (HintText, in the screen's
// language).
type routeError struct{ r Routing }

func (e *routeError) Error() string {
	return "message not routed: " + e.r.HintText(i18n.English)
}

// RouteHint returns what the input line says of a message routing refused, false when
// err is another error.
func RouteHint(err error, lang i18n.Lang) (string, bool) {
	var re *routeError
	if !errors.As(err, &re) {
		return "", false
	}
	return re.r.HintText(lang), true
}

// files is the service's Files: in a channel, a word that mentions an agent (a member, or
// any agent of the configuration) stays a mention even when the workspace has a file of
// that name.
func (c *Channels) files(k Key, agent string, files FileSource) FileSource {
	if k.Channel == 0 {
		return files
	}
	members, err := c.st.Members(k.Channel)
	if err != nil {
		members = nil
	}
	_, agents, _ := c.state()
	return ChannelFiles(files, members, agents)
}

// route is the service's Route: an agent's window goes to its agent; a channel's message
// goes where Route says, members added by a mention joining the channel (in the
// history, and with a line in the conversation) before the turns start.
func (c *Channels) route(k Key, text string) ([]Delivery, error) {
	if k.Channel == 0 {
		return []Delivery{{Agent: k.Agent, Text: text}}, nil
	}
	id := k.Channel
	members, err := c.st.Members(id)
	if err != nil {
		return nil, fmt.Errorf("routing a message of channel %d: %w", id, err)
	}
	svc, agents, hooks := c.state()
	r := Route(text, members, agents)
	if r.Rejected() {
		return nil, &routeError{r}
	}
	if len(r.Added) > 0 {
		if err := c.join(svc, k, r.Added, agents); err != nil {
			return nil, err
		}
		if hooks.Members != nil {
			hooks.Members(id)
		}
	}
	if r.Note && hooks.Note != nil {
		hooks.Note(k, r)
	}
	ds := make([]Delivery, len(r.Targets))
	for i, t := range r.Targets {
		ds[i] = Delivery{Agent: t.Agent, Text: t.Text}
	}
	return ds, nil
}

// join adds agents to a channel, each with the line that says so.
func (c *Channels) join(svc *Service, k Key, names []string, agents []AgentRef) error {
	var conv *Conversation
	if svc != nil {
		conv, _ = svc.Conversation(k)
	}
	for _, name := range names {
		if err := c.st.AddMember(k.Channel, name); err != nil {
			return fmt.Errorf("adding %s to channel %d: %w", name, k.Channel, err)
		}
		if conv != nil {
			who := name
			for _, a := range agents {
				if a.Name == name && a.Title != "" {
					who = a.Title
				}
			}
			conv.AddNotice(JoinedNotice(who, c.lang))
		}
	}
	return nil
}

// prepare is the service's Prepare: in a channel, the catch-up of what the agent has not
// seen, as the first block of its prompt (none when there is nothing to tell). It leaves
// out the message being sent and everything of its turn and later ones (another agent's
// answer to the same message, a message sent since), which the agent hears next time.
//
// A command (text starting with /) gets no catch-up: agents recognise a command only at
// the very start of a prompt. Its turn leaves the agent's seen mark where it was, so the
// catch-up waits for the agent's next prompt that is not a command.
func (c *Channels) prepare(k Key, agent, text string) []sdk.ContentBlock {
	if k.Channel == 0 || IsCommand(text) {
		return nil
	}
	svc, _, _ := c.state()
	if svc == nil {
		return nil
	}
	conv, ok := svc.Conversation(k)
	if !ok {
		return nil
	}
	turn := conv.State(agent).Turn
	// The store must hold what the conversation holds: the message itself, the replies
	// that came since the last save.
	conv.Flush()
	if c.flush != nil {
		if err := c.flush(); err != nil {
			c.log("writing channel %d before %s's catch-up: %v", k.Channel, agent, err)
		}
	}
	c.mu.Lock()
	limit := catchUpBytes(c.catchUpBytes)
	c.mu.Unlock()
	// Only what the catch-up can hold is read: the newest messages, up to its bound.
	unseen, earlier, err := c.st.Unseen(k.Channel, agent, limit)
	if err != nil {
		c.log("catch-up of %s in channel %d: %v", agent, k.Channel, err)
		return nil
	}
	heard, mark := catchUpOf(unseen, turn)
	c.mu.Lock()
	c.pending[agentInConv{k, agent}] = mark
	c.mu.Unlock()
	block, omitted := catchUp(heard, agent, limit, earlier)
	if omitted > 0 {
		c.log("catch-up of %s in channel %d: %d older messages left out", agent, k.Channel, omitted)
	}
	if block == "" {
		return nil
	}
	return []sdk.ContentBlock{sdk.TextBlock(block)}
}

// catchUpOf splits what an agent has not seen (oldest first, as Store.Unseen gives it) for
// its turn number turn: heard is what its catch-up may tell (the entries of earlier turns),
// and mark the last entry it will have seen once the turn has run — the seen mark moves
// only past what the agent is given: it stops before the first message or reply it is not
// (a reply of this turn or a later one, or one still being written: told unfinished now,
// told whole next time). The message of the turn itself counts as given.
func catchUpOf(unseen []Entry, turn int64) (heard []Entry, mark int64) {
	blocked := false
	for _, e := range unseen {
		earlier := e.Turn < turn
		if earlier {
			heard = append(heard, e)
		}
		if blocked {
			continue
		}
		given := earlier && e.Done || e.Kind == KindUser && e.Turn == turn
		if !given && said(e) {
			blocked = true
			continue
		}
		mark = e.ID
	}
	return heard, mark
}

// said reports whether an entry is something a catch-up repeats: a message or a reply
// with text. Thoughts, tool calls, plans and notices are never repeated, so never wait.
func said(e Entry) bool {
	return (e.Kind == KindUser || e.Kind == KindAgent) && strings.TrimSpace(e.Text) != ""
}

// turnEnded moves the agent's seen mark past what its turn gave it, once the turn ran:
// a turn that failed (the agent could not be started, its process ended) may not have
// reached the agent, which hears it all again next time.
func (c *Channels) turnEnded(k Key, r TurnResult) {
	if k.Channel == 0 {
		return
	}
	c.mu.Lock()
	mark, ok := c.pending[agentInConv{k, r.Agent}]
	delete(c.pending, agentInConv{k, r.Agent})
	c.mu.Unlock()
	if !ok || r.Err != nil || mark <= 0 {
		return
	}
	if err := c.st.SetSeen(k.Channel, r.Agent, mark); err != nil {
		c.log("recording what %s has seen of channel %d: %v", r.Agent, k.Channel, err)
	}
}
