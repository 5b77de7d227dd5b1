package convo

import (
	"fmt"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// conversation returns a conversation of at least lines lines of text: turns of a one-line
// user message and a 37-line reply (prose, and a Go code block), then an agent turn begun,
// its reply to stream through the agent's handler.
func conversation(tb testing.TB, lines int) (*chat.Conversation, *chat.AgentHandler) {
	tb.Helper()
	c := chat.New(chat.Options{})
	h := c.Handler("alice", nil)
	var reply strings.Builder
	for i := 0; i < 12; i++ {
		fmt.Fprintf(&reply, "Line %d of the explanation, with enough words to look like prose.\n", i)
	}
	reply.WriteString("\n```go\n")
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&reply, "\tx%d := compute(%d) // step\n", i, i)
	}
	reply.WriteString("```\n\nThat is all.\n")
	for n := 0; n < lines; n += 38 {
		c.BeginTurn("alice", fmt.Sprintf("question %d", n))
		h.Chunk(chat.ChunkAgentMessage, reply.String())
		c.EndTurn("alice", chat.StopEndTurn, nil)
	}
	c.BeginTurn("alice", "go on")
	return c, h
}

// benchFrame measures one frame while a reply streams: a chunk goes through the agent's
// handler (a new line every eight chunks), then the view syncs and lays out a 60-row
// viewport following the bottom.
func benchFrame(b *testing.B, lines int) {
	c, h := conversation(b, lines)
	v := New(c, Options{})
	v.SetSize(100, 60)
	v.Sync()
	v.Frame()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		chunk := "the quick brown fox "
		if i%8 == 7 {
			chunk = "jumps over the dog.\n"
		}
		h.Chunk(chat.ChunkAgentMessage, chunk)
		if i++; i == 20_000 { // stay below the entry's cap
			i = 0
			c.EndTurn("alice", chat.StopEndTurn, nil)
			c.BeginTurn("alice", "go on")
		}
		v.Sync()
		_, rows := v.Frame()
		if len(rows) != 60 {
			b.Fatalf("%d rows in the frame, want 60", len(rows))
		}
	}
	b.ReportMetric(float64(v.Total()), "rows")
}

// BenchmarkViewFrame100k is a frame of a view over 100,000 lines while a reply streams.
func BenchmarkViewFrame100k(b *testing.B) { benchFrame(b, 100_000) }

// BenchmarkViewFrame100 is the same frame over 100 lines: the goal is the same cost.
func BenchmarkViewFrame100(b *testing.B) { benchFrame(b, 100) }

// BenchmarkViewResize100k is a frame right after a resize of a view over 100,000 lines: the
// viewport is re-wrapped at once, the rest settleLines lines per frame.
func BenchmarkViewResize100k(b *testing.B) {
	c, _ := conversation(b, 100_000)
	v := New(c, Options{})
	v.SetSize(100, 60)
	v.Sync()
	b.ReportAllocs()
	w := 100
	for b.Loop() {
		w = 199 - w // 100, 99, 100…
		v.SetSize(w, 60)
		v.Sync()
		if _, rows := v.Frame(); len(rows) != 60 {
			b.Fatalf("%d rows", len(rows))
		}
	}
}

// BenchmarkViewScroll100k is a frame scrolled by a page, over 100,000 lines.
func BenchmarkViewScroll100k(b *testing.B) {
	c, _ := conversation(b, 100_000)
	v := New(c, Options{})
	v.SetSize(100, 60)
	v.Sync()
	b.ReportAllocs()
	for b.Loop() {
		if v.Top() < 60 {
			v.ScrollToBottom()
		}
		v.ScrollBy(-60)
		v.Sync()
		if _, rows := v.Frame(); len(rows) != 60 {
			b.Fatalf("%d rows", len(rows))
		}
	}
}

// BenchmarkViewOpen100k lays out a conversation of 100,000 lines from nothing: what opening
// a window on a long history costs once.
func BenchmarkViewOpen100k(b *testing.B) {
	c, _ := conversation(b, 100_000)
	b.ReportAllocs()
	for b.Loop() {
		v := New(c, Options{})
		v.SetSize(100, 60)
		v.Sync()
		v.Frame()
	}
}
