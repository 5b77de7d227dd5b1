package convo

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// snapshot describes every row of a view: entry, region, kind, continuation, indentation and
// each span with its class.
func snapshot(t testing.TB, v *View) string {
	var b strings.Builder
	for _, r := range all(t, v) {
		fmt.Fprintf(&b, "%d/%d %s cont=%v ind=%d", r.Entry, r.Region, r.Kind, r.Cont, r.Indent)
		for _, s := range r.Spans {
			fmt.Fprintf(&b, " [%s|%s]", s.Text, s.Class)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// freshSnapshot lays out the entries of src from scratch at width.
func freshSnapshot(t testing.TB, src *fakeSource, width int) string {
	f := &fakeSource{entries: append([]chat.Entry(nil), src.entries...), rev: src.rev}
	v := New(f, Options{})
	v.SetSize(width, 10)
	v.Sync()
	return snapshot(t, v)
}

// streamPieces are what random replies are made of: words, spaces, newlines, fences (of
// languages chroma does not know, so that no highlighting makes two layouts differ in time),
// wide characters, a ZWJ family, combining accents, tabs, a list marker, long words.
var streamPieces = []string{
	"word ", "other ", "a", " ", "  ", "\n", "\n\n", "```zz\n", "```\n", "~~~\n", "````\n",
	"中文字符", "👨‍👩‍👧", "👨", "\u200d", "👩", "e\u0301", "\u0301", "\t", "- ", "1. ", "# ",
	"supercalifragilisticexpialidocious", strings.Repeat("x", 50), "🇫", "🇷",
}

// TestStreamingMatchesFreshLayout feeds random replies in random chunks (which split
// grapheme clusters, fences and words anywhere) and checks after each one that the rows
// kept incrementally are exactly those of a layout from scratch.
func TestStreamingMatchesFreshLayout(t *testing.T) {
	rounds := 30
	if testing.Short() {
		rounds = 10
	}
	rng := rand.New(rand.NewPCG(7, 11))
	for round := range rounds {
		width := 1 + rng.IntN(30)
		var text strings.Builder
		for range 40 + rng.IntN(60) {
			text.WriteString(streamPieces[rng.IntN(len(streamPieces))])
		}
		full := text.String()
		src := &fakeSource{}
		src.add(chat.Entry{Kind: chat.KindUser, Text: "hi", Done: true},
			chat.Entry{Kind: chat.KindAgent, Author: "alice"})
		v := New(src, Options{})
		v.SetSize(width, 5)
		v.Sync()
		for pos := 0; pos < len(full); {
			n := 1 + rng.IntN(12)
			pos = min(pos+n, len(full))
			if rng.IntN(10) == 0 { // a resize while the reply streams
				width = 1 + rng.IntN(30)
				v.SetSize(width, 5)
			}
			done := pos == len(full) && rng.IntN(2) == 0
			src.set(1, chat.Entry{Kind: chat.KindAgent, Author: "alice", Text: full[:pos], Done: done})
			v.Sync()
			v.Frame()
			got, want := snapshot(t, v), freshSnapshot(t, src, width)
			if got != want {
				t.Fatalf("round %d, width %d, after %q:\nincremental:\n%s\nfrom scratch:\n%s", round, width, full[:pos], got, want)
			}
		}
	}
}

// TestStreamingIsIncremental checks that a long streaming reply is not read again from its
// start: each chunk costs the line it extends, not the entry.
func TestStreamingIsIncremental(t *testing.T) {
	c := chat.New(chat.Options{})
	h := c.Handler("alice", nil)
	c.BeginTurn("alice", "go")
	v := New(c, Options{})
	v.SetSize(40, 10)
	for i := range 2000 {
		h.Chunk(chat.ChunkAgentMessage, fmt.Sprintf("line %d with some words to wrap around the edge of the view\n", i))
		if i%10 == 0 {
			v.Sync()
			v.Frame()
		}
	}
	v.Sync()
	ev := v.ents[1]
	if ev.renders != 1 || ev.wraps != 1 {
		t.Fatalf("the streaming entry was rendered %d times and wrapped %d times from scratch, want once", ev.renders, ev.wraps)
	}
	// The lines of the blocks before the last are committed; a block without a blank line
	// is cut every 64 lines (window/markdown).
	if got := ev.nBody; got+ev.nProv != 2000 || got < 2000-64 {
		t.Fatalf("%d lines committed and %d open, want 2000 with at most 64 open", got, ev.nProv)
	}
	// One line growing by small chunks keeps its rows but the last.
	for range 500 {
		h.Chunk(chat.ChunkAgentMessage, "more words ")
		v.Sync()
	}
	if ev.renders != 1 || ev.wraps != 1 {
		t.Fatalf("a growing line made %d renders and %d wraps", ev.renders, ev.wraps)
	}
	if got, want := snapshot(t, v), freshView(t, c, 40); got != want {
		t.Fatalf("incremental rows differ from a fresh layout")
	}
}

func freshView(t testing.TB, src Source, width int) string {
	v := New(src, Options{})
	v.SetSize(width, 10)
	v.Sync()
	return snapshot(t, v)
}
