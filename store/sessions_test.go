package store

import (
	"errors"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

func TestSessionsAndSeen(t *testing.T) {
	s := newTestStore(t)
	ch, _ := s.CreateChannel("team", "")
	conv, _ := s.ChannelConversation(ch.ID)
	own, _ := s.AgentConversation("alice")

	if id, err := s.Session(conv, "alice"); err != nil || id != "" {
		t.Errorf("no session yet: %q, %v", id, err)
	}
	if seen, err := s.Seen(conv, "alice"); err != nil || seen != 0 {
		t.Errorf("nothing seen yet: %d, %v", seen, err)
	}
	if err := s.SetSession(conv, "alice", "sess-A"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetSession(own, "alice", "sess-own"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetSession(conv, "bob", "sess-B"); err != nil {
		t.Fatal(err)
	}
	u1 := mustSave(t, s, conv, textEntry(chat.KindUser, "", "@alice @bob hi", 1))
	a1 := mustSave(t, s, conv, textEntry(chat.KindAgent, "alice", "alice here", 2))
	b1 := mustSave(t, s, conv, textEntry(chat.KindAgent, "bob", "bob here", 3))
	if err := s.SetSeen(conv, "alice", a1); err != nil {
		t.Fatal(err)
	}
	if err := s.SetSeen(conv, "bob", b1); err != nil {
		t.Fatal(err)
	}
	u2 := mustSave(t, s, conv, textEntry(chat.KindUser, "", "@alice what did bob say?", 4))

	// Recording what was seen keeps the session, and the other way round.
	for agent, want := range map[string]string{"alice": "sess-A", "bob": "sess-B"} {
		if id, _ := s.Session(conv, agent); id != want {
			t.Errorf("session of %s = %q, want %q", agent, id, want)
		}
	}
	if id, _ := s.Session(own, "alice"); id != "sess-own" {
		t.Errorf("alice's own session = %q", id)
	}
	if err := s.SetSession(conv, "alice", "sess-A2"); err != nil {
		t.Fatal(err)
	}
	if seen, _ := s.Seen(conv, "alice"); seen != a1 {
		t.Errorf("Seen after SetSession = %d, want %d", seen, a1)
	}

	unseen, err := s.Unseen(conv, "alice")
	if err != nil || !equalStrings(texts(unseen), []string{"bob here", "@alice what did bob say?"}) {
		t.Errorf("Unseen(alice) = %q, %v", texts(unseen), err)
	}
	unseen, _ = s.Unseen(conv, "bob")
	if !equalStrings(texts(unseen), []string{"@alice what did bob say?"}) {
		t.Errorf("Unseen(bob) = %q", texts(unseen))
	}
	// A new member has seen nothing: everything but its own entries.
	unseen, _ = s.Unseen(conv, "carol")
	if len(unseen) != 4 || unseen[0].ID != u1 || unseen[3].ID != u2 {
		t.Errorf("Unseen(carol) = %q", texts(unseen))
	}
	if err := s.SetSeen(conv, "alice", u2); err != nil {
		t.Fatal(err)
	}
	if unseen, _ = s.Unseen(conv, "alice"); len(unseen) != 0 {
		t.Errorf("Unseen after reading all = %q", texts(unseen))
	}
	if err := s.SetSession(9999, "alice", "x"); !errors.Is(err, ErrNoConversation) {
		t.Errorf("SetSession on a missing conversation: %v", err)
	}
	if err := s.SetSeen(9999, "alice", 1); !errors.Is(err, ErrNoConversation) {
		t.Errorf("SetSeen on a missing conversation: %v", err)
	}
	if err := s.SetSession(conv, "", "x"); !errors.Is(err, ErrBadName) {
		t.Errorf("SetSession without agent: %v", err)
	}
}
