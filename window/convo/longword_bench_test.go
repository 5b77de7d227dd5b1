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

// BenchmarkLayout2MB lays out an entry of 2 MB: text=words is 2 MB of ordinary words on one
// line, the baseline; text=longword one 2 MB word with no space (minified code, base64),
// which should cost within 2× the baseline measured in the same run. Compare them with
// benchstat -col /text.
func BenchmarkLayout2MB(b *testing.B) {
	b.Run("text=words", func(b *testing.B) { benchLayout(b, windowtest.Words(longWordSize)) })
	b.Run("text=longword", func(b *testing.B) { benchLayout(b, windowtest.LongWord(longWordSize)) })
}
