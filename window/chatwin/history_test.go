package chatwin

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/store"
)

// storeHistory is the real history database as the service sees it (package main has its
// own, with a Writer): entries are written at once, on the conversation's saving goroutine.
type storeHistory struct{ st *store.Store }

func (h storeHistory) Open(k chat.Key) (chat.Transcript, error) {
	conv, err := h.st.AgentConversation(k.Agent)
	if err != nil {
		return nil, err
	}
	return &storeTranscript{st: h.st, conv: conv, ids: map[int64]int64{}}, nil
}

func (h storeHistory) Flush() error { return nil }

type storeTranscript struct {
	st   *store.Store
	conv store.ConvID
	mu   sync.Mutex
	ids  map[int64]int64
}

func (t *storeTranscript) Save(e chat.Entry) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if e.ID == 0 {
		e.ID = t.ids[e.Seq]
	}
	if id, err := t.st.SaveEntry(t.conv, e); err == nil {
		t.ids[e.Seq] = id
	}
}

func (t *storeTranscript) LastPage(n int) ([]chat.Entry, error) { return t.st.LastPage(t.conv, n) }
func (t *storeTranscript) Before(id int64, n int) ([]chat.Entry, error) {
	return t.st.Before(t.conv, id, n)
}
func (t *storeTranscript) Session(agent string) (string, error) { return t.st.Session(t.conv, agent) }
func (t *storeTranscript) SetSession(agent, id string) error {
	return t.st.SetSession(t.conv, agent, id)
}

func TestHistoryShownWhenTheWindowReopens(t *testing.T) {
	t.Parallel()
	st, err := store.Open(filepath.Join(t.TempDir(), "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	wd := newWorld(t, withHistory(storeHistory{st}, 6), withSize(60, 40))
	for _, p := range []string{"first", "second", "third", "fourth", "fifth"} {
		wd.send(p)
		wd.turnEnded()
	}
	// Reopen: the last page (6 entries: three turns) is shown.
	w2 := wd.reopen()
	wd.sync()
	text := wd.text()
	for _, want := range []string{"re: third", "re: fourth", "re: fifth"} {
		if !strings.Contains(text, want) {
			t.Fatalf("%q is not shown after reopening:\n%s", want, text)
		}
	}
	if strings.Contains(text, "re: second") {
		t.Fatalf("more than the last page is shown:\n%s", text)
	}
	// Going to the top loads the page before.
	wd.press(tcell.KeyTab)
	wd.press(tcell.KeyHome)
	wd.settled(w2, "older entries", func() bool { return w2.Conversation().Len() == 10 })
	wd.sync()
	if text := wd.text(); !strings.Contains(text, "re: first") || !strings.Contains(text, "re: second") {
		t.Fatalf("the older page is not shown:\n%s", text)
	}
	// Nothing more: the next try says there is nothing and asks no more.
	wd.press(tcell.KeyDown)
	wd.press(tcell.KeyHome)
	wd.settled(w2, "end of the history", func() bool { return w2.olderDone && !w2.olderLoading })
}
