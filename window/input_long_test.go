package window

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// refBoundaries is every cluster boundary of s, segmented from its start.
func refBoundaries(s string) []int {
	out := []int{0}
	for at := 0; at < len(s); {
		_, _, rest := nextCluster(s[at:])
		at = len(s) - len(rest)
		out = append(out, at)
	}
	return out
}

// TestClusterStart: the start of the cluster holding any byte, found from a boundary shortly
// before it, is the one segmenting from the start of the text finds — in text of ASCII,
// combining marks, joiners, flags, wide characters, and long runs with no ASCII at all.
func TestClusterStart(t *testing.T) {
	pieces := []string{"a", "b ", "é", "e\u0301", "x\u0308\u0301", "👩\u200d💻", "👨", "\u200d", "🇫", "🇷", "世", "界",
		"\u0301", "\r\n", "\t", strings.Repeat("漢", 1400)}
	rnd := rand.New(rand.NewPCG(16, 1))
	for round := 0; round < 200; round++ {
		var b strings.Builder
		for i := rnd.IntN(12); i > 0; i-- {
			b.WriteString(pieces[rnd.IntN(len(pieces))])
		}
		s := b.String()
		bounds := refBoundaries(s)
		k := 0
		for at := 0; at <= len(s); at += 1 + rnd.IntN(1+len(s)/50) {
			for k+1 < len(bounds) && bounds[k+1] <= at {
				k++
			}
			want := bounds[k]
			if at == len(s) {
				want = len(s)
			}
			if got := ClusterStart(s, at); got != want {
				t.Fatalf("ClusterStart(%q, %d) = %d, want %d", s, at, got, want)
			}
		}
	}
}

// TestInputLongText: in a field of 1 MB, the keys that move the cursor, a key typed at the
// end, and the frame after
// each cost what the field shows, not the text's length: within 5× what they cost in a field
// of 1 KB (they segmented the whole text, a thousand times more), and the field shows what
// it showed when it segmented the whole text.
func TestInputLongText(t *testing.T) {
	_, screen := simRegion(t, 40, 1)
	cost := func(text string) time.Duration {
		in := NewInput()
		in.SetText(text)
		in.Draw(screen, true)
		best := time.Hour
		for i := 0; i < 30; i++ {
			start := time.Now()
			for _, k := range []Key{Named(KeyLeft, 0), Named(KeyLeft, 0), Named(KeyRight, 0), Named(KeyEnd, 0), {KeyRune, 'k', 0}} {
				in.HandleEvent(k)
				in.Draw(screen, true)
			}
			best = min(best, time.Since(start))
		}
		return best
	}
	short, long := cost(strings.Repeat("word 世界 ", 100)), cost(strings.Repeat("word 世界 ", 100_000))
	if long > 5*short {
		t.Errorf("keys in a 1 MB field took %v, in a 1 KB field %v", long, short)
	}
}

// TestInputScrollsByClusters: the field shows the text around the cursor as it moves and
// the text changes, from a cluster boundary, the cursor within the field.
func TestInputScrollsByClusters(t *testing.T) {
	sim, screen := simRegion(t, 8, 1)
	in := NewInput()
	in.SetText("ab世界e\u0301fghijklmn")
	in.Draw(screen, true)
	if got, x := simRow(sim, 0), screen.cursor.x; got != "hijklmn " || x != 7 {
		t.Errorf("at the end: %q, cursor at %d, want the text's last 7 columns and the cursor after them", got, x)
	}
	for i := 0; i < 11; i++ {
		in.HandleEvent(Named(KeyLeft, 0))
	}
	in.Draw(screen, true)
	if got := simRow(sim, 0); !strings.HasPrefix(got, "界e\u0301f") || screen.cursor.x != 0 {
		t.Errorf("eleven clusters back: %q, cursor at %d, want it to start at 界, the cursor there", got, screen.cursor.x)
	}
	in.HandleEvent(Named(KeyBackspace, 0)) // deletes 世
	in.Draw(screen, true)
	if got := in.Text(); got != "ab界e\u0301fghijklmn" {
		t.Errorf("Backspace left %q", got)
	}
	if got := simRow(sim, 0); !strings.HasPrefix(got, "界") || screen.cursor.x != 0 {
		t.Errorf("after Backspace: %q, cursor at %d", got, screen.cursor.x)
	}
	in.HandleEvent(Key{KeyRune, '\u0301', 0}) // a mark typed before 界 joins b
	in.Draw(screen, true)
	if got := simRow(sim, 0); strings.HasPrefix(got, "\u0301") {
		t.Errorf("the field starts inside a cluster: %q", got)
	}
}

// BenchmarkInputFieldKey is a key typed at the end of a one-line field of 1 MB and the frame
// after it, against the same in a field of 1 KB, the baseline (benchstat -col /text).
func BenchmarkInputFieldKey(b *testing.B) {
	for _, n := range []struct {
		name  string
		count int
	}{{"1KB", 100}, {"1MB", 100_000}} {
		b.Run("text="+n.name, func(b *testing.B) {
			_, screen := simRegion(b, 60, 1)
			in := NewInput()
			in.SetText(strings.Repeat("word 世界 ", n.count))
			in.Draw(screen, true)
			for b.Loop() {
				in.HandleEvent(Key{KeyRune, 'k', 0})
				in.Draw(screen, true)
			}
		})
	}
}
