package store

import (
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/guard/guardtest"
)

func TestWriterStartsItsGoroutineThroughTheGivenStarter(t *testing.T) {
	s := newTestStore(t)
	conv, _ := s.AgentConversation("alice")
	rec := guardtest.New()
	w := NewWriterWith(s, WriterOptions{Go: rec.Go})
	rec.WaitStarted(t, "store writer")
	id := w.Save(conv, textEntry(chat.KindUser, "", "through the guard", 1))
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	page, err := s.LastPage(conv, 1)
	if err != nil || len(page) != 1 || page[0].ID != id || page[0].Text != "through the guard" {
		t.Fatalf("written: %q, %v", texts(page), err)
	}
	if got := rec.Started(); len(got) != 1 {
		t.Errorf("started %q, want the writer only", got)
	}
}
