package convo

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// classOf returns the class of the first span of lines whose text is s.
func classOf(lines [][]Span, s string) string {
	for _, l := range lines {
		for _, sp := range l {
			if sp.Text == s {
				return sp.Class
			}
		}
	}
	return "(none)"
}

func joinLines(lines [][]Span) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		for _, sp := range l {
			b.WriteString(sp.Text)
		}
	}
	return b.String()
}

func TestHighlightClasses(t *testing.T) {
	tests := []struct {
		lang, code string
		want       map[string]string
	}{
		{"python", "def greet(name):\n\treturn \"hi \" + name  # say hi\nx = 42\nprint(x)\n", map[string]string{
			"def": ClassKeyword, "return": ClassKeyword, "greet": ClassFunction, `"hi "`: ClassString,
			"# say hi": ClassComment, "42": ClassNumber, "print": ClassBuiltin, "+": ClassOperator,
		}},
		{"go", "package main\n\n// F adds.\nfunc F(a int) int {\n\treturn a + 1\n}\n", map[string]string{
			"package": ClassKeyword, "func": ClassKeyword, "// F adds.": ClassComment, "int": ClassType,
			"1": ClassNumber, "return": ClassKeyword,
		}},
		{"py", "import os\n", map[string]string{"import": ClassKeyword}},
		{"golang", "var x = \"s\"\n", map[string]string{"var": ClassKeyword, `"s"`: ClassString}},
		{"yaml", "key: 1 # c\n", map[string]string{"# c": ClassComment}},
		{"diff", "-old\n+new\n", map[string]string{"-old": ClassRemoved, "+new": ClassAdded}},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			lines := NewHighlighter(HighlighterOptions{}).Highlight(tt.lang, tt.code)
			for text, cls := range tt.want {
				if got := classOf(lines, text); got != cls {
					t.Errorf("%q is %s, want %s (spans %v)", text, got, cls, lines)
				}
			}
			want := strings.ReplaceAll(strings.TrimSuffix(tt.code, "\n"), "\t", "    ")
			if got := joinLines(lines); got != want {
				t.Errorf("the spans give back\n%q\nwant\n%q", got, want)
			}
		})
	}
}

func TestHighlightPlain(t *testing.T) {
	for _, lang := range []string{"", "no-such-language", "text", "plaintext", strings.Repeat("x", 100)} {
		lines := NewHighlighter(HighlighterOptions{}).Highlight(lang, "def f():\n\tpass\n")
		if len(lines) != 2 {
			t.Fatalf("%q: %d lines, want 2", lang, len(lines))
		}
		for _, l := range lines {
			for _, sp := range l {
				if sp.Class != ClassText {
					t.Errorf("%q: %q is %s, want plain text", lang, sp.Text, sp.Class)
				}
			}
		}
		if got := lines[1][0].Text; got != "    pass" {
			t.Errorf("%q: tab not expanded: %q", lang, got)
		}
	}
	big := strings.Repeat("x = 1\n", MaxHighlight/6+1)
	for _, l := range NewHighlighter(HighlighterOptions{}).Highlight("python", big) {
		if len(l) != 1 || l[0].Class != ClassText {
			t.Fatalf("a block over MaxHighlight is highlighted: %v", l)
		}
	}
}

func TestLexerFor(t *testing.T) {
	// The spec's languages, and more of chroma's, by name, alias and extension.
	for _, lang := range []string{"python", "toml", "yaml", "markdown", "javascript", "html", "xml",
		"dockerfile", "bash", "go", "rust", "json", "typescript", "c", "cpp", "java", "ruby", "sql",
		"py", "js", "ts", "yml", "md", "sh", "shell", "rs", "golang", "Python", "Dockerfile", "kotlin", "zig"} {
		if LexerFor(lang) == nil {
			t.Errorf("no lexer for %q", lang)
		}
	}
	for _, lang := range []string{"", "text", "no-such-language"} {
		if LexerFor(lang) != nil {
			t.Errorf("a lexer for %q", lang)
		}
	}
}

func TestHighlightTabsKeepColumns(t *testing.T) {
	lines := NewHighlighter(HighlighterOptions{}).Highlight("go", "a\tb := 1\n")
	if got := joinLines(lines); got != "a   b := 1" {
		t.Errorf("got %q, want the tab expanded to the next stop", got)
	}
}

// TestViewHighlightsOnScreen checks the whole path: a finished code block on screen is
// plain at first, the Highlighter highlights it and wakes the view, and the next Sync shows
// it in colour; a block still streaming is never highlighted.
func TestViewHighlightsOnScreen(t *testing.T) {
	code := "def greet():\n\treturn 1\n"
	hl := NewHighlighter(HighlighterOptions{})
	var woken atomic.Int64
	src := &fakeSource{}
	src.add(agentEntry("```python\n" + code + "```\n"))
	streaming := agentEntry("```python\n" + code)
	streaming.Done = false
	src.add(streaming)
	v := New(src, Options{Highlighter: hl, Wake: func() { woken.Add(1) }})
	v.SetSize(40, 20)
	v.Sync()
	_, rows := v.Frame()
	if got := codeColours(rows); got != "plain plain plain plain" {
		t.Errorf("code rows before the Highlighter ran: %s, want plain everywhere", got)
	}
	if !v.Highlighting() {
		t.Fatal("the finished block on screen was not asked for")
	}
	waitIdle(t, hl)
	if woken.Load() == 0 {
		t.Error("the view was not woken when the highlighting was ready")
	}
	v.Sync()
	if v.Highlighting() {
		t.Fatal("the view still waits for a highlighting the Highlighter has finished")
	}
	_, rows = v.Frame()
	if got := codeColours(rows); got != "colour colour plain plain" {
		t.Errorf("code rows (two of the finished block, two of the streaming one): %s, want colour colour plain plain", got)
	}
	// Finishing the second block highlights it from the cache, at once.
	streaming.Text += "```\n"
	streaming.Done = true
	src.set(1, streaming)
	v.Sync()
	_, rows = v.Frame()
	if got := codeColours(rows); got != "colour colour colour colour" {
		t.Errorf("code rows once both blocks are finished: %s, want colour everywhere", got)
	}
}

// waitIdle waits for the Highlighter's barrier: every block asked for so far is done.
func waitIdle(t *testing.T, hl *Highlighter) {
	t.Helper()
	select {
	case <-hl.Idle():
	case <-time.After(30 * time.Second):
		t.Fatal("the Highlighter did not finish within 30 s")
	}
}

// codeColours says of each code row whether it has a span in a class other than text.
func codeColours(rows []Row) string {
	var out []string
	for _, r := range rows {
		if r.Kind != RowCode {
			continue
		}
		c := "plain"
		for _, s := range r.Spans {
			if s.Class != ClassText {
				c = "colour"
			}
		}
		out = append(out, c)
	}
	return strings.Join(out, " ")
}

func TestHighlightedCodeWraps(t *testing.T) {
	code := "x = \"a long string that must wrap\"\n"
	hl := NewHighlighter(HighlighterOptions{})
	hl.Highlight("python", code) // in the cache: the view takes it from there at once
	src := &fakeSource{}
	src.add(agentEntry("```python\n" + code + "```\n"))
	v := New(src, Options{Highlighter: hl})
	v.SetSize(16, 1000)
	v.Sync()
	rows := all(t, v)
	var got []string
	for _, r := range rows {
		if r.Kind == RowCode {
			got = append(got, strings.Join(classesOf([]Row{r}), ","))
		}
	}
	// Code is cut where the row ends, not at words; continuation rows are indented 2 more.
	want := []string{
		"x :text,=:syntax.operator, :text,\"a long st:syntax.string",
		"ring that mu:syntax.string",
		"st wrap\":syntax.string",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
