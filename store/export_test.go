package store

import (
	"errors"
	"fmt"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// EachEntry reads a conversation whole, in order, across its pages, and only that
// conversation; f's error stops it.
func TestEachEntry(t *testing.T) {
	s := newTestStore(t)
	a, err := s.AgentConversation("alice")
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.AgentConversation("bob")
	if err != nil {
		t.Fatal(err)
	}
	const n = 2*exportPage + 7
	for i := 0; i < n; i++ {
		if _, err := s.SaveEntry(a, chat.Entry{Kind: chat.KindUser, Text: fmt.Sprint("a", i), Done: true}); err != nil {
			t.Fatal(err)
		}
		if i%100 == 0 {
			if _, err := s.SaveEntry(b, chat.Entry{Kind: chat.KindUser, Text: "b", Done: true}); err != nil {
				t.Fatal(err)
			}
		}
	}
	var got []string
	if err := s.EachEntry(a, func(e chat.Entry) error { got = append(got, e.Text); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != n {
		t.Fatalf("%d entries read, want %d", len(got), n)
	}
	for i, text := range got {
		if text != fmt.Sprint("a", i) {
			t.Fatalf("entry %d is %q", i, text)
		}
	}
	stop := errors.New("stop")
	calls := 0
	err = s.EachEntry(a, func(chat.Entry) error { calls++; return stop })
	if !errors.Is(err, stop) || calls != 1 {
		t.Fatalf("f's error: %v after %d calls", err, calls)
	}
}
