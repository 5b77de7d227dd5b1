package store

import (
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// Turn marks go through the Writer with the entries: an open turn is kept until its closing
// mark, which leaves a newer turn of the same agent alone; a reopened store still has it.
func TestOpenTurnsThroughTheWriter(t *testing.T) {
	path := t.TempDir() + "/turns.db"
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := s.CreateChannel("team", "")
	if err != nil {
		t.Fatal(err)
	}
	conv, err := s.ChannelConversation(ch.ID)
	if err != nil {
		t.Fatal(err)
	}
	w := NewWriter(s)
	w.SaveTurn(conv, chat.TurnMark{Agent: "alice", Turn: 1, Started: testTime, Open: true})
	w.Save(conv, textEntry(chat.KindAgent, "alice", "one", 1))
	w.SaveTurn(conv, chat.TurnMark{Agent: "bob", Turn: 1, Started: testTime, Open: true})
	w.SaveTurn(conv, chat.TurnMark{Agent: "alice", Turn: 1})
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	w.SaveTurn(conv, chat.TurnMark{Agent: "alice", Turn: 2, Started: testTime, Open: true})
	w.SaveTurn(conv, chat.TurnMark{Agent: "bob", Turn: 2, Started: testTime, Open: true})
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	w.SaveTurn(conv, chat.TurnMark{Agent: "bob", Turn: 1}) // late: bob is in turn 2 now
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	s.Close()

	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := s.OpenTurns(conv)
	if err != nil {
		t.Fatal(err)
	}
	want := []chat.TurnMark{
		{Agent: "alice", Turn: 2, Started: testTime, Open: true},
		{Agent: "bob", Turn: 2, Started: testTime, Open: true},
	}
	if len(got) != len(want) {
		t.Fatalf("open turns %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].Agent != want[i].Agent || got[i].Turn != want[i].Turn || !got[i].Started.Equal(want[i].Started) || !got[i].Open {
			t.Errorf("open turn %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if other, _ := s.AgentConversation("alice"); other != conv {
		if turns, err := s.OpenTurns(other); err != nil || len(turns) != 0 {
			t.Errorf("another conversation has open turns %+v, %v", turns, err)
		}
	}
}
