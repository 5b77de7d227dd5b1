package window

import (
	"strings"
	"testing"
)

func TestInputEditing(t *testing.T) {
	left, right, home, end := Named(KeyLeft, 0), Named(KeyRight, 0), Named(KeyHome, 0), Named(KeyEnd, 0)
	bs, del := Named(KeyBackspace, 0), Named(KeyDelete, 0)
	r := func(c rune) Key { return Key{KeyRune, c, 0} }
	cases := []struct {
		name   string
		start  string
		events []Event
		want   string
		cursor int // in bytes
	}{
		{"typing", "", []Event{r('a'), r('é'), r('b')}, "aéb", 4},
		{"left then insert", "ab", []Event{left, r('x')}, "axb", 2},
		{"home, end", "abc", []Event{home, r('<'), end, r('>')}, "<abc>", 5},
		{"backspace a cluster", "e\u0301x", []Event{left, bs}, "x", 0},
		{"delete a wide char", "日本", []Event{home, del}, "本", 0},
		{"backspace at start", "ab", []Event{home, bs}, "ab", 0},
		{"delete at end", "ab", []Event{del}, "ab", 2},
		{"right past end", "ab", []Event{right, right}, "ab", 2},
		{"emoji is one step", "a👩‍💻b", []Event{left, left, bs}, "👩‍💻b", 0},
		{"ctrl-u kills to start", "hello world", []Event{left, left, Ctrl('u')}, "ld", 0},
		{"ctrl-k kills to end", "hello", []Event{home, right, Ctrl('k')}, "h", 1},
		{"ctrl-a ctrl-e", "abc", []Event{Ctrl('a'), r('1'), Ctrl('e'), r('2')}, "1abc2", 5},
		{"paste one line", "", []Event{Paste{"a\r\nb\nc\td\x1b"}}, "a b c d", 7},
		{"alt keys do not type", "", []Event{Alt('x'), Ctrl('x')}, "", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := NewInput()
			in.SetText(c.start)
			for _, ev := range c.events {
				in.HandleEvent(ev)
			}
			if in.Text() != c.want || in.Cursor() != c.cursor {
				t.Errorf("text %q cursor %d, want %q %d", in.Text(), in.Cursor(), c.want, c.cursor)
			}
		})
	}
	// Enter, Esc and Tab are the caller's.
	in := NewInput()
	for _, k := range []Key{Named(KeyEnter, 0), Named(KeyEsc, 0), Named(KeyTab, 0), Named(KeyUp, 0)} {
		if in.HandleEvent(k) {
			t.Errorf("the field took %v", k)
		}
	}
}

func TestInputScrollsToCursor(t *testing.T) {
	sim, screen := simRegion(t, 10, 1)
	in := NewInput()
	in.SetText("0123456789abcdefghij")
	in.Draw(screen, true)
	if got := simRow(sim, 0); got != "bcdefghij " {
		t.Errorf("end of a long text: %q", got)
	}
	if !screen.cursor.visible || screen.cursor.x != 9 {
		t.Errorf("cursor at %+v, want column 9", *screen.cursor)
	}
	in.HandleEvent(Named(KeyHome, 0))
	in.Draw(screen, true)
	if got := simRow(sim, 0); got != "0123456789" || screen.cursor.x != 0 {
		t.Errorf("after Home: %q, cursor %d", got, screen.cursor.x)
	}
	// A click places the cursor.
	in.HandleEvent(Mouse{X: 4, Action: MousePress})
	if in.Cursor() != 4 {
		t.Errorf("click at 4: cursor %d", in.Cursor())
	}
	// Wide characters scroll by whole clusters.
	in.SetText(strings.Repeat("日", 8))
	in.Draw(screen, true)
	got := simRow(sim, 0)
	if TextWidth(got) != 10 || !strings.Contains(got, "日") {
		t.Errorf("wide text: %q", got)
	}
}

func TestListAndTextView(t *testing.T) {
	sim, screen := simRegion(t, 20, 3)
	l := NewList()
	var activated = -1
	l.OnActivate = func(i int) { activated = i }
	l.SetItems([]ListItem{{Text: "a"}, {Text: "b"}, {Text: "c"}, {Text: "d"}, {Text: "e", Mark: "●"}})
	l.Draw(screen, true)
	for i := 0; i < 4; i++ {
		l.HandleEvent(Named(KeyDown, 0))
	}
	l.Draw(screen, true)
	if got := simRow(sim, 2); !strings.HasPrefix(got, " e") || !strings.HasSuffix(got, "● ") {
		t.Errorf("last row after scrolling: %q", got)
	}
	l.HandleEvent(Named(KeyEnter, 0))
	if activated != 4 {
		t.Errorf("Enter activated %d", activated)
	}
	l.HandleEvent(Mouse{Action: MouseWheelUp})
	l.Draw(screen, true)
	if l.Current() != 4 || !strings.HasPrefix(simRow(sim, 0), " a") {
		t.Errorf("wheel moved the highlight (%d) or did not scroll: %q", l.Current(), simRow(sim, 0))
	}

	v := NewTextView()
	var lines []TextLine
	for i := 0; i < 10; i++ {
		lines = append(lines, TextLine{Text: strings.Repeat(string(rune('a'+i)), 30)})
	}
	v.SetLines(lines)
	v.Draw(screen, true)
	// 30 characters wrap into 18 + 12 at width 20 (a column of margin each side).
	if got := simRow(sim, 0); got != " "+strings.Repeat("a", 18)+" " {
		t.Errorf("first row %q", got)
	}
	v.HandleEvent(Named(KeyEnd, 0))
	v.Draw(screen, true)
	if got := simRow(sim, 2); !strings.HasPrefix(got, " jjjjjjjjjjjj ") {
		t.Errorf("last row at the end %q", got)
	}
	v.HandleEvent(Mouse{Action: MouseWheelUp})
	if v.Top() != 14 {
		t.Errorf("wheel up from 17: top %d, want 14", v.Top())
	}
	v.Append(TextLine{Text: "new"})
	v.HandleEvent(Named(KeyEnd, 0))
	v.Draw(screen, true)
	if got := simRow(sim, 2); !strings.HasPrefix(got, " new ") {
		t.Errorf("appended line: %q", got)
	}
}
