package chat_test

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// Two agents stream into one conversation at once while the screen copies entries out and
// the sink saves: each agent's reply is whole in its own entry, and the sink sees every
// entry's versions in order. Run with -race.
func TestAgentsStreamConcurrently(t *testing.T) {
	c, clock, sink := newConv(t, i18n.English)
	var redraws atomic.Int64
	c.OnChange(func() { redraws.Add(1) })
	agents := []string{"alice", "bob"}
	turn := c.AddUser("@alice @bob count")
	for _, a := range agents {
		c.BeginAgentTurn(a)
	}
	const chunks = 2000
	var wg sync.WaitGroup
	for _, name := range agents {
		h := c.Handler(name, nil)
		wg.Go(func() {
			for i := range chunks {
				h.Chunk(chat.ChunkAgentMessage, fmt.Sprintf("%s%d ", name, i))
				if i%500 == 0 {
					clock.Advance(chat.SaveInterval) // makes the streaming entries save
				}
			}
			h.Update(sdk.StartToolCall(sdk.ToolCallId(name), "tool of "+name, sdk.WithStartStatus(sdk.ToolCallStatusCompleted)))
			c.EndTurn(name, chat.StopEndTurn, nil)
		})
	}
	stop := make(chan struct{})
	var reader sync.WaitGroup
	reader.Go(func() { // the screen
		for {
			select {
			case <-stop:
				return
			default:
			}
			n := c.Len()
			for _, e := range c.Entries(max(n-3, 0), n) {
				assertSafe(t, "copied entry", e.Text, false)
			}
		}
	})
	waitFor(t, "two agents streaming", wg.Wait)
	close(stop)
	reader.Wait()

	es := c.Snapshot()
	if len(es) != 5 {
		t.Fatalf("%d entries, want the user's, two replies and two tool calls", len(es))
	}
	for _, name := range agents {
		var want strings.Builder
		for i := range chunks {
			fmt.Fprintf(&want, "%s%d ", name, i)
		}
		found := 0
		for _, e := range es {
			if e.Author == name && e.Kind == chat.KindAgent {
				found++
				if e.Text != want.String() || !e.Done || e.Turn != turn {
					t.Errorf("%s's reply: %d bytes, done %v, turn %d", name, len(e.Text), e.Done, e.Turn)
				}
			}
		}
		if found != 1 {
			t.Errorf("%s has %d replies", name, found)
		}
	}
	c.Flush()
	lastRev := map[int64]uint64{}
	for _, s := range sink.all() {
		if s.Rev <= lastRev[s.Seq] {
			t.Errorf("entry %d saved out of order: rev %d after %d", s.Seq, s.Rev, lastRev[s.Seq])
		}
		lastRev[s.Seq] = s.Rev
	}
	for _, e := range es {
		saves := sink.of(e.Seq)
		if len(saves) == 0 || saves[len(saves)-1].Rev != e.Rev {
			t.Errorf("entry %d: the last save is not its last version", e.Seq)
		}
	}
	if redraws.Load() < 2*chunks {
		t.Errorf("%d change notifications for %d chunks", redraws.Load(), 2*chunks)
	}
}
