package markdown

import (
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// renderBoth renders src as a segment twice, on its own path when it takes one
// (plainParagraph) and through goldmark, and fails unless both drew the same lines and
// left the same state. It reports whether the own path was taken.
func renderBoth(t *testing.T, src string, width int) bool {
	t.Helper()
	fast := New("base")
	fast.width = width
	r := fast.render(src, 7, 3)
	took := r.plainParagraph() > 0
	got := *r
	goldmarkOnly = true
	defer func() { goldmarkOnly = false }()
	slow := New("base")
	slow.width = width
	want := *slow.render(src, 7, 3)
	if !reflect.DeepEqual(got.out, want.out) {
		t.Fatalf("%q (own path %v):\n got  %+v\n want %+v", src, took, got.out, want.out)
	}
	if got.region != want.region || got.sized != want.sized || got.blanks != want.blanks || got.blankTail != want.blankTail {
		t.Fatalf("%q: region %d sized %v blanks %v tail %d, goldmark's %d %v %v %d", src, got.region, got.sized,
			got.blanks, got.blankTail, want.region, want.sized, want.blanks, want.blankTail)
	}
	return took
}

// TestPlainParagraphIsDrawnAsGoldmarkDoes: a segment of plain prose is drawn without
// goldmark exactly as goldmark's parse is drawn, and anything that looks like markup goes
// through goldmark. The segments are made of plain words and of pieces of markup, blank
// lines, spaces and characters of every kind.
func TestPlainParagraphIsDrawnAsGoldmarkDoes(t *testing.T) {
	words := []string{"flood", "line", "0000001", "The", "file", "is", "missing.", "it's", "(see", "below)",
		"a,b;", "x=1", "50%", "C++", "#3", "e-mail", "http://example.com", "user@host", "{x}", "\"q\"", "$HOME",
		"*a*", "_b_", "`c`", "[d](e)", "![f](g)", "<h>", "<http://e.com>", "&amp;", "~~s~~", "a|b", "\\*", "é", "中", "\t", "\x1b[0m", "\r"}
	starts := []string{"", "", "", "", "# ", "- ", "* ", "+ ", "1. ", "2) ", "> ", "    ", "  ", " ", "| ", "=", "---", "```", "~~~", "<div>", "[x]: y", "0"}
	ends := []string{"", "", "", "", "  ", " ", "\\", "\r"}
	rnd := rand.New(rand.NewSource(1))
	took := 0
	for range 20000 {
		// One time in ten a piece is markup, in one segment of two; one time in two in the
		// others, which are nearly all drawn by goldmark.
		odds := 2
		if rnd.Intn(2) == 0 {
			odds = 10
		}
		markup := func() bool { return rnd.Intn(odds) == 0 }
		var b strings.Builder
		for range 1 + rnd.Intn(6) {
			if rnd.Intn(4*odds) == 0 {
				b.WriteString(strings.Repeat(" ", rnd.Intn(3)) + "\n")
				continue
			}
			if markup() {
				b.WriteString(starts[rnd.Intn(len(starts))])
			}
			for i := range 1 + rnd.Intn(6) {
				if i > 0 {
					b.WriteString(strings.Repeat(" ", 1+rnd.Intn(2)))
				}
				if markup() {
					b.WriteString(words[rnd.Intn(len(words))])
				} else {
					b.WriteString(words[rnd.Intn(12)])
				}
			}
			if markup() {
				b.WriteString(ends[rnd.Intn(len(ends))])
			}
			b.WriteByte('\n')
		}
		src := b.String()
		if rnd.Intn(4) == 0 {
			src = strings.TrimSuffix(src, "\n") // the open segment's last line has no newline
		}
		if renderBoth(t, src, 1+rnd.Intn(80)) {
			took++
		}
	}
	// Both kinds of segment were drawn: a test whose segments all went through goldmark
	// would compare nothing.
	t.Logf("%d segments of 20000 took the own path", took)
	if took < 2000 || took > 18000 {
		t.Errorf("%d segments of 20000 took the own path", took)
	}
	for _, src := range []string{"flood line 0000001\nflood line 0000002\n", "Plain prose here.\nAnd more of it\n\n\n", "x\n"} {
		if !renderBoth(t, src, 40) {
			t.Errorf("%q went through goldmark", src)
		}
	}
}

// FuzzPlainParagraph: for any segment, the own path of plain prose draws what goldmark's
// parse draws.
func FuzzPlainParagraph(f *testing.F) {
	f.Add("flood line 0000001\nflood line 0000002\n", 40)
	f.Add("Some prose: with (punctuation), 50% of it.\nand more\n\n", 20)
	f.Add("a *b*\n", 10)
	f.Fuzz(func(t *testing.T, src string, w int) {
		if len(src) > 1<<14 || strings.Count(src, "\n") > maxSegLines {
			return
		}
		renderBoth(t, src, 1+abs(w)%200)
	})
}
