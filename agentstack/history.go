package agentstack

import (
	"cmp"
	"errors"
	"slices"
	"sync"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/store"
)

// HistoryStatus is what the stack says about saving the history (Options.HistoryStatus):
// that entries cannot be written, why, and how many wait in memory; or that saving
// resumed.
type HistoryStatus struct {
	Failing bool
	// Reason is why, in the configuration's language ("disk is full"), when Failing.
	Reason string
	// Err is the error behind Reason, for the log.
	Err error
	// Pending counts the entries waiting in memory; Lost those not kept past the
	// bound (store.WriterOptions.MaxPending).
	Pending, Lost int
}

// storeHistory gives the history database to chat's Service: conversations are found
// in the store, their entries saved through one Writer. It hands what the Writer says
// about saving to the conversations concerned (chat.SaveWatcher) and to the application.
type storeHistory struct {
	st   *store.Store
	w    *store.Writer
	lang i18n.Lang
	// report, when set, is told each change of the saving (Options.HistoryStatus).
	report func(HistoryStatus)

	mu sync.Mutex
	// watch holds, by conversation, the function of the conversation last opened on it.
	watch map[store.ConvID]func(chat.SaveState)
	// failing is the state the conversations in told were last given.
	failing chat.SaveState
	told    map[store.ConvID]bool
}

// newStoreHistory is the history of st written by w; the Writer's Status should be its
// status (w may be set after, when the writer is made with it).
func newStoreHistory(st *store.Store, w *store.Writer) *storeHistory {
	return &storeHistory{st: st, w: w, watch: map[store.ConvID]func(chat.SaveState){}, told: map[store.ConvID]bool{}}
}

// status is the Writer's Status: it runs on the Writer's goroutine.
func (h *storeHistory) status(ws store.WriterStatus) {
	st := chat.SaveState{Failing: ws.Failing, Lost: ws.Lost}
	if ws.Failing {
		st.Reason = h.st.Problem(h.lang, ws.Err)
	}
	h.mu.Lock()
	var tell []func(chat.SaveState)
	if ws.Failing {
		h.failing = st
	}
	for _, c := range ws.Convs {
		if ws.Failing {
			h.told[c] = true
		} else {
			delete(h.told, c)
		}
		if f := h.watch[c]; f != nil {
			tell = append(tell, f)
		}
	}
	h.mu.Unlock()
	for _, f := range tell {
		f(st)
	}
	if h.report != nil {
		h.report(HistoryStatus{Failing: ws.Failing, Reason: st.Reason, Err: ws.Err, Pending: ws.Pending, Lost: ws.Lost})
	}
}

// watchSaves makes f the watcher of conv's saving; a conversation opened again while its
// entries cannot be written hears so at once.
func (h *storeHistory) watchSaves(conv store.ConvID, f func(chat.SaveState)) {
	h.mu.Lock()
	h.watch[conv] = f
	failing, st := h.told[conv], h.failing
	h.mu.Unlock()
	if failing {
		f(st)
	}
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

// WatchSaves makes f hear when this conversation's entries cannot be written, and when
// they are again (chat.SaveWatcher).
func (t *storeTranscript) WatchSaves(f func(chat.SaveState)) { t.h.watchSaves(t.conv, f) }

// SaveTurn hands a turn mark to the Writer, in order with the entries.
func (t *storeTranscript) SaveTurn(m chat.TurnMark) { t.h.w.SaveTurn(t.conv, m) }

// OpenTurns waits for the Writer first, like LastPage: a turn that just ended is not open.
func (t *storeTranscript) OpenTurns() ([]chat.TurnMark, error) {
	_ = t.h.w.Flush()
	return t.h.st.OpenTurns(t.conv)
}

// LastPage waits for the Writer first, so that a conversation closed and reopened at once
// shows the entries it saved last. A write that failed stays in the Writer's memory, which
// retries it: those entries are shown with what is stored.
func (t *storeTranscript) LastPage(n int) ([]chat.Entry, error) {
	_ = t.h.w.Flush()
	page, err := t.h.st.LastPage(t.conv, n)
	if err != nil {
		return nil, err
	}
	return withPending(page, t.h.w.Pending(t.conv), 0, n), nil
}

func (t *storeTranscript) Before(id int64, n int) ([]chat.Entry, error) {
	page, err := t.h.st.Before(t.conv, id, n)
	if err != nil {
		return nil, err
	}
	return withPending(page, t.h.w.Pending(t.conv), id, n), nil
}

// withPending merges the entries waiting in the Writer into a page read from the store
// (a waiting entry replaces its older stored version), keeping those before id (any when
// 0), and returns the last n, oldest first.
func withPending(page, pending []chat.Entry, id int64, n int) []chat.Entry {
	if len(pending) == 0 {
		return page
	}
	byID := make(map[int64]int, len(page))
	for i, e := range page {
		byID[e.ID] = i
	}
	for _, e := range pending {
		switch i, ok := byID[e.ID]; {
		case id != 0 && e.ID >= id:
		case ok:
			page[i] = e
		default:
			page = append(page, e)
		}
	}
	slices.SortFunc(page, func(a, b chat.Entry) int { return cmp.Compare(a.ID, b.ID) })
	if len(page) > n {
		page = page[len(page)-n:]
	}
	return page
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
