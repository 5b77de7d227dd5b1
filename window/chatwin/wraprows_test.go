package chatwin

import (
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// wrapRowsRef is wrapRows a cluster at a time, with no fast path: the reference.
func wrapRowsRef(text string, rows []vrow, start, width int, stop func(rows []vrow, at int) bool) ([]vrow, int) {
	col, at := 0, start
	for s := text[start:]; s != ""; {
		c, w, rest := cluster(s, col)
		switch {
		case c == "\n":
			rows = append(rows, vrow{start, at})
			start, col = at+1, 0
			if stop(rows, start) {
				return rows, start
			}
		case col > 0 && col+w > width:
			rows = append(rows, vrow{start, at})
			start = at
			if stop(rows, start) {
				return rows, start
			}
			_, col, _ = cluster(s, 0)
		default:
			col += w
		}
		at += len(c)
		s = rest
	}
	return append(rows, vrow{start, len(text)}), -1
}

// TestWrapRowsASCIIRuns: the input's rows, counted a row at a time over runs of printable
// ASCII, are those counted a cluster at a time, whatever follows a run (a combining mark, a
// joiner, a wide character, a tab, a newline), at any width, from any row's start, and
// where the caller stops.
func TestWrapRowsASCIIRuns(t *testing.T) {
	pieces := []string{"a", "word ", "QUJDRA", "e\u0301", "ka\u093e", "x\u0903", "\u200d", "👩\u200d💻", "中", "\t", "\n", " ", "x\u0308y", "ab\r\n"}
	rnd := rand.New(rand.NewSource(7))
	for round := 0; round < 2000; round++ {
		var b strings.Builder
		for b.Len() < rnd.Intn(400) {
			p := pieces[rnd.Intn(len(pieces))]
			if rnd.Intn(4) == 0 {
				p = strings.Repeat("z", rnd.Intn(300)) // a long run
			}
			b.WriteString(p)
		}
		text := cleanInput(b.String())
		width := 1 + rnd.Intn(30)
		limit := 1 + rnd.Intn(40)
		stop := func(rows []vrow, at int) bool { return len(rows) >= limit }
		want, wantAt := wrapRowsRef(text, nil, 0, width, stop)
		got, gotAt := wrapRows(text, nil, 0, width, stop)
		if !slices.Equal(got, want) || gotAt != wantAt {
			t.Fatalf("round %d, width %d, %q:\n got %v %d\nwant %v %d", round, width, text, got, gotAt, want, wantAt)
		}
		if wantAt > 0 { // go on from where it stopped, as the editor's layout does
			never := func([]vrow, int) bool { return false }
			want, _ = wrapRowsRef(text, want, wantAt, width, never)
			got, _ = wrapRows(text, got, gotAt, width, never)
			if !slices.Equal(got, want) {
				t.Fatalf("round %d, width %d, %q, from %d:\n got %v\nwant %v", round, width, text, wantAt, got, want)
			}
		}
	}
}
