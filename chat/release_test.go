package chat_test

import (
	"fmt"
	"sync"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// keeperSink is a history that writes what it is given, an id per entry, except the
// entries it is told are not written (unwritten, by Seq).
type keeperSink struct {
	recordSink
	mu        sync.Mutex
	ids       map[int64]int64
	next      int64
	unwritten map[int64]bool
	forgot    int
}

func newKeeper() *keeperSink {
	return &keeperSink{ids: map[int64]int64{}, unwritten: map[int64]bool{}}
}

func (k *keeperSink) Save(e chat.Entry) {
	k.recordSink.Save(e)
	k.mu.Lock()
	defer k.mu.Unlock()
	if e.ID == 0 && k.ids[e.Seq] == 0 {
		k.next++
		k.ids[e.Seq] = k.next
	}
}

func (k *keeperSink) Kept(refs []chat.EntryRef) []int64 {
	k.mu.Lock()
	defer k.mu.Unlock()
	out := make([]int64, len(refs))
	for i, r := range refs {
		if !k.unwritten[r.Seq] {
			out[i] = max(r.ID, k.ids[r.Seq])
		}
	}
	return out
}

func (k *keeperSink) Forget(refs []chat.EntryRef) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, r := range refs {
		delete(k.ids, r.Seq)
		k.forgot++
	}
}

func firstSeq(c *chat.Conversation) int64 {
	e, _ := c.Entry(0)
	return e.Seq
}

// Release lets go of the first entries that are done and written, keeps the one after the
// last it lets go (with its id in the history), and stops at the first entry the history
// has not written, or that still streams.
func TestReleaseOnlyWhatIsWritten(t *testing.T) {
	c := chat.New(chat.Options{})
	k := newKeeper()
	c.SetSink(k)
	for range 100 {
		c.AddNotice("a notice")
	}
	c.Flush()
	if got := c.Release(10, firstSeq(c)+1); got != 0 {
		t.Fatalf("released %d entries for a first entry that is not the first", got)
	}
	if got := c.Release(10, firstSeq(c)); got != 10 || c.Len() != 90 {
		t.Fatalf("released %d, holds %d; want 10 and 90", got, c.Len())
	}
	if e, _ := c.Entry(0); e.ID == 0 || e.Seq != 11 {
		t.Fatalf("the first entry held is %+v: its id in the history is not known", e)
	}

	// Entry 51 is not written: 40 of the next 50 may go (11 to 50), not 51 nor after it.
	k.mu.Lock()
	k.unwritten[51] = true
	k.mu.Unlock()
	if got := c.Release(80, firstSeq(c)); got != 39 || firstSeq(c) != 50 {
		t.Fatalf("released %d, first is %d; want 39 and 50 (the last written one stays)", got, firstSeq(c))
	}
	if got := c.Release(80, firstSeq(c)); got != 0 {
		t.Fatalf("released %d past an entry not written", got)
	}

	// A streaming entry stays, and what follows it.
	k.mu.Lock()
	delete(k.unwritten, 51)
	k.mu.Unlock()
	h := c.Handler("alice", nil)
	c.BeginAgentTurn("alice")
	h.Chunk(chat.ChunkAgentMessage, "still streaming")
	c.AddNotice("after it")
	c.Flush()
	held := c.Len()
	if got := c.Release(held, firstSeq(c)); got != held-3 {
		t.Fatalf("released %d of %d; want every entry before the streaming one but the last", got, held)
	}
	if e, _ := c.Entry(1); e.Text != "still streaming" {
		t.Fatalf("the streaming entry left: the second held is %q", e.Text)
	}
	if k.forgot != 10+39+held-3 {
		t.Fatalf("the sink was told of %d entries let go", k.forgot)
	}
}

// Without a sink that can say what it wrote, nothing leaves.
func TestReleaseWithoutKeeper(t *testing.T) {
	c, _, _ := newConv(t, 0)
	for range 50 {
		c.AddNotice("a notice")
	}
	c.Flush()
	if got := c.Release(40, firstSeq(c)); got != 0 || c.Len() != 50 {
		t.Fatalf("released %d entries with a sink that cannot say what it wrote", got)
	}
}

// The tool calls that ended leave with their entries; one that did not end (its turn ended
// first) stays reachable, and its late update is saved to its row in the history.
func TestReleaseToolCalls(t *testing.T) {
	c := chat.New(chat.Options{})
	k := newKeeper()
	c.SetSink(k)
	h := c.Handler("alice", nil)
	c.BeginAgentTurn("alice")
	h.Update(sdk.StartToolCall("open", "Still running"))
	for i := range 20 {
		id := sdk.ToolCallId(fmt.Sprintf("t%d", i))
		h.Update(sdk.StartToolCall(id, "Read a file"))
		h.Update(sdk.UpdateToolCall(id, sdk.WithUpdateStatus(sdk.ToolCallStatusCompleted)))
	}
	c.EndTurn("alice", chat.StopEndTurn, nil)
	c.AddNotice("the end")
	c.Flush()
	open, _ := c.Entry(0)
	if got := c.Release(c.Len()-1, open.Seq); got != 21 || c.Len() != 1 {
		t.Fatalf("released %d, holds %d; want 21 and the last entry", got, c.Len())
	}
	n := c.Len()
	h.Update(sdk.UpdateToolCall("open", sdk.WithUpdateTitle("Done at last")))
	c.Flush()
	if c.Len() != n {
		t.Fatalf("the late update of a tool call that never ended made a new entry")
	}
	saves := k.of(open.Seq)
	if last := saves[len(saves)-1]; last.ID == 0 || last.Tool.Title != "Done at last" {
		t.Fatalf("the late update was saved as %+v, not to the entry's row", last)
	}
	h.Update(sdk.UpdateToolCall("t3", sdk.WithUpdateTitle("Read again")))
	if c.Len() != n+1 {
		t.Fatalf("a late update of a tool call that ended and left did not make an entry of its own: %d entries", c.Len())
	}
}
