package chatwin

import (
	"fmt"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// markdownHistory returns entries of about lines lines whose replies are Markdown: a
// heading, a paragraph with bold, italic, inline code and a link, a list, a quote, a table
// and a Go code block.
func markdownHistory(lines int) []chat.Entry {
	var reply strings.Builder
	reply.WriteString("## What changed\n\n")
	for i := 0; i < 4; i++ {
		fmt.Fprintf(&reply, "Line %d with **bold**, *italic*, `code` and a [link](https://example.com/%d) in it.\n", i, i)
	}
	reply.WriteString("\n- first point with `code`\n- second point\n  - nested point\n\n> a quoted line\n\n")
	reply.WriteString("| name | value | note |\n|---|---:|---|\n")
	for i := 0; i < 6; i++ {
		fmt.Fprintf(&reply, "| row %d | %d | a cell with *emphasis* |\n", i, i*i)
	}
	reply.WriteString("\n```go\n")
	for i := 0; i < 8; i++ {
		fmt.Fprintf(&reply, "\tx%d := compute(%d) // step\n", i, i)
	}
	reply.WriteString("```\n")
	var out []chat.Entry
	for n, turn := 0, int64(1); n < lines; n, turn = n+38, turn+1 {
		out = append(out,
			chat.Entry{Kind: chat.KindUser, Text: fmt.Sprintf("question **%d**", n), Turn: turn, Done: true},
			chat.Entry{Kind: chat.KindAgent, Author: "alice", Text: reply.String(), Turn: turn, Done: true})
	}
	return out
}

// markdownChunkAt is the i-th chunk of a streamed Markdown reply: a new line every eight
// chunks, the lines a list item, a table row and prose with markup in turn; a new entry
// (after a thought) every 40,000, below the cap of an entry.
func markdownChunkAt(h chat.SessionHandler, i int) {
	if i%40_000 == 39_999 {
		h.Chunk(chat.ChunkAgentThought, "thinking again\n")
	}
	lines := [...]string{
		"- an item with **bold** words and `code` in it, going on to the end\n",
		"| a cell | `another` | a third cell with *emphasis* to fill it up |\n",
		"A line of prose with a [link](https://example.com) and **bold** text.\n",
	}
	l := lines[(i/8)%len(lines)]
	j := i % 8
	h.Chunk(chat.ChunkAgentMessage, l[j*len(l)/8:(j+1)*len(l)/8])
}

// BenchmarkAgentWindowFrameMarkdown is a whole frame of a 200×60 agent window (as many
// cells as nine tiled windows) over a Markdown history of about 1,000 lines while a
// Markdown reply streams: the goal is x-tcell ≤ 1.5, as for a plain reply.
func BenchmarkAgentWindowFrameMarkdown(b *testing.B) {
	wd, h := streamingOver(b, markdownHistory(1000))
	h.Chunk(chat.ChunkAgentMessage, "\n\n## Streaming\n\n")
	wd.sync()
	framesWhile(b, wd, h, markdownChunkAt)
}
