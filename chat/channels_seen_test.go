package chat

import (
	"slices"
	"testing"
)

// catchUpOf decides what an agent hears and how far its seen mark moves; the cases are
// the orders in which a channel's entries can reach the store.
func TestCatchUpOfMovesTheMarkOnlyPastWhatWasGiven(t *testing.T) {
	user := func(id, turn int64, text string) Entry {
		return Entry{ID: id, Turn: turn, Kind: KindUser, Text: text, Done: true}
	}
	reply := func(id, turn int64, who, text string, done bool) Entry {
		return Entry{ID: id, Turn: turn, Kind: KindAgent, Author: who, Text: text, Done: done}
	}
	thought := func(id, turn int64, who string) Entry {
		return Entry{ID: id, Turn: turn, Kind: KindThought, Author: who, Text: "hmm", Done: false}
	}
	notice := func(id, turn int64) Entry {
		return Entry{ID: id, Turn: turn, Kind: KindNotice, Text: "bob joined the channel", Done: true}
	}
	for _, c := range []struct {
		name   string
		unseen []Entry
		turn   int64
		heard  []int64
		mark   int64
	}{
		{
			name:   "nothing but the message",
			unseen: []Entry{user(5, 3, "@alice hi")},
			turn:   3, heard: nil, mark: 5,
		},
		{
			name: "earlier messages and replies, then the message",
			unseen: []Entry{
				user(1, 1, "@bob hi"), thought(2, 1, "bob"), reply(3, 1, "bob", "hello", true),
				user(4, 2, "a note"), user(5, 3, "@alice and you?"),
			},
			turn: 3, heard: []int64{1, 2, 3, 4}, mark: 5,
		},
		{
			name: "another agent's answer to the same message is left for next time",
			unseen: []Entry{
				user(5, 3, "@alice @bob hi"), thought(6, 3, "bob"), reply(7, 3, "bob", "hello", true),
			},
			turn: 3, heard: nil, mark: 6,
		},
		{
			name: "a reply still streaming is told, and told again",
			unseen: []Entry{
				user(1, 1, "@bob go"), reply(2, 1, "bob", "half", false), notice(3, 1), user(4, 2, "/alice:heard"),
			},
			turn: 2, heard: []int64{1, 2, 3}, mark: 1,
		},
		{
			name: "a message sent while the agent waited for a slot is left for next time",
			unseen: []Entry{
				user(1, 1, "@bob go"), reply(2, 1, "bob", "done", true),
				user(3, 2, "@alice x"), user(4, 3, "@bob again"), reply(5, 3, "bob", "ok", true),
			},
			turn: 2, heard: []int64{1, 2}, mark: 3,
		},
		{
			name: "an earlier reply that began after the message",
			unseen: []Entry{
				user(3, 2, "@alice x"), reply(4, 1, "bob", "late but done", true),
			},
			turn: 2, heard: []int64{4}, mark: 4,
		},
		{
			name:   "blank replies and notices never hold the mark",
			unseen: []Entry{reply(1, 1, "bob", "  ", false), notice(2, 1), user(3, 2, "@alice x")},
			turn:   2, heard: []int64{1, 2}, mark: 3,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			heard, mark := catchUpOf(c.unseen, c.turn)
			var ids []int64
			for _, e := range heard {
				ids = append(ids, e.ID)
			}
			if !slices.Equal(ids, c.heard) || mark != c.mark {
				t.Errorf("heard %v, mark %d; want %v, %d", ids, mark, c.heard, c.mark)
			}
		})
	}
}
