package convo

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// maxWorkPerByte bounds the work of wrapping a line: a byte is measured at most twice (see
// wrapLineWork), whatever the width and however long its words.
const maxWorkPerByte = 2

// FuzzWrap wraps a line made of piece repeated (a word of any length, with wide characters,
// zero-width joiners and combining marks as the fuzzer finds them) at a random width and
// indentation, as prose (at spaces) and as code (anywhere), and checks the rows: none wider
// than the width, the text kept in order with only spaces left out between rows, rows cut
// between grapheme clusters and filled as far as the next word (or cluster) allows, the work
// linear in the text, and the same rows when the line is wrapped again from the start of
// the last row of a prefix (what a streaming line does). It then lays the same text out as
// an entry of a view, whole and streamed in two parts. The seed corpus is in
// testdata/fuzz/FuzzWrap; `go test` runs it, `make fuzz` looks for more.
func FuzzWrap(f *testing.F) {
	f.Add("supercalifragilistic", uint16(0), uint16(8), int8(0), int8(0), true, uint32(7))
	f.Fuzz(fuzzBody)
}

func fuzzBody(t *testing.T, piece string, repeat, width uint16, indent, cont int8, word bool, cut uint32) {
	{
		n := int(repeat)%4096 + 1
		if len(piece) > 0 {
			n = min(n, max(1, (64<<10)/len(piece)))
		}
		text := displayText(strings.Repeat(piece, n), 0)
		w := int(width) % 512
		l := line{text: text, word: word, indent: int16(indent), cont: int16(cont), cls: classText}
		rows, work := wrapLineWork(nil, 0, &l, w, 0)
		checkRows(t, &l, w, rows)
		if work > maxWorkPerByte*len(text) {
			t.Fatalf("wrapping %d bytes at width %d measured %d bytes, more than %d×", len(text), w, work, maxWorkPerByte)
		}
		checkFrom(t, &l, w, rows, int(cut)%(len(text)+1))
		checkView(t, text, w, int(cut)%(len(text)+1))
	}
}

// checkRows checks the rows of line l wrapped at width.
func checkRows(t *testing.T, l *line, width int, rows []wrow) {
	t.Helper()
	text := l.text
	width = max(width, 1)
	if len(rows) == 0 {
		t.Fatal("no row")
	}
	if len(rows) > len(text)+1 {
		t.Fatalf("%d rows for %d bytes", len(rows), len(text))
	}
	bound := boundaries(text)
	prev := 0
	for i, r := range rows {
		start, end := int(r.start), int(r.end)
		if r.line != 0 || start < prev || end < start || end > len(text) {
			t.Fatalf("row %d is %+v after byte %d of %d", i, r, prev, len(text))
		}
		if gap := text[prev:start]; (!l.word || i == 0) && gap != "" || strings.Trim(gap, " ") != "" {
			t.Fatalf("row %d leaves out %q before it", i, gap)
		}
		if !bound[start] || !bound[end] {
			t.Fatalf("row %d [%d:%d] cuts a grapheme cluster: %q", i, start, end, text[max(0, start-8):min(len(text), end+8)])
		}
		indent := int(l.indent)
		if i > 0 {
			indent += int(l.cont)
		}
		ind, avail := rowIndent(width, indent)
		if int(r.indent) != ind {
			t.Fatalf("row %d is indented by %d, want %d", i, r.indent, ind)
		}
		cells := textWidth(text[start:end])
		if r.subst {
			if _, cw, rest := firstCluster(text[start:]); len(rest) != len(text)-end || cw <= avail {
				t.Fatalf("row %d shows a placeholder for %q, %d cells on a row of %d", i, text[start:end], cw, avail)
			}
			cells = 1
		}
		if ind+cells > width {
			t.Fatalf("row %d is %d cells wide, more than %d: %q", i, ind+cells, width, text[start:end])
		}
		if i+1 < len(rows) && !r.subst {
			// What starts the next row would not have fitted on this one.
			next := int(rows[i+1].start)
			room := avail - cells - textWidth(text[end:next])
			if unit := nextUnit(text[next:], l.word, room); unit > 0 && unit <= room {
				t.Fatalf("row %d [%d:%d] %q ends with %d cells free, and the next row starts with %d: %q",
					i, start, end, text[start:end], room, unit, text[next:min(len(text), next+16)])
			}
		}
		prev = end
	}
	if rest := text[prev:]; !l.word && rest != "" || strings.Trim(rest, " ") != "" {
		t.Fatalf("the rows leave out %q at the end", rest)
	}
}

// nextUnit returns the width of what a row cannot cut in: a word (narrow clusters up to a
// space or a wide cluster) or a wide cluster for prose, a cluster for code; 0 when there is
// nothing or only zero-width clusters. It stops counting past room cells.
func nextUnit(text string, word bool, room int) int {
	w := 0
	state := -1
	for text != "" && w <= room {
		var c string
		var cw int
		c, text, cw, state = uniseg.FirstGraphemeClusterInString(text, state)
		if !word || cw > 1 {
			if w == 0 {
				return cw
			}
			return w
		}
		if c == " " {
			return w
		}
		w += cw
	}
	return w
}

// boundaries returns, for each byte offset of text and its end, whether a grapheme cluster
// starts (or the text ends) there.
func boundaries(text string) []bool {
	b := make([]bool, len(text)+1)
	for g := uniseg.NewGraphemes(text); g.Next(); {
		from, _ := g.Positions()
		b[from] = true
	}
	b[len(text)] = true
	return b
}

// checkFrom checks that wrapping text[:cut] and then the whole text from the start of the
// prefix's row resumeRow, as a streaming line is wrapped, gives the rows of the whole text,
// with work linear in what was wrapped again.
func checkFrom(t *testing.T, l *line, width int, whole []wrow, cut int) {
	t.Helper()
	prefix := *l
	prefix.text = l.text[:cut]
	if r, size := utf8.DecodeLastRuneInString(prefix.text); r == utf8.RuneError && size == 1 {
		return // the view wraps such a line again from its start (grew)
	}
	first := wrapLine(nil, 0, &prefix, width, 0)
	k := resumeRow(first)
	last := int(first[k].start)
	again, work := wrapLineWork(first[:k:k], 0, l, width, last)
	for i := range max(len(again), len(whole)) {
		if i >= len(again) || i >= len(whole) || again[i] != whole[i] {
			t.Fatalf("wrapped again from byte %d after a prefix of %d bytes, row %d of %d is %v; wrapped whole, row %d of %d is %v",
				last, cut, i, len(again), rowAt(again, i), i, len(whole), rowAt(whole, i))
		}
	}
	if work > maxWorkPerByte*(len(l.text)-last) {
		t.Fatalf("wrapping again from byte %d of %d measured %d bytes", last, len(l.text), work)
	}
}

// rowAt returns row i, or what says there is none.
func rowAt(rows []wrow, i int) string {
	if i < len(rows) {
		return fmt.Sprintf("%+v", rows[i])
	}
	return "none"
}

// checkView lays text out as an agent's reply at width, whole and streamed (text[:cut],
// then the rest): no row wider than the width, and the same rows both ways.
func checkView(t *testing.T, text string, width, cut int) {
	t.Helper()
	whole, _ := viewOf(t, width, agentEntry(text))
	want := dump(all(t, whole))
	if r, size := utf8.DecodeLastRuneInString(text[:cut]); r == utf8.RuneError && size == 1 {
		return
	}
	e := agentEntry(text[:cut])
	e.Done = false
	streamed, src := viewOf(t, width, e)
	all(t, streamed)
	src.set(0, agentEntry(text))
	streamed.Sync()
	if got := dump(all(t, streamed)); got != want {
		g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
		i := 0
		for i < min(len(g), len(w)) && g[i] == w[i] {
			i++
		}
		t.Fatalf("streamed in two parts (%d bytes, then %d), row %d of %d is %q; laid out whole, row %d of %d is %q",
			cut, len(text)-cut, i, len(g), lineAt(g, i), i, len(w), lineAt(w, i))
	}
}

// lineAt returns lines[i], or what says there is none.
func lineAt(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "none"
}
