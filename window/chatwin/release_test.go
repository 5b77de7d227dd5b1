package chatwin

import (
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/store"
)

// keeperHistory is storeHistory whose transcripts say which entries are written
// (chat.Keeper): every entry Save wrote (SaveEntry writes at once). While failing is set,
// saving "fails" as on a full disk: the entries wait in memory, as the store's Writer keeps
// them, and are written once it is cleared (resume).
type keeperHistory struct {
	st      *store.Store
	failing *atomic.Bool
	open    chan *keeperTranscript
}

func (h keeperHistory) Open(k chat.Key) (chat.Transcript, error) {
	conv, err := h.st.AgentConversation(k.Agent)
	if err != nil {
		return nil, err
	}
	t := &keeperTranscript{storeTranscript: storeTranscript{st: h.st, conv: conv, ids: map[int64]int64{}}, failing: h.failing}
	if h.open != nil {
		h.open <- t
	}
	return t, nil
}

func (h keeperHistory) Flush() error { return nil }

type keeperTranscript struct {
	storeTranscript
	failing *atomic.Bool
	pending []chat.Entry // saved while failing
}

func (t *keeperTranscript) Save(e chat.Entry) {
	if t.failing != nil && t.failing.Load() {
		t.mu.Lock()
		t.pending = append(t.pending, e)
		t.mu.Unlock()
		return
	}
	t.storeTranscript.Save(e)
}

// resume writes what waited.
func (t *keeperTranscript) resume() {
	t.failing.Store(false)
	t.mu.Lock()
	pending := t.pending
	t.pending = nil
	t.mu.Unlock()
	for _, e := range pending {
		t.storeTranscript.Save(e)
	}
}

func (t *keeperTranscript) Kept(refs []chat.EntryRef) []int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	ids := make([]int64, len(refs))
	for i, r := range refs {
		ids[i] = max(r.ID, t.ids[r.Seq])
	}
	return ids
}

func (t *keeperTranscript) Forget(refs []chat.EntryRef) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, r := range refs {
		delete(t.ids, r.Seq)
	}
	ids := make(map[int64]int64, len(t.ids)) // as the application's adapter does: a map keeps its room
	for k, v := range t.ids {
		ids[k] = v
	}
	t.ids = ids
}

// A long conversation: the entries far above the view leave memory once the history has
// written them, and scrolling to the top brings them back from the database, the first one
// included.
func TestLongConversationLeavesMemory(t *testing.T) {
	t.Parallel()
	st, err := store.Open(filepath.Join(t.TempDir(), "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	const hold, n = 500, chat.MaxTurnEntries - 2 // the user's message and the cap's notice aside
	wd := newWorld(t, withHistory(keeperHistory{st: st}, 200), withHold(hold), withSize(60, 20))
	streamLines(wd, n)
	wd.sync()
	wd.sync()
	held := onUI(wd.harness, func() int { return wd.w.Conversation().Len() })
	if held > hold+1 {
		t.Fatalf("the conversation holds %d entries of %d, more than the window's bound %d", held, n+1, hold)
	}
	if !strings.Contains(wd.text(), strings.TrimSpace(lineText(n-1))) {
		t.Fatalf("the last entry is not shown:\n%s", wd.text())
	}
	conv, _ := st.AgentConversation("alice")
	stored, err := st.LastPage(conv, 1)
	if err != nil || len(stored) != 1 {
		t.Fatal(stored, err)
	}
	first, err := st.Before(conv, stored[0].ID+1, n+10)
	if err != nil || len(first) < n {
		t.Fatalf("the store holds %d entries (%v)", len(first), err)
	}

	// To the top: pages come back from the database until the first entry, the user's
	// message, then the first reply.
	wd.press(tcell.KeyTab)
	for range n/200 + 5 {
		wd.press(tcell.KeyHome)
		wd.settle(wd.w)
		if onUI(wd.harness, func() bool { return wd.w.olderDone }) {
			break
		}
	}
	wd.sync()
	got := onUI(wd.harness, func() chat.Entry { e, _ := wd.w.Conversation().Entry(0); return e })
	if got.ID != first[0].ID || got.Text != "/stream" {
		t.Fatalf("the first entry held is %d %q, not the stored first one %d %q", got.ID, got.Text, first[0].ID, first[0].Text)
	}
	if text := wd.text(); !strings.Contains(text, "/stream") || !strings.Contains(text, strings.TrimSpace(lineText(0))) {
		t.Fatalf("the top of the conversation is not shown:\n%s", text)
	}
	// Back at the end, the entries above leave again.
	wd.press(tcell.KeyEnd)
	wd.sync()
	wd.sync()
	if held := onUI(wd.harness, func() int { return wd.w.Conversation().Len() }); held > hold+1 {
		t.Fatalf("back at the end, the conversation still holds %d entries", held)
	}
	if !strings.Contains(wd.text(), strings.TrimSpace(lineText(n-1))) {
		t.Fatalf("the last entry is not shown at the end:\n%s", wd.text())
	}
}

// Entries the history has not written stay in memory: while saving fails, every entry
// stays, and they leave once they are written; without a history, every entry stays.
func TestUnwrittenEntriesStay(t *testing.T) {
	t.Parallel()
	const hold, n = 300, 2000
	held := func(wd *world) int { return onUI(wd.harness, func() int { return wd.w.Conversation().Len() }) }

	wd := newWorld(t, withHold(hold), withSize(60, 20))
	streamLines(wd, n)
	wd.sync()
	if got := held(wd); got != n+1 {
		t.Fatalf("without a history, the conversation holds %d entries, not all %d", got, n+1)
	}

	st, err := store.Open(filepath.Join(t.TempDir(), "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	failing := new(atomic.Bool)
	failing.Store(true)
	opened := make(chan *keeperTranscript, 1)
	wd = newWorld(t, withHistory(keeperHistory{st: st, failing: failing, open: opened}, 50), withHold(hold), withSize(60, 20))
	tr := <-opened
	streamLines(wd, n)
	wd.sync()
	if got := held(wd); got != n+1 {
		t.Fatalf("while saving fails, the conversation holds %d entries, not all %d", got, n+1)
	}
	tr.resume()
	wd.sync()
	wd.sync()
	if got := held(wd); got > hold+1 {
		t.Fatalf("once written, the conversation still holds %d entries", got)
	}
}
