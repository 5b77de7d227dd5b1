package chat

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/guard"
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// DefaultPageSize is how many entries of history a conversation shows when it opens, and
// how many more each LoadOlder brings.
const DefaultPageSize = 200

// ErrShutdown is returned by the Service's calls after Shutdown.
var ErrShutdown = errors.New("the conversations are shut down")

// Delivery is one agent a message is sent to, and the text of its prompt.
type Delivery struct {
	Agent string
	Text  string
}

// TurnResult says how an agent's turn ended.
type TurnResult struct {
	Agent string
	// Turn is the turn's number in the conversation.
	Turn int64
	// StopReason is the agent's stop reason (StopEndTurn…); StopCancelled as well for a
	// turn withdrawn before its prompt was sent; "" when the turn failed.
	StopReason string
	// Err says why the turn failed; nil otherwise.
	Err error
	// Cancelled says Cancel, Close or Shutdown asked for the turn to end.
	Cancelled bool
}

// ServiceOptions configure a Service.
type ServiceOptions struct {
	// Agents starts agents and hands out turns (the supervisor). Required.
	Agents Agents
	// History keeps conversations and ACP session ids (the store); nil keeps everything
	// in memory, for the Service's life.
	History History
	// Permissions returns who answers the permission requests of a conversation's agents
	// (the screen's dialog for that window); nil, or a nil result, cancels every request.
	Permissions func(k Key) Permissions
	// Lang is the language of the notices.
	Lang i18n.Lang
	// Now is the clock of the conversations; time.Now when nil.
	Now func() time.Time
	// PageSize is how many entries Open and LoadOlder load (DefaultPageSize when 0).
	PageSize int
	// Describe turns an error into the text the user reads (acp.Describe in the user's
	// language); err.Error() when nil.
	Describe func(err error) string
	// Route says which agents a message of a conversation goes to, and the prompt text
	// each gets. Nil routes a message of an agent's window to that agent, and keeps a
	// message of a channel in the conversation (a note). The channels issue sets it.
	Route func(k Key, text string) ([]Delivery, error)
	// Prepare, when set, gives blocks to put before an agent's prompt at the start of its
	// turn (a channel's catch-up: what the agent has not seen yet); text is what the agent
	// receives (its Delivery's Text).
	Prepare func(k Key, agent, text string) []sdk.ContentBlock
	// Files, when set, gives the files that @mentions name in the prompt of an agent's
	// turn, from those of its workspace (in a channel, ChannelFiles: a mention of an agent
	// is never a file).
	Files func(k Key, agent string, files FileSource) FileSource
	// WrapHandler, when set, wraps the handler of each session the service opens, so
	// that the caller sees the agent's updates as they arrive (sidekicks ask prints the
	// reply this way). The wrapper must pass every call on to h.
	WrapHandler func(k Key, agent string, h SessionHandler) SessionHandler
	// TurnEnded, when set, is called once each turn has ended (its entries finished),
	// on the turn's goroutine. It must not block for long.
	TurnEnded func(k Key, r TurnResult)
	// Logf receives problems the user need not see (a session id that could not be
	// saved); nil discards them.
	Logf func(format string, args ...any)
	// Go starts the service's goroutines: each turn ("chat turn <agent> in <key>") and the
	// closing of a conversation ("chat closing <key>"). Nil starts them with a plain go
	// statement; the application passes a guard that restores the terminal and logs a
	// panic.
	Go guard.Go
}

// Service is what the screen talks to: it opens conversations with their history, sends
// messages (queueing them while an addressed agent is busy), runs each agent's turn
// (a slot from the supervisor, the ACP session, the prompt), cancels turns and shuts
// everything down. Its methods may be called from any goroutine; none of them waits for
// an agent, except Shutdown (Open, LoadOlder and the first Send of a key read the store).
type Service struct {
	opts ServiceOptions

	mu      sync.Mutex
	convs   map[Key]*convState
	closing map[Key]chan struct{} // closed when the conversation's Close has finished
	shut    bool
	turns   sync.WaitGroup
}

// convState is a conversation with what the service keeps for it. Its fields are guarded
// by Service.mu, except where said.
type convState struct {
	key  Key
	conv *Conversation
	tr   Transcript // nil without history
	perm Permissions

	queue    []queuedMessage
	turns    map[string]*turn         // by agent
	sessions map[string]*agentSession // by agent
	lastID   map[string]string        // by agent: the last session id, without history
	closed   bool
	active   sync.WaitGroup // the conversation's turn goroutines

	// dispatchMu orders the dispatch of queued messages, so that user messages enter the
	// conversation in the order they were sent; held without Service.mu.
	dispatchMu sync.Mutex
	// olderMu serializes LoadOlder; exhausted (under it) is true once the oldest entry of
	// the history is loaded, as long as the conversation has released none since
	// (Conversation.Released was exhaustedAt).
	olderMu     sync.Mutex
	exhausted   bool
	exhaustedAt int
}

// queuedMessage is a message waiting for its agents to be free.
type queuedMessage struct {
	text       string
	deliveries []Delivery
}

// NewService returns a service; nothing starts before Send.
func NewService(opts ServiceOptions) *Service {
	if opts.PageSize <= 0 {
		opts.PageSize = DefaultPageSize
	}
	if opts.Describe == nil {
		opts.Describe = func(err error) string { return err.Error() }
	}
	if opts.Logf == nil {
		opts.Logf = func(string, ...any) {}
	}
	return &Service{opts: opts, convs: make(map[Key]*convState), closing: make(map[Key]chan struct{})}
}

func (s *Service) now() time.Time {
	if s.opts.Now != nil {
		return s.opts.Now()
	}
	return time.Now()
}

// Open returns the conversation of k, with the last page of its history loaded and its
// entries saved to the history as they change. Opening it again returns the same
// conversation until Close.
func (s *Service) Open(k Key) (*Conversation, error) {
	cs, err := s.open(k)
	if err != nil {
		return nil, err
	}
	return cs.conv, nil
}

// Conversation returns the conversation of k when it is open.
func (s *Service) Conversation(k Key) (*Conversation, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cs := s.convs[k]; cs != nil {
		return cs.conv, true
	}
	return nil, false
}

func (s *Service) open(k Key) (*convState, error) {
	for {
		s.mu.Lock()
		if s.shut {
			s.mu.Unlock()
			return nil, ErrShutdown
		}
		if cs := s.convs[k]; cs != nil {
			s.mu.Unlock()
			return cs, nil
		}
		wait := s.closing[k]
		s.mu.Unlock()
		if wait == nil {
			break
		}
		<-wait // a Close of the same conversation is saving its last entries
	}

	conv := New(Options{Now: s.opts.Now, Lang: s.opts.Lang, Go: s.opts.Go})
	var tr Transcript
	exhausted := true
	if s.opts.History != nil {
		var err error
		if tr, err = s.opts.History.Open(k); err != nil {
			return nil, err
		}
		page, err := tr.LastPage(s.opts.PageSize)
		if err != nil {
			return nil, err
		}
		conv.Load(page)
		conv.SetSink(tr)
		if r, ok := tr.(TurnReader); ok {
			// Turns the last Sidekicks never saw end. Not knowing them only loses the
			// notice: the conversation opens all the same.
			if marks, err := r.OpenTurns(); err == nil {
				conv.Interrupted(marks)
			}
		}
		exhausted = len(page) < s.opts.PageSize
	}
	var perm Permissions
	if s.opts.Permissions != nil {
		perm = s.opts.Permissions(k)
	}
	cs := &convState{
		key: k, conv: conv, tr: tr, perm: perm, exhausted: exhausted,
		turns: make(map[string]*turn), sessions: make(map[string]*agentSession), lastID: make(map[string]string),
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shut {
		return nil, ErrShutdown
	}
	if other := s.convs[k]; other != nil { // opened meanwhile by another caller
		return other, nil
	}
	s.convs[k] = cs
	return cs, nil
}

// LoadOlder puts the page of history before the oldest entry shown at the start of the
// conversation (the user scrolled up), and returns how many entries it added: 0 once the
// whole history is shown.
func (s *Service) LoadOlder(k Key) (int, error) {
	s.mu.Lock()
	cs := s.convs[k]
	s.mu.Unlock()
	if cs == nil || cs.tr == nil {
		return 0, nil
	}
	cs.olderMu.Lock()
	defer cs.olderMu.Unlock()
	released := cs.conv.Released()
	if cs.exhausted && released == cs.exhaustedAt {
		return 0, nil
	}
	first, ok := cs.conv.Entry(0)
	if !ok || first.ID == 0 {
		cs.exhausted, cs.exhaustedAt = true, released
		return 0, nil
	}
	older, err := cs.tr.Before(first.ID, s.opts.PageSize)
	if err != nil {
		return 0, err
	}
	cs.exhausted, cs.exhaustedAt = len(older) < s.opts.PageSize, released
	cs.conv.Load(older)
	return len(older), nil
}

// Send sends what the user typed in the conversation of k (opened when it is not): the
// message goes to the agents Route gives (in an agent's window, that agent). It is queued
// while one of them is in a turn of this conversation, or while earlier messages wait,
// and sent when they are free: the user's entry is added then. Blank text is ignored.
func (s *Service) Send(k Key, text string) error {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	cs, err := s.open(k)
	if err != nil {
		return err
	}
	deliveries, err := s.route(k, text)
	if err != nil {
		return err
	}
	s.mu.Lock()
	if s.shut || cs.closed {
		s.mu.Unlock()
		return ErrShutdown
	}
	m := queuedMessage{text: text, deliveries: deliveries}
	cs.queue = append(cs.queue, m)
	waits := len(cs.queue) > 1 || !cs.free(m)
	s.mu.Unlock()
	if waits {
		cs.conv.touch() // the queue is part of what the screen shows
		return nil
	}
	s.dispatch(cs)
	return nil
}

// route applies the Route option, keeping each agent once.
func (s *Service) route(k Key, text string) ([]Delivery, error) {
	var ds []Delivery
	switch {
	case s.opts.Route != nil:
		var err error
		if ds, err = s.opts.Route(k, text); err != nil {
			return nil, err
		}
	case k.Agent != "":
		ds = []Delivery{{Agent: k.Agent, Text: text}}
	}
	seen := make(map[string]bool, len(ds))
	out := ds[:0:0]
	for _, d := range ds {
		if d.Agent != "" && !seen[d.Agent] {
			seen[d.Agent] = true
			out = append(out, d)
		}
	}
	return out, nil
}

// free reports whether none of the message's agents is in a turn. The caller holds
// Service.mu.
func (cs *convState) free(m queuedMessage) bool {
	for _, d := range m.deliveries {
		if cs.turns[d.Agent] != nil {
			return false
		}
	}
	return true
}

// dispatch sends the queued messages whose agents are free, in order, and starts their
// turns.
func (s *Service) dispatch(cs *convState) {
	cs.dispatchMu.Lock()
	defer cs.dispatchMu.Unlock()
	for {
		s.mu.Lock()
		if s.shut || cs.closed || len(cs.queue) == 0 || !cs.free(cs.queue[0]) {
			s.mu.Unlock()
			return
		}
		m := cs.queue[0]
		cs.queue = cs.queue[1:]
		turns := make([]*turn, len(m.deliveries))
		for i, d := range m.deliveries {
			ctx, cancel := context.WithCancel(context.Background())
			turns[i] = &turn{agent: d.Agent, text: d.Text, ctx: ctx, cancel: cancel, started: s.now()}
			cs.turns[d.Agent] = turns[i]
		}
		s.turns.Add(len(turns))
		cs.active.Add(len(turns))
		s.mu.Unlock()

		cs.conv.AddUser(m.text)
		for _, t := range turns {
			// BeginAgentTurn calls the conversation's OnChange, which may call back into
			// the service: it runs outside s.mu, and the number is stored under it, where
			// Turns reads it.
			num := cs.conv.BeginAgentTurn(t.agent)
			s.mu.Lock()
			t.num = num
			s.mu.Unlock()
			s.opts.Go.Start("chat turn "+t.agent+" in "+cs.key.String(), func() { s.run(cs, t) })
		}
	}
}
