package markdown

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// bombs are hostile texts of about 1 MB (the chat model's cap on an entry), by shape.
var bombs = []struct {
	name string
	text func() string
}{
	{"quotes-one-line", func() string { return strings.Repeat(">", 10_000) + " deep\n" }},
	{"quotes-nested-lines", func() string {
		var b strings.Builder
		for i := 1; i <= 10_000; i++ {
			b.WriteString(strings.Repeat("> ", min(i, 50)))
			b.WriteString("x\n")
		}
		return b.String()
	}},
	{"lists-one-line", func() string { return strings.Repeat("- ", 10_000) + "deep\n" }},
	{"lists-nested-lines", func() string {
		var b strings.Builder
		for i := 0; i < 10_000; i++ {
			b.WriteString(strings.Repeat("  ", i%100))
			b.WriteString("- x\n")
		}
		return b.String()
	}},
	{"ordered-one-line", func() string { return strings.Repeat("1. ", 10_000) + "deep\n" }},
	{"table-row-1MB", func() string {
		return "| a | b |\n|---|---|\n| " + strings.Repeat("word ", 200_000) + " | " + strings.Repeat("x", 1000) + " |\n"
	}},
	{"table-1MB-of-cells", func() string {
		return strings.Repeat("|a", 250_000) + "|\n" + strings.Repeat("|-", 250_000) + "|\n" + strings.Repeat("|b", 250_000) + "|\n"
	}},
	{"unclosed-fence", func() string { return "```go\n" + strings.Repeat("x := `unclosed\n", 70_000) }},
	{"unclosed-fences-in-containers", func() string { return strings.Repeat("> - ```\n> - ~~~\n", 30_000) }},
	{"unclosed-code-spans", func() string { return strings.Repeat("`", 100_000) + strings.Repeat(" `a", 100_000) + "\n" }},
	{"unclosed-emphasis", func() string { return strings.Repeat("*a **b _c __d ", 50_000) + "\n" }},
	{"links-with-controls", func() string {
		return strings.Repeat("[x](http://a.example/\x1b]8;;http://evil\x07\x1b[2J\u009b31m) <http://b\x1bc> ", 20_000) + "\n"
	}},
	{"links-with-controls-lines", func() string {
		return strings.Repeat("[x](http://a.example/\x1b]8;;http://evil\x07\x1b[2J\u009b31m) <http://b\x1bc>\n", 20_000)
	}},
	{"delimiters-32KiB-lines", func() string {
		return strings.Repeat(strings.Repeat("`[*_", 4000)+"\n", 64)
	}},
	{"unclosed-links", func() string { return strings.Repeat("[a](", 100_000) + "\n" }},
}

// renderBomb renders text whole and checks what any rendering must be: lines of valid
// text with no control character, sized lines within the width.
func renderBomb(t testing.TB, text string, w int) []Line {
	st := New("")
	st.Update(text, true, w)
	lines := st.Lines()
	for _, l := range lines {
		for _, sp := range l.Spans {
			if strings.ContainsFunc(sp.Text+sp.URL, IsControl) || !utf8.ValidString(sp.URL) {
				t.Fatalf("span %q %q holds a control character", sp.Text, sp.URL)
			}
		}
		if l.Sized && width(l.Text()) > w {
			t.Fatalf("line %q is wider than %d", l.Text(), w)
		}
	}
	return lines
}

// TestBombsRenderInBoundedTime: each hostile shape renders, whole or streamed, in well
// under a second of work on the machine the bounds were chosen on (the limit leaves room
// for a loaded machine and the race detector).
func TestBombsRenderInBoundedTime(t *testing.T) {
	for _, b := range bombs {
		t.Run(b.name, func(t *testing.T) {
			text := b.text()
			start := time.Now()
			renderBomb(t, text, 80)
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("rendering took %v", d)
			}
			start = time.Now()
			st := New("")
			for i := 0; i < len(text); i += 4 << 10 { // as the window is paced: 4 KiB a chunk
				st.Update(text[:i], false, 80)
			}
			st.Update(text, true, 80)
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("streaming took %v", d)
			}
		})
	}
}

func BenchmarkBomb(b *testing.B) {
	for _, bomb := range bombs {
		text := bomb.text()
		b.Run(bomb.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				renderBomb(b, text, 80)
			}
		})
	}
}

// FuzzRender renders any text, whole, streamed in two chunks, and streamed a line at a
// time then in chunks of cut bytes, at any width: it never panics, keeps no control
// character, streams to what it renders whole, and its Raw lines stand for the text.
func FuzzRender(f *testing.F) {
	f.Add(sample, 40, 10)
	f.Add("> - ```\n> - ~~~\n| a |\n|---|\n| [x](y\x1bz) |", 20, 3)
	f.Add(strings.Repeat(">", 300)+" x\n"+strings.Repeat("- ", 300)+"y", 80, 7)
	f.Add("| a | b |\n|:-|-:|\n| 中文 | `c` |\n\n1) x\n   ***\n", 9, 5)
	// Blank lines after a segment add blank lines without a parse, but not after what a
	// blank line does not end, nor after a segment whose lines wait for a line to carry them.
	f.Add("- ```\n  x\n\n\n  y\n", 30, 4)
	f.Add("- a\n  - b\n    ~~~\n    x\n\n\n", 30, 9)
	f.Add("<pre>\nx\n\n\ny</pre>\n\n", 30, 6)
	f.Add("- <!--\n\n  -->\n\nz\n", 30, 8)
	f.Add("[a]: http://x\n\n\n[a]\n", 30, 14)
	f.Add("- a\n\n      code\n\n \t\n      more\n", 30, 12)
	f.Add("-\n\n\n- b\n\n", 30, 3)
	f.Add("# h\n\n\n| a |\n|---|\n| 1 |\n\n   \n> q\n\n"+strings.Repeat(" ", 100)+"\n", 30, 20)
	f.Add("- a\n\n\n\n\n", 30, 5)
	f.Add("x\n"+strings.Repeat(" ", 250)+"\n\n", 80, 2)
	f.Fuzz(func(t *testing.T, text string, w, cut int) {
		if len(text) > 1<<16 {
			return
		}
		w = 1 + abs(w)%300
		want := renderBomb(t, text, w)
		cut = abs(cut) % (len(text) + 1)
		st := New("")
		st.Update(text[:cut], false, w)
		st.Update(text, true, w)
		sameLines(t, "in two chunks", st.Lines(), want)
		st = New("")
		for i := range len(text) {
			if text[i] == '\n' {
				st.Update(text[:i+1], false, w)
			}
		}
		st.Update(text, true, w)
		sameLines(t, "a line at a time", st.Lines(), want)
		st = New("")
		for i := 0; i < len(text); i += 1 + cut%97 {
			st.Update(text[:i], false, w)
		}
		st.Update(text, true, w)
		sameLines(t, "in chunks", st.Lines(), want)
		for _, l := range want {
			if !l.NoCopy && !strings.HasPrefix(text[l.Off:], l.Raw) {
				t.Fatalf("Raw %q is not the text at %d", l.Raw, l.Off)
			}
		}
	})
}

// sameLines fails unless the lines streamed are those rendered whole: text, source,
// offset, kind and region.
func sameLines(t *testing.T, how string, got, want []Line) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("streamed %s: %d lines, whole: %d", how, len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.Text() != w.Text() || g.Raw != w.Raw || g.Off != w.Off || g.Kind != w.Kind || g.Region != w.Region || g.NoCopy != w.NoCopy {
			t.Fatalf("streamed %s, line %d: %q %q at %d, kind %d, region %d; whole: %q %q at %d, kind %d, region %d",
				how, i, g.Text(), g.Raw, g.Off, g.Kind, g.Region, w.Text(), w.Raw, w.Off, w.Kind, w.Region)
		}
	}
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
