package window

import (
	"errors"
	"os"
	"testing"
	"time"
)

func TestColorFGBG(t *testing.T) {
	cases := []struct {
		v        string
		dark, ok bool
	}{
		{"15;0", true, true}, {"0;15", false, true}, {"0;7", false, true}, {"7;8", true, true},
		{"default;default", false, false}, {"", false, false}, {"12;3;4", true, true}, {"0;11", false, false},
	}
	for _, c := range cases {
		dark, ok := colorFGBG(c.v)
		if dark != c.dark || ok != c.ok {
			t.Errorf("COLORFGBG=%q: %v %v, want %v %v", c.v, dark, ok, c.dark, c.ok)
		}
	}
}

func TestParseOSC11(t *testing.T) {
	cases := []struct {
		in          string
		dark, found bool
	}{
		{"\x1b]11;rgb:0000/0000/0000\x07", true, true},
		{"\x1b]11;rgb:ffff/ffff/ffff\x1b\\", false, true},
		{"junk\x1b]11;rgb:1e1e/1e1e/2e2e\x07\x1b[?62;c", true, true},
		{"\x1b]11;rgb:fd/f6/e3\x07", false, true},
		{"\x1b]11;rgba:ffff/ffff/ffff/ffff\x07", false, true},
		{"\x1b]11;rgb:zz/00/00\x07", false, false},
		{"\x1b]11;rgb:0000/0000", false, false},
		{"\x1b[?62;22c", false, false},
	}
	for _, c := range cases {
		dark, found := parseOSC11([]byte(c.in))
		if dark != c.dark || found != c.found {
			t.Errorf("%q: %v %v, want %v %v", c.in, dark, found, c.dark, c.found)
		}
	}
}

// fakeTerminal answers the queries written to it, like a terminal would, through pipes.
func fakeTerminal(t *testing.T, answer string) (*os.File, *os.File, chan string) {
	t.Helper()
	// toTerm carries the queries; fromTerm carries the answers.
	qr, qw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	ar, aw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	asked := make(chan string, 1)
	go func() {
		buf := make([]byte, 64)
		n, _ := qr.Read(buf)
		asked <- string(buf[:n])
		if answer != "" {
			_, _ = aw.WriteString(answer)
		}
	}()
	t.Cleanup(func() { qr.Close(); qw.Close(); ar.Close(); aw.Close() })
	return ar, qw, asked
}

func TestQueryBackground(t *testing.T) {
	r, w, asked := fakeTerminal(t, "\x1b]11;rgb:2828/2c2c/3434\x07\x1b[?64;1;2c")
	dark, err := queryBackground(r, w, 2*time.Second)
	if err != nil || !dark {
		t.Fatalf("dark terminal: %v %v", dark, err)
	}
	if q := <-asked; q != "\x1b]11;?\x07\x1b[c" {
		t.Errorf("query sent %q", q)
	}
	r, w, _ = fakeTerminal(t, "\x1b]11;rgb:ffff/ffff/dddd\x1b\\")
	if dark, err := queryBackground(r, w, 2*time.Second); err != nil || dark {
		t.Errorf("light terminal: %v %v", dark, err)
	}
}

func TestQueryBackgroundNoAnswer(t *testing.T) {
	// A terminal that only answers the device attributes: no wait for the timeout.
	r, w, _ := fakeTerminal(t, "\x1b[?1;2c")
	start := time.Now()
	if _, err := queryBackground(r, w, 10*time.Second); !errors.Is(err, errNoAnswer) {
		t.Errorf("DA1 only: %v", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Error("waited for the timeout although the terminal had answered DA1")
	}
	// A terminal that answers nothing: the deadline ends the wait.
	r, w, _ = fakeTerminal(t, "")
	if _, err := queryBackground(r, w, 50*time.Millisecond); err == nil {
		t.Error("no answer, yet no error")
	}
}

func TestSelectTheme(t *testing.T) {
	if th := SelectTheme("light", true, false); th.Name() != "light" {
		t.Errorf("light: %s", th.Name())
	}
	if th := SelectTheme("dark", false, false); th.Name() != "dark" {
		t.Errorf("dark: %s", th.Name())
	}
	if th := SelectTheme("system", false, false); th.Name() != "light" {
		t.Errorf("system on a light terminal: %s", th.Name())
	}
	if th := SelectTheme("system", true, false); th.Name() != "dark" {
		t.Errorf("system on a dark terminal: %s", th.Name())
	}
	if th := SelectTheme("dark", true, true); th.Name() != "dark-nocolor" {
		t.Errorf("NO_COLOR: %s", th.Name())
	}
	// Every class has a name that finds it again, and the classes of the spec exist.
	for c := Class(0); c < classCount; c++ {
		if got, ok := ClassNamed(c.String()); !ok || got != c {
			t.Errorf("class %d named %q does not round-trip", c, c.String())
		}
	}
	for _, name := range []string{"syntax.keyword", "syntax.comment", "syntax.type", "diagnostic.error", "editor.selection"} {
		if _, ok := ClassNamed(name); !ok {
			t.Errorf("class %s missing", name)
		}
	}
	// The spec's classes differ from plain text in every theme, a selected menu entry
	// from the others, the focused frame from the others.
	for _, th := range []*Theme{darkTheme(), lightTheme(), monoTheme("m")} {
		for _, pair := range [][2]Class{
			{ClassKeyword, ClassText}, {ClassComment, ClassText}, {ClassType, ClassText},
			{ClassError, ClassText}, {ClassSelection, ClassText}, {ClassMenuSelected, ClassMenuItem},
			{ClassFrameActive, ClassFrame}, {ClassDialogButtonFocused, ClassDialogButton},
		} {
			if th.Style(pair[0]) == th.Style(pair[1]) {
				t.Errorf("theme %s: %s looks like %s", th.Name(), pair[0], pair[1])
			}
		}
	}
}
