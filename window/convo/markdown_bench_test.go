package convo

import (
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// Streaming costs about the same per chunk whether the reply is plain or Markdown: only the
// last, still-open block is parsed again, when one of its lines is complete.

// proseLines and markdownLines are the lines of replies streamed eight chunks a line (as
// in benchFrame): prose, and lines of about the same length with emphasis, inline code,
// list items, a heading, a quote and table rows.
var (
	proseLines = []string{
		"A line of the explanation, with enough words to look like prose in a reply.\n",
		"Another line of the same paragraph that goes on for a while before it ends.\n",
		"\n",
		"A new paragraph starts here and says a little more about what was done.\n",
		"It ends with a last line of prose that closes the explanation given above.\n",
		"\n",
	}
	markdownLines = []string{
		"## What changed in the **parser** and why it matters to `the loop`\n",
		"\n",
		"- a list item with **bold** words and `inline code`, then more text\n",
		"- another item with *emphasis* and a [link](https://example.com/x)\n",
		"\n",
		"| name | what it does with `code` and **bold** in a cell |\n|---|---|\n",
		"| first | a cell of the table with *emphasis* and `code` in it |\n",
		"\n",
		"> a quoted line that the agent wrote with **bold** and `code` too\n",
		"\n",
	}
)

// chunksOf cuts lines into eight chunks each.
func chunksOf(lines []string) []string {
	var out []string
	for _, l := range lines {
		for j := range 8 {
			out = append(out, l[j*len(l)/8:(j+1)*len(l)/8])
		}
	}
	return out
}

// benchStream measures the layout of one chunk of a streamed reply (the chunk through the
// agent's handler, then the view's Sync) in a view over a conversation of about 1,000
// lines; each 60-row frame is drawn out of the timer (its cost is the frame benchmarks').
func benchStream(b *testing.B, chunks []string) {
	c, h := conversation(b, 1000)
	v := New(c, Options{})
	v.SetSize(100, 60)
	v.Sync()
	v.Frame()
	b.ReportAllocs()
	i, size := 0, 0
	for b.Loop() {
		ch := chunks[i%len(chunks)]
		h.Chunk(chat.ChunkAgentMessage, ch)
		if i++; size+len(ch) > 512<<10 { // stay below the entry's cap
			i, size = 0, 0
			c.EndTurn("alice", chat.StopEndTurn, nil)
			c.BeginTurn("alice", "go on")
		} else {
			size += len(ch)
		}
		v.Sync()
		b.StopTimer()
		if _, rows := v.Frame(); len(rows) != 60 {
			b.Fatalf("%d rows in the frame, want 60", len(rows))
		}
		b.StartTimer()
	}
}

// BenchmarkStreamPlain is a chunk of a plain reply.
func BenchmarkStreamPlain(b *testing.B) { benchStream(b, chunksOf(proseLines)) }

// BenchmarkStreamMarkdown is a chunk of a Markdown reply: the goal is at most 1.5× the
// plain one.
func BenchmarkStreamMarkdown(b *testing.B) { benchStream(b, chunksOf(markdownLines)) }
