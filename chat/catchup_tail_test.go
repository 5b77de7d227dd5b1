package chat

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// tailOf is what ChannelStore.Unseen returns for maxBytes: the newest entries, read from the
// newest back until the messages hold maxBytes of text, and the messages with text before.
func tailOf(all []Entry, maxBytes int) (tail []Entry, earlier int) {
	held, i := 0, len(all)
	for i > 0 && held < maxBytes {
		i--
		if all[i].Kind == KindUser || all[i].Kind == KindAgent {
			held += len(all[i].Text)
		}
	}
	for _, e := range all[:i] {
		if (e.Kind == KindUser || e.Kind == KindAgent) && strings.TrimSpace(e.Text) != "" {
			earlier++
		}
	}
	return all[i:], earlier
}

// TestCatchUpFromTheTail: the catch-up written from only the newest entries (what the store
// reads) is the one written from everything the agent missed, count of left-out messages
// included, whatever the sizes of the messages and the bound.
func TestCatchUpFromTheTail(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 1))
	for round := range 200 {
		var all []Entry
		for i := range 1 + r.IntN(400) {
			e := Entry{ID: int64(i + 1), Kind: KindUser, Turn: int64(i/3 + 1), Done: true,
				Text: fmt.Sprintf("message %d %s", i, strings.Repeat("x", r.IntN(3000)))}
			switch r.IntN(6) {
			case 0, 1:
				e.Kind, e.Author = KindAgent, "bob"
			case 2:
				e.Kind, e.Author, e.Text = KindThought, "bob", strings.Repeat("t", r.IntN(5000))
			case 3:
				e.Kind, e.Author, e.Text = KindToolCall, "bob", ""
			}
			all = append(all, e)
		}
		limit := MinCatchUpBytes + r.IntN(64<<10)
		want, wantOmitted := CatchUp(all, "alice", limit)
		tail, earlier := tailOf(all, catchUpBytes(limit))
		got, omitted := catchUp(tail, "alice", limit, earlier)
		if got != want || omitted != wantOmitted {
			t.Fatalf("round %d (%d entries, bound %d, %d read): the catch-up from the tail differs (%d left out, want %d):\n%.400s\nwant:\n%.400s",
				round, len(all), limit, len(tail), omitted, wantOmitted, got, want)
		}
	}
}
