package chat_test

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// A streaming entry is saved at least once per (injected) second, not on every chunk, and
// once more when it is done.
func TestSinkCadence(t *testing.T) {
	c, clock, sink := newConv(t, i18n.English)
	h := c.Handler("alice", nil)
	c.BeginTurn("alice", "stream please")
	const chunks, step = 50, 100 * time.Millisecond
	for range chunks {
		h.Chunk(chat.ChunkAgentMessage, "word ")
		c.WaitSaves() // else saves still queued merge, as they should
		clock.Advance(step)
	}
	reply := last(t, c)
	c.EndTurn("alice", chat.StopEndTurn, nil)
	c.WaitSaves()
	saves := sink.of(reply.Seq)
	// Saved on the first chunk, then on the first chunk 1 s after each save (chunks at 0,
	// 1, 2, 3 and 4 s), then once done.
	if len(saves) != 6 {
		t.Fatalf("%d saves for 5 s of streaming, want 6", len(saves))
	}
	for i, s := range saves {
		if i > 0 {
			if gap := s.Updated.Sub(saves[i-1].Updated); gap > chat.SaveInterval {
				t.Errorf("save %d came %v after the previous one", i, gap)
			}
			if len(s.Text) < len(saves[i-1].Text) || s.Rev <= saves[i-1].Rev {
				t.Errorf("save %d is older than save %d", i, i-1)
			}
		}
		if done := i == len(saves)-1; s.Done != done {
			t.Errorf("save %d: done %v", i, s.Done)
		}
	}
	if final := saves[5]; final.Text != strings.Repeat("word ", chunks) {
		t.Errorf("final save has %d bytes", len(final.Text))
	}
	// The user's entry was saved once, done.
	if u := sink.of(1); len(u) != 1 || !u[0].Done || u[0].Text != "stream please" {
		t.Errorf("user entry saves = %+v", u)
	}
}

// Flush saves what streams and changed since its last save, and waits for it.
func TestFlushSavesStreamingEntries(t *testing.T) {
	c, clock, sink := newConv(t, i18n.English)
	h := c.Handler("alice", nil)
	h.Chunk(chat.ChunkAgentMessage, "a")
	clock.Advance(200 * time.Millisecond)
	h.Chunk(chat.ChunkAgentMessage, "b")
	h.Update(sdk.StartToolCall("t1", "Run"))
	clock.Advance(200 * time.Millisecond)
	h.Update(sdk.UpdateToolCall("t1", sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock("out"))})))
	c.Flush()
	for _, e := range c.Snapshot() {
		saves := sink.of(e.Seq)
		if len(saves) == 0 || saves[len(saves)-1].Rev != e.Rev {
			t.Errorf("entry %d (%s): its last version is not saved", e.Seq, e.Kind)
		}
	}
	n := len(sink.all())
	c.Flush()
	if again := len(sink.all()); again != n {
		t.Errorf("a second Flush with no change saved %d more", again-n)
	}
}

// A slow store slows nobody: changes go on while it saves, and the queue keeps one copy of
// each entry, the newest.
func TestSlowSinkBlocksNobody(t *testing.T) {
	c, clock, sink := newConv(t, i18n.English)
	release := make(chan struct{})
	var blocked atomic.Bool
	sink.during = func() {
		if blocked.CompareAndSwap(false, true) {
			<-release
		}
	}
	h := c.Handler("alice", nil)
	waitFor(t, "streaming while the store is stuck", func() {
		c.BeginTurn("alice", "q") // its save blocks the store
		for range 100 {
			h.Chunk(chat.ChunkAgentMessage, "x")
			clock.Advance(chat.SaveInterval)
		}
	})
	close(release)
	c.Flush()
	reply := last(t, c)
	saves := sink.of(reply.Seq)
	// At most one copy in the batch the stuck store holds, and one merged copy queued since.
	if len(saves) > 2 || saves[len(saves)-1].Text != strings.Repeat("x", 100) {
		t.Errorf("%d saves of the reply (%+v); want the queued copies merged into the newest", len(saves), saves)
	}
}

// Neither the sink nor the change callback is called with the lock held: both may read the
// conversation.
func TestCallbacksRunOutsideTheLock(t *testing.T) {
	c, _, sink := newConv(t, i18n.English)
	var changes, saves atomic.Int64
	sink.during = func() { c.Len(); saves.Add(1) }
	c.OnChange(func() { c.Snapshot(); changes.Add(1) })
	h := c.Handler("alice", nil)
	waitFor(t, "a turn with callbacks reading the conversation", func() {
		c.BeginTurn("alice", "q")
		h.Chunk(chat.ChunkAgentMessage, "a")
		h.Update(sdk.StartToolCall("t", "x", sdk.WithStartStatus(sdk.ToolCallStatusCompleted)))
		c.EndTurn("alice", chat.StopCancelled, nil)
		c.Flush()
	})
	if changes.Load() < 4 || saves.Load() < 4 {
		t.Errorf("%d changes, %d saves", changes.Load(), saves.Load())
	}
}

func TestLoadPutsHistoryFirst(t *testing.T) {
	c, _, sink := newConv(t, i18n.English)
	c.AddUser("new message")
	history := []chat.Entry{
		{ID: 7, Seq: 1, Kind: chat.KindUser, Turn: 1, Text: "old question", Done: true},
		{ID: 8, Seq: 2, Kind: chat.KindAgent, Author: "alice", Turn: 1, Text: "half an answer\x1b[31m"}, // saved mid-stream
	}
	c.Flush()
	saved := len(sink.all())
	c.Load(history)
	es := c.Snapshot()
	if len(es) != 3 || es[0].Text != "old question" || es[1].Text != "half an answer" || es[2].Text != "new message" {
		t.Fatalf("entries = %+v", es)
	}
	if !es[1].Done || es[1].ID != 8 {
		t.Errorf("loaded entry = %+v; want done, ID kept", es[1])
	}
	// Saved mid-stream and never finished: Sidekicks stopped in the middle of the turn.
	if es[0].Interrupted || !es[1].Interrupted {
		t.Errorf("interrupted = %v, %v; want only the entry saved mid-stream", es[0].Interrupted, es[1].Interrupted)
	}
	c.Flush()
	if len(sink.all()) != saved {
		t.Error("loaded entries were saved again")
	}
	// Entries added after Load are numbered after the history, and turns go on from it.
	if turn := c.AddUser("later"); turn <= 1 {
		t.Errorf("turn %d after a history of turn 1", turn)
	}
	if e := last(t, c); e.Seq <= 2 {
		t.Errorf("new entry Seq %d collides with history", e.Seq)
	}
}

func TestWithoutSinkAndLateSink(t *testing.T) {
	c := chat.New(chat.Options{}) // real clock, no sink
	h := c.Handler("alice", nil)
	h.Chunk(chat.ChunkAgentMessage, "hello")
	c.Flush() // nothing to save to: returns
	sink := &recordSink{}
	c.SetSink(sink)
	c.Flush()
	if s := sink.all(); len(s) != 1 || s[0].Text != "hello" {
		t.Errorf("late sink got %+v", s)
	}
}

// The store keeps IDs, not Seqs: loaded entries get fresh numbers, and an older page loaded
// later goes in front, with numbers of its own.
func TestLoadPagesWithoutSeq(t *testing.T) {
	c, _, _ := newConv(t, i18n.English)
	c.Load([]chat.Entry{{ID: 20, Kind: chat.KindUser, Text: "recent"}})
	c.AddUser("new")
	c.Load([]chat.Entry{{ID: 10, Kind: chat.KindUser, Text: "older"}, {ID: 11, Kind: chat.KindAgent, Author: "alice", Text: "old answer"}})
	es := c.Snapshot()
	var texts []string
	seqs := map[int64]bool{}
	for _, e := range es {
		texts = append(texts, e.Text)
		if seqs[e.Seq] || e.Seq == 0 {
			t.Errorf("Seq %d given twice or not at all", e.Seq)
		}
		seqs[e.Seq] = true
	}
	if strings.Join(texts, "|") != "older|old answer|recent|new" {
		t.Errorf("order = %v", texts)
	}
	if es[0].ID != 10 || es[2].ID != 20 || es[3].ID != 0 {
		t.Errorf("IDs = %d %d %d", es[0].ID, es[2].ID, es[3].ID)
	}
}

// The goroutine that saves is started through Options.Go (a panic guard). A sink that
// panics loses the batch it was given; the next change is saved, and Flush does not wait
// for the lost one.
func TestSavesGoThroughGo(t *testing.T) {
	panics := make(chan any, 4)
	var starts atomic.Int64
	c := chat.New(chat.Options{Go: func(_ string, fn func()) {
		starts.Add(1)
		go func() {
			defer func() {
				if r := recover(); r != nil {
					panics <- r
				}
			}()
			fn()
		}()
	}})
	sink := &recordSink{}
	var failing atomic.Bool
	failing.Store(true)
	sink.during = func() {
		if failing.CompareAndSwap(true, false) {
			panic("disk full")
		}
	}
	c.SetSink(sink)
	c.AddUser("lost")
	select {
	case r := <-panics:
		if r != "disk full" {
			t.Fatalf("the guard saw %v", r)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the sink's panic did not reach the guard")
	}
	c.AddUser("saved")
	waitFor(t, "Flush after the sink panicked", c.Flush)
	var texts []string
	for _, e := range sink.all() {
		texts = append(texts, e.Text)
	}
	if strings.Join(texts, "|") != "saved" {
		t.Errorf("saved %q, want only the entry after the panic", texts)
	}
	if starts.Load() != 2 {
		t.Errorf("%d goroutines started through Go, want 2 (one per save, the queue idle between)", starts.Load())
	}
}
