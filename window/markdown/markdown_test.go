package markdown

import (
	"reflect"
	"strings"
	"testing"
)

const sample = "# Title\n\nSome **bold** and *it* and `code` and [a link](http://example.com/x) here\nsecond line\n\n" +
	"- one\n- two\n  - nested\n- [ ] task\n- [x] done\n\n1. first\n2. second\n\n> quoted **text**\n> more\n\n" +
	"| col A | col B |\n|---|:-:|\n| a | b b b b b b b b b b b b b b b b b b b b b |\n\n---\n\n" +
	"```go\nfunc main() {}\n```\n\nEnd ~~gone~~.\n"

// whole renders text at once, done, at width.
func whole(text string, width int) []Line {
	st := New("")
	st.Update(text, true, width)
	return st.Lines()
}

func texts(lines []Line) []string {
	var out []string
	for _, l := range lines {
		out = append(out, l.Text())
	}
	return out
}

// spanOf returns the first span whose text is s.
func spanOf(t *testing.T, lines []Line, s string) Span {
	t.Helper()
	for _, l := range lines {
		for _, sp := range l.Spans {
			if sp.Text == s {
				return sp
			}
		}
	}
	t.Fatalf("no span is %q in %q", s, texts(lines))
	return Span{}
}

func TestMarkupIsDrawnNotShown(t *testing.T) {
	lines := whole(sample, 40)
	all := strings.Join(texts(lines), "\n")
	for _, raw := range []string{"# ", "**", "`", "|---|", "| col A |", "- one", "> quoted", "```", "~~", "[a link]"} {
		if strings.Contains(all, raw) {
			t.Errorf("the markup %q is shown:\n%s", raw, all)
		}
	}
	for _, want := range []string{"Title", "• one", "  ◦ nested", "☐ task", "☑ done", "1. first", "│ quoted text",
		"┌───────┬", "│ col A │", "├───────┼", "└───────┴", "── go ──", "func main() {}"} {
		if !strings.Contains(all, want) {
			t.Errorf("%q is not drawn:\n%s", want, all)
		}
	}
	checks := []struct{ text, cls, url string }{
		{"Title", ClassHeading, ""}, {"bold", ClassStrong, ""}, {"it", ClassEmphasis, ""}, {"code", ClassCode, ""},
		{"a link", ClassLink, "http://example.com/x"}, {"gone", ClassStrike, ""}, {"• ", ClassMarker, ""},
		{"col A", ClassStrong, ""},
	}
	for _, c := range checks {
		if sp := spanOf(t, lines, c.text); sp.Class != c.cls || sp.URL != c.url {
			t.Errorf("%q is drawn as %q %q, want %q %q", c.text, sp.Class, sp.URL, c.cls, c.url)
		}
	}
	for _, l := range lines {
		if l.Kind == KindTable && width(l.Text()) != 40 {
			t.Errorf("table row %q is %d cells wide, want 40", l.Text(), width(l.Text()))
		}
	}
}

// TestCopyGivesTheSource: the Raw of the lines that have one, joined, is the text as
// written: a copy gives back Markdown.
func TestCopyGivesTheSource(t *testing.T) {
	text := sample + "[ref]: http://example.com\nSetext\n===\n\n    indented code\n"
	var parts []string
	for _, l := range whole(text, 40) {
		if !l.NoCopy {
			parts = append(parts, l.Raw)
			if l.Raw != "" && !strings.HasPrefix(text[l.Off:], l.Raw) {
				t.Errorf("Raw %q is not the text at %d", l.Raw, l.Off)
			}
		}
	}
	if got := strings.Join(parts, "\n"); got != strings.TrimSuffix(text, "\n") {
		t.Errorf("the lines stand for\n%q\nwant\n%q", got, text)
	}
}

// stream feeds text to a State in chunks of n bytes and checks, at each step, that the
// lines before the index Update returns are those of the step before; it returns the
// lines once done.
func stream(t testing.TB, text string, n, width int) []Line {
	st := New("")
	var prev []Line
	for i := n; ; i += n {
		done := i >= len(text)
		i = min(i, len(text))
		changed := st.Update(text[:i], done, width)
		lines := st.Lines()
		if changed > len(prev) || changed > len(lines) {
			t.Fatalf("Update says line %d changed, of %d then %d", changed, len(prev), len(lines))
		}
		if changed > 0 && !reflect.DeepEqual(prev[:changed], lines[:changed]) {
			t.Fatalf("at %d bytes, lines before %d changed:\n%q\n%q", i, changed, texts(prev[:changed]), texts(lines[:changed]))
		}
		prev = append(prev[:0], lines...)
		for k := range prev {
			prev[k].Spans = append([]Span(nil), prev[k].Spans...)
		}
		if done {
			return lines
		}
	}
}

func TestStreamingEndsAsWhole(t *testing.T) {
	text := sample + strings.Repeat("A line of a long paragraph.\n", 150) + "| a | b |\n|---|---|\n| 1 | 2 |"
	want := whole(text, 50)
	for _, n := range []int{1, 3, 7, 64, 1000} {
		if got := stream(t, text, n, 50); !reflect.DeepEqual(texts(got), texts(want)) {
			t.Errorf("streamed %d bytes at a time:\n%q\nwant\n%q", n, texts(got), texts(want))
		}
	}
}

// TestOnlyTheOpenBlockIsParsedAgain: as lines arrive, the lines of the blocks before the
// last one are kept, and the line still arriving is shown as written.
func TestOnlyTheOpenBlockIsParsedAgain(t *testing.T) {
	st := New("")
	st.Update("# Head\n\npara **one**\n\n- item", false, 40)
	if got := texts(st.Lines()); got[len(got)-1] != "- item" {
		t.Errorf("the line arriving is %q, want it as written", got[len(got)-1])
	}
	committed := st.Committed()
	if committed == 0 {
		t.Fatalf("nothing committed: %q", texts(st.Lines()))
	}
	n := len(st.Lines())
	changed := st.Update("# Head\n\npara **one**\n\n- item\n- second\n- thi", false, 40)
	if changed < committed {
		t.Errorf("line %d changed, before the %d committed", changed, committed)
	}
	got := texts(st.Lines())
	if got[n-1] != "• item" || got[n] != "• second" || got[n+1] != "- thi" {
		t.Errorf("the open list is %q", got[n-1:])
	}
	// A code block's lines are committed one by one.
	st.Update("```py\nx = 1\ny = 2\n", false, 40)
	if st.Committed() != 3 || st.Lines()[2].Kind != KindCode {
		t.Errorf("code lines: %d committed of %q", st.Committed(), texts(st.Lines()))
	}
}

// TestTableHeaderWaitsForTheNextLine: a complete line that starts with "|" is shown as
// written until the next line says whether it is a table's header; blank lines after the
// open block are drawn blank.
func TestTableHeaderWaitsForTheNextLine(t *testing.T) {
	st := New("")
	st.Update("Some **prose**\n| a | **b** |\n", false, 40)
	if got := texts(st.Lines()); len(got) != 2 || got[0] != "Some prose" || got[1] != "| a | **b** |" {
		t.Errorf("before the delimiter row: %q", got)
	}
	st.Update("Some **prose**\n| a | **b** |\n|---|---|\n", false, 40)
	if got := texts(st.Lines()); len(got) != 5 || got[1] != "┌───┬───┐" || got[2] != "│ a │ b │" {
		t.Errorf("with the delimiter row: %q", got)
	}
	st.Update("Some **prose**\n| a | **b** |\n|---|---|\n| 1 | 2 |\n\n\n", false, 40)
	got := st.Lines()
	if n := len(got); n != 8 || got[n-1].Kind != KindBlank || got[n-2].Kind != KindBlank || got[n-3].Text() != "└───┴───┘" {
		t.Errorf("with a row and blank lines: %q", texts(got))
	}
	st = New("")
	st.Update("| not | a table |\nbut prose\n", false, 40)
	if got := texts(st.Lines()); len(got) != 2 || got[0] != "| not | a table |" || got[1] != "but prose" {
		t.Errorf("a line with | then prose: %q", got)
	}
}

func TestFenceHeaderAndUnclosedFence(t *testing.T) {
	lines := whole("~~~ {.python} x\nprint(1)\n", 40)
	if got := texts(lines); len(got) != 2 || got[0] != "── python ──" || got[1] != "print(1)" {
		t.Fatalf("lines %q", got)
	}
	if lines[0].Lang != "python" || lines[1].Block != 0 || lines[1].Region != lines[0].Region {
		t.Errorf("header %+v, code %+v", lines[0], lines[1])
	}
}

func TestTableFitsTheWidth(t *testing.T) {
	text := "| name | description |\n|------|-------------|\n| x | " + strings.Repeat("word ", 40) + "|\n| 中文字符 | ok |\n"
	for _, w := range []int{80, 30, 12} {
		lines := whole(text, w)
		rows := 0
		for _, l := range lines {
			if l.Kind != KindTable {
				t.Fatalf("width %d: not a table: %q", w, texts(lines))
			}
			if got := width(l.Text()); got != w {
				t.Errorf("width %d: %q is %d cells", w, l.Text(), got)
			}
			rows++
		}
		if w < 80 && rows < 8 {
			t.Errorf("width %d: the long cell was not wrapped: %q", w, texts(lines))
		}
	}
	// Too narrow for two cells a column: shown as written.
	if got := texts(whole(text, 8)); got[0] != "| name | description |" {
		t.Errorf("narrow table: %q", got)
	}
}

func TestWidthChangeRedrawsTables(t *testing.T) {
	st := New("")
	text := "| a | b |\n|---|---|\n| 1 | " + strings.Repeat("long ", 20) + "|\n\ntext\n"
	st.Update(text, true, 40)
	if !st.Sized() {
		t.Fatal("a table does not say it depends on the width")
	}
	if changed := st.Update(text, true, 20); changed != 0 {
		t.Errorf("a new width changed from line %d", changed)
	}
	if w := width(st.Lines()[0].Text()); w != 20 {
		t.Errorf("border is %d cells at width 20", w)
	}
}

func TestLinkAddressKeepsNoControl(t *testing.T) {
	lines := whole("[click](http://a.example/\x1b]8;;evil\x07x) <http://b.example/\x1bq>\n", 80)
	for _, l := range lines {
		for _, sp := range l.Spans {
			if strings.ContainsFunc(sp.URL+sp.Text, IsControl) {
				t.Errorf("span %q %q holds a control character", sp.Text, sp.URL)
			}
		}
	}
	if sp := spanOf(t, lines, "click"); sp.URL != "http://a.example/]8;;evilx" {
		t.Errorf("link address %q", sp.URL)
	}
}

func TestDeepNestingIsBounded(t *testing.T) {
	lines := whole(strings.Repeat("> ", 50)+"deep\n", 400)
	if got := lines[0].Text(); strings.Count(got, "│") != maxDepth || !strings.HasSuffix(got, "deep") {
		t.Errorf("50 quotes drawn as %q", got)
	}
	lines = whole(strings.Repeat(">", 10_000)+" bomb\n", 80)
	if len(lines) != 1 || !strings.HasPrefix(lines[0].Text(), ">>>>") {
		t.Errorf("10,000 quotes: %d lines", len(lines))
	}
}

func TestFenceLanguage(t *testing.T) {
	for info, want := range map[string]string{
		"python":             "python",
		"go title=main.go":   "go",
		"{.rust}":            "rust",
		"":                   "",
		"  yaml  ":           "yaml",
		"Dockerfile\textra ": "Dockerfile",
	} {
		_, _, got, _, ok := opensFence("```" + info)
		if !ok {
			t.Fatalf("```%s is not a fence", info)
		}
		if got := fenceLang(got); got != want {
			t.Errorf("fenceLang(%q) = %q, want %q", info, got, want)
		}
	}
}
