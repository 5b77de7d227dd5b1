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
			for i := 0; i < len(text); i += 32 << 10 { // as the window is paced: 32 KiB a frame
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

// FuzzRender renders any text, whole and streamed in two chunks, at any width: it never
// panics, keeps no control character, streams to what it renders whole, and its Raw
// lines stand for the text.
func FuzzRender(f *testing.F) {
	f.Add(sample, 40, 10)
	f.Add("> - ```\n> - ~~~\n| a |\n|---|\n| [x](y\x1bz) |", 20, 3)
	f.Add(strings.Repeat(">", 300)+" x\n"+strings.Repeat("- ", 300)+"y", 80, 7)
	f.Add("| a | b |\n|:-|-:|\n| 中文 | `c` |\n\n1) x\n   ***\n", 9, 5)
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
		got := st.Lines()
		if len(got) != len(want) {
			t.Fatalf("streamed: %d lines, whole: %d", len(got), len(want))
		}
		for i := range got {
			if got[i].Text() != want[i].Text() || got[i].Raw != want[i].Raw {
				t.Fatalf("line %d streamed %q, whole %q", i, got[i].Text(), want[i].Text())
			}
		}
		for _, l := range got {
			if !l.NoCopy && !strings.HasPrefix(text[l.Off:], l.Raw) {
				t.Fatalf("Raw %q is not the text at %d", l.Raw, l.Off)
			}
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
