package store

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

func TestWriterSavesAndFlushes(t *testing.T) {
	s := newTestStore(t)
	conv, _ := s.AgentConversation("alice")
	w := NewWriter(s)
	defer w.Close()
	var ids []int64
	for i := range 20 {
		ids = append(ids, w.Save(conv, textEntry(chat.KindUser, "", fmt.Sprintf("m%02d", i), i)))
	}
	for i := 1; i < len(ids); i++ {
		if ids[i] <= ids[i-1] {
			t.Fatalf("ids not increasing: %v", ids)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	page, err := s.LastPage(conv, 100)
	if err != nil || len(page) != 20 || page[0].ID != ids[0] || page[19].Text != "m19" {
		t.Fatalf("after Flush: %q, %v", texts(page), err)
	}
	// A direct save after the writer's ids comes after them.
	if id := mustSave(t, s, conv, textEntry(chat.KindUser, "", "direct", 30)); id <= ids[19] {
		t.Errorf("direct id %d not after %d", id, ids[19])
	}
	// The caller may change the entry's tool call once Save has returned.
	tool := &chat.ToolCall{Title: "first title"}
	e := chat.Entry{Kind: chat.KindToolCall, Tool: tool}
	e.ID = w.Save(conv, e)
	tool.Title = "changed after Save"
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	page, _ = s.LastPage(conv, 1)
	if page[0].ID != e.ID || page[0].Tool == nil || page[0].Tool.Title != "first title" {
		t.Errorf("tool call = %+v", page[0].Tool)
	}
	if err := w.Flush(); err != nil {
		t.Errorf("Flush with nothing queued: %v", err)
	}
}

func TestWriterStreamingEntry(t *testing.T) {
	s := newTestStore(t)
	conv, _ := s.AgentConversation("alice")
	w := NewWriter(s)
	e := chat.Entry{Kind: chat.KindAgent, Author: "alice"}
	e.ID = w.Save(conv, e)
	var b strings.Builder
	for i := range 200 {
		fmt.Fprintf(&b, "chunk %d. ", i)
		e.Text = b.String()
		if id := w.Save(conv, e); id != e.ID {
			t.Fatalf("Save of an entry with id %d returned %d", e.ID, id)
		}
	}
	e.Done = true
	w.Save(conv, e)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	page, _ := s.LastPage(conv, 10)
	if len(page) != 1 || page[0].Text != b.String() || !page[0].Done {
		t.Fatalf("streamed entry: %d entries, done=%v", len(page), len(page) > 0 && page[0].Done)
	}
}

// TestWriterCoalesces holds the database's write lock so that the writer cannot write, saves
// one streaming entry many times, and checks that what waited is one row per entry and that
// it is written once, as last saved.
func TestWriterCoalesces(t *testing.T) {
	s := newTestStore(t)
	conv, _ := s.AgentConversation("alice")
	if _, err := s.db.Exec(`CREATE TABLE writes(n INTEGER);
		INSERT INTO writes VALUES (0);
		CREATE TRIGGER count_inserts AFTER INSERT ON entries BEGIN UPDATE writes SET n = n + 1; END;
		CREATE TRIGGER count_updates AFTER UPDATE ON entries BEGIN UPDATE writes SET n = n + 1; END;`); err != nil {
		t.Fatal(err)
	}
	w := NewWriter(s)
	defer w.Close()
	blocker, err := s.db.Begin() // BEGIN IMMEDIATE: the write lock
	if err != nil {
		t.Fatal(err)
	}
	entries := make([]chat.Entry, 3)
	for i := range entries {
		entries[i] = chat.Entry{Kind: chat.KindAgent, Author: "alice"}
		entries[i].ID = w.Save(conv, entries[i])
	}
	for round := range 500 {
		for i := range entries {
			entries[i].Text = fmt.Sprintf("entry %d round %d", i, round)
			w.Save(conv, entries[i])
		}
	}
	w.mu.Lock()
	waiting := len(w.pending)
	w.mu.Unlock()
	if waiting > len(entries) {
		t.Errorf("%d rows waiting for %d entries", waiting, len(entries))
	}
	if err := blocker.Rollback(); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	var writes int
	s.db.QueryRow(`SELECT n FROM writes`).Scan(&writes)
	// Each entry was inserted once, and updated at most once (when the writer had taken
	// its first save before the lock was held), instead of 500 times.
	if writes > 2*len(entries) {
		t.Errorf("%d writes for %d entries saved 501 times each", writes, len(entries))
	}
	page, _ := s.LastPage(conv, 10)
	for i, e := range page {
		if want := fmt.Sprintf("entry %d round 499", i); e.Text != want {
			t.Errorf("entry %d = %q, want %q", i, e.Text, want)
		}
	}
}

func TestWriterConcurrentSaves(t *testing.T) {
	s := newTestStore(t)
	w := NewWriter(s)
	var wg sync.WaitGroup
	const agents, perAgent = 4, 50
	for a := range agents {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conv, err := s.AgentConversation(fmt.Sprintf("agent%d", a))
			if err != nil {
				t.Error(err)
				return
			}
			for i := range perAgent {
				e := textEntry(chat.KindAgent, "x", fmt.Sprintf("%d-%d", a, i), i)
				e.ID = w.Save(conv, e)
				e.Text += " done"
				w.Save(conv, e)
			}
		}()
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for a := range agents {
		conv, _ := s.AgentConversation(fmt.Sprintf("agent%d", a))
		page, _ := s.LastPage(conv, 2*perAgent)
		if len(page) != perAgent {
			t.Fatalf("agent%d: %d entries", a, len(page))
		}
		for i, e := range page {
			if want := fmt.Sprintf("%d-%d done", a, i); e.Text != want {
				t.Errorf("agent%d entry %d = %q, want %q", a, i, e.Text, want)
			}
		}
	}
}

func TestWriterDeletedConversation(t *testing.T) {
	s := newTestStore(t)
	ch, _ := s.CreateChannel("short-lived", "")
	conv, _ := s.ChannelConversation(ch.ID)
	keep, _ := s.AgentConversation("alice")
	w := NewWriter(s)
	e := textEntry(chat.KindAgent, "alice", "streaming…", 1)
	e.ID = w.Save(conv, e)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteChannel(ch.ID); err != nil {
		t.Fatal(err)
	}
	// The agent goes on streaming into the deleted channel: dropped, without error, and
	// without stopping the other entries of the batch.
	e.Text = "streaming… more"
	w.Save(conv, e)
	w.Save(conv, textEntry(chat.KindAgent, "alice", "new in the deleted channel", 2))
	kept := w.Save(keep, textEntry(chat.KindAgent, "alice", "elsewhere", 3))
	if err := w.Flush(); err != nil {
		t.Fatalf("Flush: %v", err)
	}
	// And an id given with another conversation never overwrites that one's entry.
	bob, _ := s.AgentConversation("bob")
	w.Save(bob, chat.Entry{ID: kept, Kind: chat.KindAgent, Text: "hijack"})
	if err := w.Flush(); err != nil {
		t.Fatalf("Flush: %v", err)
	}
	var n int
	s.db.QueryRow(`SELECT count(*) FROM entries WHERE conv_id = ?`, conv).Scan(&n)
	if n != 0 {
		t.Errorf("%d entries in the deleted conversation", n)
	}
	page, _ := s.LastPage(keep, 10)
	if len(page) != 1 || page[0].Text != "elsewhere" {
		t.Errorf("other conversation: %q", texts(page))
	}
	if n, _ := s.Count(bob); n != 0 {
		t.Errorf("%d entries in bob's conversation", n)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestWriterAfterClose(t *testing.T) {
	s := newTestStore(t)
	conv, _ := s.AgentConversation("alice")
	w := NewWriter(s)
	w.Save(conv, textEntry(chat.KindUser, "", "before close", 1))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if n, _ := s.Count(conv); n != 1 {
		t.Fatalf("Close did not write what was pending: %d entries", n)
	}
	w.Save(conv, textEntry(chat.KindUser, "", "after close", 2))
	if err := w.Err(); !errors.Is(err, ErrClosed) {
		t.Errorf("Err after a Save after Close = %v", err)
	}
	if err := w.Flush(); err != nil {
		t.Errorf("Flush after Close with nothing pending: %v", err)
	}
	if n, _ := s.Count(conv); n != 1 {
		t.Errorf("a Save after Close wrote: %d entries", n)
	}
}

// TestWriterFailureKept makes the writer's batches fail (the store closed under it), and
// checks that Flush says so, that nothing is dropped silently, and that Close reports the
// entries it could not save.
func TestWriterFailureKept(t *testing.T) {
	s, err := Open(t.TempDir() + "/fail.db")
	if err != nil {
		t.Fatal(err)
	}
	conv, _ := s.AgentConversation("alice")
	w := NewWriter(s)
	s.Close()
	w.Save(conv, textEntry(chat.KindUser, "", "lost?", 1))
	if err := w.Flush(); err == nil {
		t.Fatal("Flush on a closed store: no error")
	}
	if w.Err() == nil {
		t.Error("Err after a failed batch: nil")
	}
	if err := w.Close(); err == nil || !strings.Contains(err.Error(), "1 entries not saved") {
		t.Errorf("Close = %v", err)
	}
}
