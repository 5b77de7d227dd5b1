package chatwin

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/window/windowtest"
)

// at returns an editor holding text with the cursor at the | mark.
func at(marked string) *editor {
	e := newEditor()
	i := indexOf(marked, '|')
	e.text = marked[:i] + marked[i+1:]
	e.cursor = i
	e.changed()
	return e
}

func indexOf(s string, b byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == b {
			return i
		}
	}
	panic("no mark in " + s)
}

// marked returns the text with | at the cursor.
func (e *editor) marked() string { return e.text[:e.cursor] + "|" + e.text[e.cursor:] }

func TestEditorEditing(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		start  string
		do     func(e *editor)
		result string
	}{
		{"backspace joins the line to the one above", "one\n|two", (*editor).backspace, "one|two"},
		{"backspace deletes a whole cluster", "ae\u0301|x", (*editor).backspace, "a|x"},
		{"backspace deletes a ZWJ emoji whole", "a👩‍💻|", (*editor).backspace, "a|"},
		{"backspace at the start does nothing", "|abc", (*editor).backspace, "|abc"},
		{"delete joins the next line", "one|\ntwo", (*editor).del, "one|two"},
		{"delete deletes a wide character whole", "|漢字", (*editor).del, "|字"},
		{"delete at the end does nothing", "abc|", (*editor).del, "abc|"},
		{"left steps over a cluster", "ae\u0301|", (*editor).left, "a|e\u0301"},
		{"left goes to the line above", "a\n|b", (*editor).left, "a|\nb"},
		{"right steps over an emoji", "|🙂b", (*editor).right, "🙂|b"},
		{"home is the line's start", "a\nbc|d", (*editor).home, "a\n|bcd"},
		{"end is the line's end", "a|b\nc", (*editor).end, "ab|\nc"},
		{"Ctrl-U deletes to the line's start", "a\nbc|d", (*editor).killStart, "a\n|d"},
		{"Ctrl-K deletes to the line's end", "a|bc\nd", (*editor).killEnd, "a|\nd"},
		{"a paste keeps its newlines and tabs", "x|y", func(e *editor) { e.insert("1\r\n2\r3\n\t4") }, "x1\n2\n3\n\t4|y"},
		{"a paste loses its escape sequences", "|", func(e *editor) { e.insert("a\x1b[31mred\x1b]52;c;eA==\x07b\x07") }, "aredb|"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := at(c.start)
			c.do(e)
			if got := e.marked(); got != c.result {
				t.Errorf("%q → %q, want %q", c.start, got, c.result)
			}
		})
	}
}

func TestEditorLayoutWrapsWideCharacters(t *testing.T) {
	t.Parallel()
	e := at("ab漢字cd\n\tx|")
	rows := e.layout(5, math.MaxInt)
	var got []string
	for _, r := range rows {
		got = append(got, e.text[r.start:r.end])
	}
	// 5 cells: "ab漢" is 4 cells and 字 would make 6; a tab fills to column 4.
	want := []string{"ab漢", "字cd", "\tx"}
	if len(got) != len(want) {
		t.Fatalf("rows %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("rows %q, want %q", got, want)
		}
	}
	if row, col := e.position(rows); row != 2 || col != 5 {
		t.Errorf("cursor at row %d col %d, want 2, 5 (after a tab and x)", row, col)
	}
}

func TestEditorVerticalKeepsColumn(t *testing.T) {
	t.Parallel()
	e := at("abcdef\nx\nabcdef|")
	if !e.vertical(-1, 80) || e.marked() != "abcdef\nx|\nabcdef" {
		t.Fatalf("up: %q", e.marked())
	}
	if !e.vertical(-1, 80) || e.marked() != "abcdef|\nx\nabcdef" {
		t.Fatalf("up again keeps the column it aimed at: %q", e.marked())
	}
	if e.vertical(-1, 80) {
		t.Fatal("up from the first row moved")
	}
	// A wrapped line: down moves by rows of the screen, not lines of the text.
	e = at("|abcdefgh")
	if !e.vertical(1, 4) || e.cursor != 4 {
		t.Fatalf("down in a wrapped line: %q", e.marked())
	}
	// Within a wide character, the cursor stops before it.
	e = at("a漢b\nab|c")
	e.vertical(-1, 80)
	if e.marked() != "a|漢b\nabc" {
		t.Errorf("up into a wide character: %q", e.marked())
	}
}

func TestEditorHistory(t *testing.T) {
	t.Parallel()
	e := newEditor()
	if e.older() {
		t.Fatal("older with no history")
	}
	e.remember("one")
	e.remember("two\nlines")
	e.remember("two\nlines") // not twice
	e.set("draft")
	if !e.older() || e.text != "two\nlines" || !e.older() || e.text != "one" || e.older() {
		t.Fatalf("older: %q (hist %d)", e.text, e.hist)
	}
	if !e.newer() || e.text != "two\nlines" || !e.newer() || e.text != "draft" || e.newer() {
		t.Fatalf("newer: %q (hist %d)", e.text, e.hist)
	}
	e.older()
	e.insert("!")
	if e.hist != -1 {
		t.Error("editing a recalled prompt did not end browsing")
	}
	for i := 0; i < maxHistory+10; i++ {
		e.remember(itoa(i))
	}
	if len(e.history) != maxHistory || e.history[0] != itoa(10) {
		t.Errorf("history holds %d, first %q", len(e.history), e.history[0])
	}
}

// TestEditorMendsLayout: after any edit — typed text, a paste, Backspace, Delete, Ctrl-K,
// Ctrl-U — of a text of wide characters, combining marks, zero-width joiners, tabs, newlines
// and long words, the rows kept from before the edit and those laid out after, as far as
// asked, are the layout made afresh.
func TestEditorMendsLayout(t *testing.T) {
	t.Parallel()
	pieces := []string{"a", "bc ", "word ", "世", "界 ", "\u0301", "\u200d", "👨", "👩", "\t", "\n", "x\u0308",
		strings.Repeat("z", 23), " ", "🇫", "🇷"}
	rnd := rand.New(rand.NewPCG(1, 16))
	for round := 0; round < 300; round++ {
		width := 1 + rnd.IntN(12)
		e := newEditor()
		var b strings.Builder
		for i := rnd.IntN(60); i > 0; i-- {
			b.WriteString(pieces[rnd.IntN(len(pieces))])
		}
		e.set(b.String())
		e.cursor = 0
		for e.cursor < len(e.text) && rnd.IntN(3) > 0 {
			e.right()
		}
		e.layout(width, math.MaxInt)
		for step := 0; step < 20; step++ {
			before := e.marked()
			switch rnd.IntN(7) {
			case 0, 1:
				e.insert(pieces[rnd.IntN(len(pieces))])
			case 2:
				e.insert(pieces[rnd.IntN(len(pieces))] + pieces[rnd.IntN(len(pieces))] + pieces[rnd.IntN(len(pieces))])
			case 3:
				e.backspace()
			case 4:
				e.del()
			case 5:
				e.killEnd()
			case 6:
				if rnd.IntN(2) == 0 {
					e.killStart()
				} else {
					e.left()
				}
			}
			after := rnd.IntN(3)
			if rnd.IntN(4) == 0 {
				after = math.MaxInt
			}
			got := slices.Clone(e.layout(width, after))
			fresh := newEditor()
			fresh.set(e.text)
			fresh.cursor = e.cursor
			want := fresh.layout(width, math.MaxInt)
			crow, _ := fresh.position(want)
			if len(got) < min(crow+1+after, len(want)) || len(got) > len(want) || !slices.Equal(got, want[:len(got)]) {
				t.Fatalf("width %d, %q then %q, the cursor's row and %d more: rows %v, afresh %v", width, before, e.marked(), after, got, want)
			}
		}
	}
}

// TestEditorKeyCostsWhatIsVisible: a key typed into a 1 MB input lays out a few rows around
// the cursor, not the megabyte (it took 144 ms a key), and the layout after the cursor's rows
// waits until it is asked for.
func TestEditorKeyCostsWhatIsVisible(t *testing.T) {
	t.Parallel()
	e := newEditor()
	e.set(windowtest.Words(1 << 20))
	e.cursor = 0
	e.layout(196, maxInputRows)
	if e.laid > 20*196*4 {
		t.Errorf("the input's first rows laid out %d bytes", e.laid)
	}
	e.cursor = len(e.text) / 2
	e.layout(196, maxInputRows)
	for e.cursor > 0 && e.text[e.cursor] != ' ' {
		e.cursor--
	}
	laid := e.laid
	for _, k := range []func(){func() { e.insert("k") }, e.backspace, func() { e.insert("a b") }, e.del, e.killEnd} {
		k()
		e.layout(196, maxInputRows)
	}
	if n := e.laid - laid; n > 5*(maxInputRows+4)*196*4 {
		t.Errorf("5 edits in a 1 MB input laid out %d bytes", n)
	}
}
