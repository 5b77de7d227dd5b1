package chatwin

import (
	"strings"
	"testing"
)

// TestInputRowInOnePiece: the input's rows drawn a run of text at a time show what they
// show drawn a cluster at a time — characters, cells and styles — for text with tabs at
// every column, combining marks, wide characters at the right edge, emoji sequences and
// newlines, wrapped over several rows.
func TestInputRowInOnePiece(t *testing.T) {
	wd := newWorld(t, withSize(60, 20))
	for _, text := range []string{
		"a\tbc\tdef\t\tg\th",
		"e\u0301e\u0301x abc\u0301 \u0301start",
		strings.Repeat("a中", 45),
		strings.Repeat("中", 31),
		"👩\u200d💻 team 🇫🇷 ✔\ufe0f done\tend",
		"line one\nline two\tx\n\tindented",
		strings.Repeat("QUJDREVGR0hJ", 30),
		"/echo " + strings.Repeat("word ", 40),
	} {
		wd.do(func() { wd.w.input.set(text) })
		wd.Idle()
		fast := wd.Read()
		inputByCluster = true
		wd.do(func() { wd.app.Invalidate() })
		wd.Idle()
		slow := wd.Read()
		inputByCluster = false
		if fast.Text() != slow.Text() {
			t.Fatalf("%q drawn in one piece:\n%s\na cluster at a time:\n%s", text, fast.Text(), slow.Text())
		}
		for i := range fast.Cells {
			if f, s := fast.Cells[i], slow.Cells[i]; string(f.Runes) != string(s.Runes) || f.Style != s.Style {
				t.Fatalf("%q: cell (%d, %d) is %q %v in one piece, %q %v a cluster at a time",
					text, i%fast.W, i/fast.W, string(f.Runes), f.Style, string(s.Runes), s.Style)
			}
		}
		if !strings.Contains(fast.Text(), strings.Fields(strings.ReplaceAll(text, "\t", " "))[0][:1]) {
			t.Fatalf("%q: the input is not on the screen:\n%s", text, fast.Text())
		}
	}
}
