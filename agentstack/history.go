package agentstack

import (
	"errors"
	"sync"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/store"
)

// storeHistory gives the history database to chat's Service: conversations are found
// in the store, their entries saved through one Writer.
type storeHistory struct {
	st *store.Store
	w  *store.Writer
}

func newStoreHistory(st *store.Store, w *store.Writer) *storeHistory {
	return &storeHistory{st: st, w: w}
}

// Open finds the conversation of an agent's window or of a channel, creating it.
func (h *storeHistory) Open(k chat.Key) (chat.Transcript, error) {
	var conv store.ConvID
	var err error
	if k.Agent != "" {
		conv, err = h.st.AgentConversation(k.Agent)
	} else {
		conv, err = h.st.ChannelConversation(store.ChannelID(k.Channel))
	}
	if err != nil {
		return nil, err
	}
	return &storeTranscript{h: h, conv: conv, ids: make(map[int64]int64)}, nil
}

// Flush waits until the Writer has written every entry saved so far.
func (h *storeHistory) Flush() error { return h.w.Flush() }

// storeTranscript is one conversation of the store. The conversation tells its entries
// apart by Seq and the store by id: the id the Writer gives an entry the first time is
// kept for its Seq, so that its next saves update the same row.
type storeTranscript struct {
	h    *storeHistory
	conv store.ConvID

	mu  sync.Mutex
	ids map[int64]int64 // Seq → entry id
}

func (t *storeTranscript) Save(e chat.Entry) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if e.ID == 0 {
		e.ID = t.ids[e.Seq]
	}
	t.ids[e.Seq] = t.h.w.Save(t.conv, e)
}

// SaveTurn hands a turn mark to the Writer, in order with the entries.
func (t *storeTranscript) SaveTurn(m chat.TurnMark) { t.h.w.SaveTurn(t.conv, m) }

// OpenTurns waits for the Writer first, like LastPage: a turn that just ended is not open.
func (t *storeTranscript) OpenTurns() ([]chat.TurnMark, error) {
	_ = t.h.w.Flush()
	return t.h.st.OpenTurns(t.conv)
}

// LastPage waits for the Writer first, so that a conversation closed and reopened at once
// shows the entries it saved last. A write that failed stays queued in the Writer, which
// retries it; what is already stored is shown all the same.
func (t *storeTranscript) LastPage(n int) ([]chat.Entry, error) {
	_ = t.h.w.Flush()
	return t.h.st.LastPage(t.conv, n)
}

func (t *storeTranscript) Before(id int64, n int) ([]chat.Entry, error) {
	return t.h.st.Before(t.conv, id, n)
}

func (t *storeTranscript) Session(agent string) (string, error) { return t.h.st.Session(t.conv, agent) }

func (t *storeTranscript) SetSession(agent, id string) error {
	return t.h.st.SetSession(t.conv, agent, id)
}

// storeChannels gives the history's channels to chat's channel routing.
type storeChannels struct{ st *store.Store }

func (c storeChannels) Members(channel int64) ([]string, error) {
	return c.st.Members(store.ChannelID(channel))
}

func (c storeChannels) AddMember(channel int64, agent string) error {
	return c.st.AddMember(store.ChannelID(channel), agent)
}

func (c storeChannels) Unseen(channel int64, agent string, maxBytes int) ([]chat.Entry, int, error) {
	id, err := c.st.ChannelConversation(store.ChannelID(channel))
	if err != nil {
		return nil, 0, err
	}
	return c.st.UnseenNewest(id, agent, maxBytes)
}

// SetSeen records the mark; a channel deleted since the turn started has no mark to keep.
func (c storeChannels) SetSeen(channel int64, agent string, id int64) error {
	conv, err := c.st.ChannelConversation(store.ChannelID(channel))
	if err == nil {
		err = c.st.SetSeen(conv, agent, id)
	}
	if errors.Is(err, store.ErrNoChannel) {
		return nil
	}
	return err
}

// agentRefs are the configuration's agents as channel routing knows them.
func agentRefs(agents []config.Agent) []chat.AgentRef {
	refs := make([]chat.AgentRef, len(agents))
	for i, a := range agents {
		refs[i] = chat.AgentRef{Name: a.Name, Title: a.Title}
	}
	return refs
}
