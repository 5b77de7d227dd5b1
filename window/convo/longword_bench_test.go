package convo

import (
	"testing"

	"git.rickub.com/bots-garden/sidekicks/window/windowtest"
)

// longWordSize is the size of the texts of the long-word benchmarks: 2 MB.
const longWordSize = 2 << 20

// benchLayout lays out, from nothing, a view whose one entry is text, at 200×60: the
// whole entry is wrapped (the viewport shows its end).
func benchLayout(b *testing.B, text string) {
	e := agentEntry(text)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		src := &fakeSource{}
		src.add(e)
		v := New(src, Options{})
		v.SetSize(200, 60)
		v.Sync()
		if _, rows := v.Frame(); len(rows) != 60 {
			b.Fatalf("%d rows", len(rows))
		}
	}
}

// BenchmarkLayoutLongWord lays out an entry holding one 2 MB word with no space (minified
// code, base64): the goal is within 2× BenchmarkLayoutWords, measured in the same run.
func BenchmarkLayoutLongWord(b *testing.B) { benchLayout(b, windowtest.LongWord(longWordSize)) }

// BenchmarkLayoutWords lays out an entry holding 2 MB of ordinary words on one line: the
// baseline of BenchmarkLayoutLongWord.
func BenchmarkLayoutWords(b *testing.B) { benchLayout(b, windowtest.Words(longWordSize)) }
