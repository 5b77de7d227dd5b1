package window

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

func TestTextWidth(t *testing.T) {
	cases := map[string]int{
		"abc": 3, "été": 3, "日本": 4, "🤖": 2, "👩‍💻": 2, "e\u0301": 1, "a\x1bb": 3, "🇫🇷": 2, "": 0,
		"\u200b": 0,
	}
	for s, want := range cases {
		if got := TextWidth(s); got != want {
			t.Errorf("TextWidth(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestTruncate(t *testing.T) {
	cases := []struct {
		s    string
		w    int
		want string
	}{
		{"hello", 5, "hello"}, {"hello world", 6, "hello…"}, {"日本語", 4, "日…"}, {"日本語", 5, "日本…"},
		// Cases of the copies the wizard and the Agents panel had.
		{"exactly", 7, "exactly"}, {"too long", 5, "too …"}, {"🤖🤖🤖", 4, "🤖…"}, {"x", 0, ""},
		{"abc", 0, ""}, {"🤖🤖🤖", 3, "🤖…"},
	}
	for _, c := range cases {
		if got := truncate(c.s, c.w); got != c.want {
			t.Errorf("truncate(%q, %d) = %q, want %q", c.s, c.w, got, c.want)
		}
		if TextWidth(truncate(c.s, c.w)) > c.w {
			t.Errorf("truncate(%q, %d) is wider than %d", c.s, c.w, c.w)
		}
	}
}

func TestWrap(t *testing.T) {
	cases := []struct {
		s     string
		width int
		want  []string
	}{
		{"hello world", 20, []string{"hello world"}},
		{"hello world", 5, []string{"hello", "world"}},
		{"hello world", 8, []string{"hello ", "world"}},
		{"abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"日本語のテキスト", 5, []string{"日本", "語の", "テキ", "スト"}},
		{"a\tb", 10, []string{"a   b"}},
		{"", 10, []string{""}},
		// Cases of the wrappers the Files, Log, panel and wizard had of their own.
		{"one two three", 7, []string{"one two", "three"}},
		{"one two three", 3, []string{"one", "two", "thr", "ee"}},
		{"a\nb", 5, []string{"a", "b"}},
		{"界界界", 3, []string{"界", "界", "界"}},
		{"界界", 1, []string{"界", "界"}},
		{"🤖🤖🤖 x", 4, []string{"🤖🤖", "🤖 x"}},
		{"a  b", 10, []string{"a  b"}},
		{" abc界", 4, []string{" ", "abc", "界"}},
	}
	for _, c := range cases {
		got := Wrap(c.s, c.width)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("wrap(%q, %d) = %q, want %q", c.s, c.width, got, c.want)
		}
		for _, row := range got {
			if TextWidth(row) > c.width && len(clusters(row)) > 1 {
				t.Errorf("wrap(%q, %d): row %q too wide", c.s, c.width, row)
			}
		}
	}
}

func TestSplitMnemonic(t *testing.T) {
	text, at, r := splitMnemonic("A~i~de")
	if text != "Aide" || at != 1 || r != 'i' {
		t.Errorf("A~i~de: %q %d %c", text, at, r)
	}
	text, at, r = splitMnemonic("É~t~at")
	if text != "État" || text[at:at+1] != "t" || r != 't' {
		t.Errorf("É~t~at: %q %d %c", text, at, r)
	}
	if text, at, _ := splitMnemonic("plain"); text != "plain" || at != -1 {
		t.Errorf("plain: %q %d", text, at)
	}
	if text, at, _ := splitMnemonic("broken~"); text != "broken" || at != -1 {
		t.Errorf("broken~: %q %d", text, at)
	}
}

func simRegion(t testing.TB, w, h int) (tcell.SimulationScreen, Region) {
	t.Helper()
	sim := tcell.NewSimulationScreen("UTF-8")
	if err := sim.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sim.Fini)
	sim.SetSize(w, h)
	full := Rect{0, 0, w, h}
	return sim, Region{screen: sim, origin: full, clip: full, theme: darkTheme(), cursor: &cursorState{}}
}

func simRow(sim tcell.SimulationScreen, y int) string {
	sim.Show()
	cells, w, _ := sim.GetContents()
	var b strings.Builder
	for x := 0; x < w; {
		s := string(cells[y*w+x].Runes)
		b.WriteString(s)
		x += max(TextWidth(s), 1)
	}
	return b.String()
}

func TestRegionClips(t *testing.T) {
	sim, screen := simRegion(t, 12, 3)
	screen.Line(0, strings.Repeat("#", 12), ClassText)
	screen.Line(1, strings.Repeat("#", 12), ClassText)
	screen.Line(2, strings.Repeat("#", 12), ClassText)
	// A sub-region of 5 cells from x=3: nothing drawn outside, whatever is asked.
	r := screen.Sub(3, 1, 5, 1)
	n := r.Text(-2, 0, "abcdefghijklmnop", ClassText)
	if n != 16 {
		t.Errorf("Text returned %d, want the full width 16", n)
	}
	r.Text(0, 1, "outside", ClassText)
	r.Text(0, -1, "outside", ClassText)
	if got := simRow(sim, 1); got != "###cdefg####" {
		t.Errorf("row 1 = %q", got)
	}
	if got := simRow(sim, 0); got != "############" || simRow(sim, 2) != "############" {
		t.Errorf("rows 0 and 2 changed: %q %q", got, simRow(sim, 2))
	}
}

func TestRegionWideAndControls(t *testing.T) {
	sim, screen := simRegion(t, 10, 2)
	r := screen.Sub(0, 0, 5, 1)
	// 日本語 is 6 cells: the third does not fit in 5, its place is left blank.
	r.Line(0, "日本語", ClassText)
	sim.Show()
	cells, w, _ := sim.GetContents()
	if string(cells[0].Runes) != "日" || string(cells[2].Runes) != "本" || string(cells[4].Runes) != " " {
		t.Errorf("wide clusters: %q %q %q", string(cells[0].Runes), string(cells[2].Runes), string(cells[4].Runes))
	}
	if string(cells[5].Runes) == "語" {
		t.Error("a wide character spilled out of its region")
	}
	_ = w
	row := screen.Sub(0, 1, 10, 1)
	row.Line(0, "a\x1b[2Jb\x07\u0085", ClassText)
	got := simRow(sim, 1)
	if !strings.HasPrefix(got, "a␛[2Jb␇\ufffd") {
		t.Errorf("controls shown as %q", got)
	}
	for _, r := range got {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
			t.Fatalf("control %U reached the screen", r)
		}
	}
	// Emoji with a joiner takes two cells.
	row.Line(0, "👩‍💻x", ClassText)
	sim.Show()
	cells, _, _ = sim.GetContents()
	if string(cells[10].Runes) != "👩‍💻" || string(cells[12].Runes) != "x" {
		t.Errorf("ZWJ emoji: %q then %q", string(cells[10].Runes), string(cells[12].Runes))
	}
}

// TestRegionWideCoversItsSecondCell: a wide cluster's second cell takes the cluster's style
// in the screen's buffer, whatever an earlier frame left there (tcell's Put leaves it).
func TestRegionWideCoversItsSecondCell(t *testing.T) {
	sim, screen := simRegion(t, 6, 2)
	screen.Line(0, "abcdef", ClassKeyword)
	sim.Show()
	screen.Line(0, "a🔒", ClassText)
	lead, leadStyle, width := sim.Get(1, 0)
	if lead != "🔒" || width != 2 {
		t.Fatalf("the lock is %q, %d cells wide", lead, width)
	}
	if leadStyle == screen.style(ClassKeyword) {
		t.Fatal("the classes' styles must differ for this test to mean anything")
	}
	if _, st, _ := sim.Get(2, 0); st != leadStyle {
		t.Errorf("the lock's second cell keeps style %v, want the lock's %v", st, leadStyle)
	}
	// Cut by the left edge, the visible half is a space of the cluster's style.
	screen.Sub(1, 1, 5, 1).Text(-1, 0, "🔒x", ClassText)
	if s, st, _ := sim.Get(1, 1); s != " " || st != leadStyle {
		t.Errorf("the cut lock shows %q in %v", s, st)
	}
}
