package chat_test

import (
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// BenchmarkChunk appends a 20-byte chunk to a streaming reply, the reading goroutine's hot
// path: sanitize, lock, append, change callback. A new turn starts every 20,000 chunks so
// that the entry never reaches its cap (which would measure dropping instead).
func BenchmarkChunk(b *testing.B) {
	c, _, _ := newConv(b, i18n.English)
	c.OnChange(func() {})
	h := c.Handler("alice", nil)
	c.BeginTurn("alice", "go")
	const chunk = "the quick brown fox "
	b.SetBytes(int64(len(chunk)))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		h.Chunk(chat.ChunkAgentMessage, chunk)
		if i++; i == 20_000 {
			i = 0
			c.EndTurn("alice", chat.StopEndTurn, nil)
			c.BeginAgentTurn("alice")
		}
	}
}
