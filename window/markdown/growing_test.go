package markdown

import (
	"math/rand"
	"strings"
	"testing"
)

// TestGrowingShowsWhatDisplayShows: the display of a line that grows, cut anywhere (in the
// middle of a character too), is display's of the whole line at each step, whether the
// line needs nothing, needs something from its start, or only from a later chunk on; and a
// line at another offset starts afresh.
func TestGrowingShowsWhatDisplayShows(t *testing.T) {
	pieces := []string{"a", "é", "中", "\t", "\x1b", "\u0085", "\x7f", " ", "𝄞", "b c"}
	rnd := rand.New(rand.NewSource(1))
	for round := 0; round < 300; round++ {
		var b strings.Builder
		clean := round%3 == 0 // some lines need nothing until late
		for b.Len() < 2000 {
			p := pieces[rnd.Intn(len(pieces))]
			if clean && b.Len() < 1500 && (p == "\t" || p == "\x1b" || p == "\u0085" || p == "\x7f") {
				continue
			}
			b.WriteString(p)
		}
		line := b.String()
		var g growing
		at := rnd.Intn(3) // sometimes the same offset as the last round's line: a new State each round
		for end := 0; end <= len(line); end += 1 + rnd.Intn(40) {
			if got, want := g.show(line[:end], at), display(line[:end]); got != want {
				t.Fatalf("round %d, %d bytes: %q, want %q", round, end, got, want)
			}
		}
		if got, want := g.show(line, at), display(line); got != want {
			t.Fatalf("round %d, whole: %q, want %q", round, got, want)
		}
		other := "x\ty"
		if got, want := g.show(other, at+len(line)), display(other); got != want {
			t.Fatalf("round %d, a line at another offset: %q, want %q", round, got, want)
		}
	}
}

// benchStream streams text through a State 4 KiB at a time, as the window is paced, then
// ends it.
func benchStream(b *testing.B, text string) {
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		st := New("")
		for i := 4 << 10; i < len(text); i += 4 << 10 {
			st.Update(text[:i], false, 80)
		}
		st.Update(text, true, 80)
	}
}

// BenchmarkStream1MB streams 1 MB 4 KiB at a time: text=words is ordinary words on lines of
// about 80 bytes, the baseline; text=longword one word with no space or newline (minified
// code, base64), whose line is still arriving at each Update, text=longtabs the same with a
// tab every 64 bytes (a line that needs display). Each should cost within 2× the baseline
// measured in the same run: the line still arriving was looked at whole at each Update,
// its cost growing with the square of its length. Compare with benchstat -col /text.
func BenchmarkStream1MB(b *testing.B) {
	const size = 1 << 20
	var words strings.Builder
	for words.Len() < size {
		words.WriteString("a line of ordinary words that an agent writes in its reply to you\n")
	}
	long := strings.Repeat("QUJDRA", size/6)
	tabs := strings.Repeat(strings.Repeat("x", 63)+"\t", size/64)
	b.Run("text=words", func(b *testing.B) { benchStream(b, words.String()) })
	b.Run("text=longword", func(b *testing.B) { benchStream(b, long) })
	b.Run("text=longtabs", func(b *testing.B) { benchStream(b, tabs) })
}
