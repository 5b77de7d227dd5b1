package convo

import (
	"strings"
	"testing"
)

// longWordSize is the size of the texts of the long-word benchmarks: 2 MB.
const longWordSize = 2 << 20

// longWord is n bytes of one word with no space: what minified JavaScript, base64 or a
// JSON blob on one line look like to the wrapper.
func longWord(n int) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[(i*7+i/64)%len(alphabet)]
	}
	return string(b)
}

// ordinaryWords is n bytes of prose on one line: words of 2 to 10 letters between spaces,
// the baseline of the long word.
func ordinaryWords(n int) string {
	words := strings.Fields("the quick brown fox jumps over a lazy dog while agents stream markdown and tool calls into windows")
	var b strings.Builder
	b.Grow(n + 16)
	for i := 0; b.Len() < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[i%len(words)])
	}
	return b.String()[:n]
}

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

// BenchmarkLayoutLongWord lays out an entry holding one 2 MB word with no space: the goal
// is within 2× BenchmarkLayoutWords.
func BenchmarkLayoutLongWord(b *testing.B) { benchLayout(b, longWord(longWordSize)) }

// BenchmarkLayoutWords lays out an entry holding 2 MB of ordinary words on one line: the
// baseline of BenchmarkLayoutLongWord.
func BenchmarkLayoutWords(b *testing.B) { benchLayout(b, ordinaryWords(longWordSize)) }
