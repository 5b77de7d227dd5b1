package convo

import (
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// wrapText wraps one line at width and returns its rows as "indent|text".
func wrapText(text string, width int, word bool, indent, cont int16) []string {
	l := line{text: text, word: word, indent: indent, cont: cont, cls: classText}
	var out []string
	for _, w := range wrapLine(nil, 0, &l, width, 0) {
		s := text[w.start:w.end]
		if w.subst {
			s = placeholderGlyph
		}
		out = append(out, strings.Repeat(" ", int(w.indent))+"|"+s)
	}
	return out
}

func TestWrap(t *testing.T) {
	family := "👨\u200d👩\u200d👧" // one cluster, two cells
	accent := "e\u0301"         // e + combining acute: one cluster, one cell
	tests := []struct {
		name  string
		text  string
		width int
		word  bool
		ind   int16
		cont  int16
		want  []string
	}{
		{"ascii words", "the quick brown fox jumps", 10, true, 0, 0,
			[]string{"|the quick", "|brown fox", "|jumps"}},
		{"indentation and continuation", "the quick brown fox", 10, true, 2, 2,
			[]string{"  |the", "    |quick", "    |brown", "    |fox"}},
		{"spaces at a break are not shown", "aaaa     bbbb", 6, true, 0, 0,
			[]string{"|aaaa", "|bbbb"}},
		{"leading spaces are kept", "  indented words", 9, true, 0, 0,
			[]string{"|  indente", "|d words"}},
		{"a long word is cut", "supercalifragilistic", 8, true, 0, 0,
			[]string{"|supercal", "|ifragili", "|stic"}},
		{"a long word after a short one", "a supercalifragilistic", 8, true, 0, 0,
			[]string{"|a", "|supercal", "|ifragili", "|stic"}},
		{"CJK breaks between ideographs", "中文字符测试", 7, true, 0, 0,
			[]string{"|中文字", "|符测试"}},
		{"a wide character never straddles the edge", "ab中文", 5, false, 0, 0,
			[]string{"|ab中", "|文"}},
		{"ZWJ family is one cluster of two cells", "ab" + family + family + "c", 5, false, 0, 0,
			[]string{"|ab" + family, "|" + family + "c"}},
		{"combining accents stay on their letter", strings.Repeat(accent, 5), 3, false, 0, 0,
			[]string{"|" + strings.Repeat(accent, 3), "|" + strings.Repeat(accent, 2)}},
		{"code is cut anywhere", "x = foo(bar)", 5, false, 0, 2,
			[]string{"|x = f", "  |oo(", "  |bar", "  |)"}},
		{"empty line", "", 10, true, 2, 0, []string{"  |"}},
		{"width 1 and a wide character", "a中b", 1, true, 2, 2,
			[]string{"|a", "|" + placeholderGlyph, "|b"}},
		{"width 2 gives way to indentation", "中文", 2, false, 4, 2,
			[]string{"|中", "|文"}},
		{"width 3", "ab 中 c", 3, true, 2, 0,
			[]string{" |ab", " |中", " |c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := wrapText(tt.text, tt.width, tt.word, tt.ind, tt.cont)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestNarrowWidths lays out every kind of entry at widths 1 to 12: no panic, no row wider
// than the width, and every cluster of the text somewhere.
func TestNarrowWidths(t *testing.T) {
	text := "Hello 世界 👨\u200d👩\u200d👧 cafe\u0301\n```go\n\tfunc f() { return }\n```\n- item\n" + strings.Repeat("z", 30)
	old := "a\nb\n"
	entries := []chat.Entry{
		{Kind: chat.KindUser, Text: text, Done: true},
		{Kind: chat.KindAgent, Author: "ällice", Text: text, Done: true, Lost: 1234567},
		{Kind: chat.KindThought, Author: "ällice", Text: text, Done: true},
		{Kind: chat.KindToolCall, Author: "ällice", Done: true, Tool: &chat.ToolCall{Title: "édit 世界", Status: "failed",
			Content: []chat.ToolContent{{Type: "content", Text: text}, {Type: "diff", Path: "f.go", OldText: &old, NewText: "a\nB\n"}, {Type: "terminal", TerminalID: "t1"}}}},
		{Kind: chat.KindPlan, Author: "ällice", Plan: []chat.PlanEntry{{Content: "étape 世界", Status: "in_progress"}}},
		{Kind: chat.KindNotice, Text: text, Done: true},
	}
	for width := 1; width <= 12; width++ {
		v, _ := viewOf(t, width, entries...)
		rows := all(t, v) // checks the widths
		var shown strings.Builder
		for _, r := range rows {
			shown.WriteString(r.Text())
		}
		for _, want := range []string{"世", "界", "👨\u200d👩\u200d👧", "e\u0301", "z"} {
			if width > 1 && !strings.Contains(shown.String(), want) {
				t.Errorf("width %d: %q is not shown", width, want)
			}
		}
	}
	v, _ := viewOf(t, 0, entries...) // a width under 1 is 1
	if v.Width() != 1 {
		t.Errorf("width %d, want 1", v.Width())
	}
	all(t, v)
}

func TestRowWidthCountsClusters(t *testing.T) {
	r := Row{Indent: 2, Spans: []Span{{Text: "中a"}, {Text: "👨\u200d👩\u200d👧e\u0301"}}}
	if got := r.Width(); got != 2+3+3 {
		t.Errorf("width %d, want 8", got)
	}
}

func TestDisplayText(t *testing.T) {
	for in, want := range map[string]string{
		"plain":       "plain",
		"\tx":         "    x",
		"ab\tx":       "ab  x",
		"abcd\tx":     "abcd    x",
		"中\tx":        "中  x",
		"a\x00b\x7fc": "a\ufffdb\ufffdc",
		"a\u0085b":    "a\ufffdb",
	} {
		if got := displayText(in, 0); got != want {
			t.Errorf("displayText(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestLongWordIsCutLinearly wraps a word with no space (what minified code or base64 look
// like), 64 KiB of it, at several widths and indentations: it is cut into rows of exactly
// the cells left, by grapheme cluster, and each byte is measured at most maxWorkPerByte
// times, not once per row (which made a 2 MB word take half a minute).
func TestLongWordIsCutLinearly(t *testing.T) {
	for _, tt := range []struct {
		piece string
		full  bool // every row but the last is full (no wide character to push down)
	}{
		{"QUJDREVGR0hJSktMTU5P", true}, {"e\u0301x", true}, {"ab中", false},
	} {
		text := strings.Repeat(tt.piece, (64<<10)/len(tt.piece))
		cells := textWidth(text)
		for _, width := range []int{1, 2, 7, 80, 200} {
			for _, word := range []bool{true, false} {
				l := line{text: text, word: word, indent: 2, cont: 2, cls: classText}
				rows, work := wrapLineWork(nil, 0, &l, width, 0)
				if work > maxWorkPerByte*len(text) {
					t.Errorf("%q at width %d (word %v): %d bytes measured for %d bytes of text", tt.piece, width, word, work, len(text))
				}
				_, avail := rowIndent(width, 4)
				shown := 0
				for i, r := range rows {
					w := textWidth(text[r.start:r.end])
					shown += w
					if tt.full && i > 0 && i < len(rows)-1 && w != avail {
						t.Fatalf("%q at width %d (word %v): row %d has %d cells of %d", tt.piece, width, word, i, w, avail)
					}
				}
				if shown != cells {
					t.Errorf("%q at width %d (word %v): the rows show %d cells of %d", tt.piece, width, word, shown, cells)
				}
			}
		}
	}
}

// TestStreamingClusterThatWidens streams a reply whose last cluster widens when the next
// chunk completes it (a letter after a prepended mark, an emoji's variation selector): the
// word it ended is then shorter and fits on the row before, so the rows are those of a
// layout from scratch, not those kept.
func TestStreamingClusterThatWidens(t *testing.T) {
	for _, tt := range []struct {
		first, rest string
		width       int
	}{
		{"ab cd\u0600", "b fin", 7},
		{"ab cd❤", "\uFE0F fin", 7},
	} {
		src := &fakeSource{}
		src.add(chat.Entry{Kind: chat.KindAgent, Author: "alice", Text: tt.first})
		v := New(src, Options{})
		v.SetSize(tt.width, 10)
		v.Sync()
		v.Frame()
		src.set(0, chat.Entry{Kind: chat.KindAgent, Author: "alice", Text: tt.first + tt.rest})
		v.Sync()
		if got, want := snapshot(t, v), freshSnapshot(t, src, tt.width); got != want {
			t.Errorf("%q then %q at width %d:\nincremental:\n%s\nfrom scratch:\n%s", tt.first, tt.rest, tt.width, got, want)
		}
	}
}
