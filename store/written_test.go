package store

import (
	"path/filepath"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// Written tells an entry the database holds as last saved from one that waits: a
// conversation lets only the first leave memory.
func TestWriterWritten(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	conv, _ := s.AgentConversation("alice")
	w := NewWriter(s)
	defer w.Close()
	a := w.Save(conv, textEntry(chat.KindUser, "", "written", 0))
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := w.Written([]int64{a, 0}); !got[0] || got[1] {
		t.Fatalf("Written = %v, want [true false]", got)
	}

	// Saving fails (the database is closed under the writer): what is saved waits.
	failing, err := Open(filepath.Join(t.TempDir(), "f.db"))
	if err != nil {
		t.Fatal(err)
	}
	fconv, _ := failing.AgentConversation("alice")
	fw := NewWriter(failing)
	ok := fw.Save(fconv, textEntry(chat.KindUser, "", "before", 0))
	if err := fw.Flush(); err != nil {
		t.Fatal(err)
	}
	failing.Close()
	e := textEntry(chat.KindAgent, "alice", "waits", 0)
	b := fw.Save(fconv, e)
	if err := fw.Flush(); err == nil {
		t.Fatal("Flush on a closed store: no error")
	}
	if got := fw.Written([]int64{ok, b}); !got[0] || got[1] {
		t.Fatalf("while failing, Written = %v, want [true false]", got)
	}
	// The first one saved again (a late change) waits too.
	fw.Save(fconv, chat.Entry{ID: ok, Kind: chat.KindUser, Text: "changed", Done: true})
	if got := fw.Written([]int64{ok}); got[0] {
		t.Fatal("an entry changed and not written yet counts as written")
	}
	_ = fw.Close()
	if got := fw.Written([]int64{ok}); got[0] {
		t.Fatal("after Close, an entry counts as written")
	}
}
