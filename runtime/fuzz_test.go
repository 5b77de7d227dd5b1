package runtime

import (
	"path"
	"strings"
	"testing"
	"unicode/utf8"
)

// Whatever path an agent sends, the cleaned result stays below the root.
func FuzzCleanRel(f *testing.F) {
	for _, s := range []string{"a/b", "../x", "/root/ws/a", "/etc/passwd", "a/../../b", "..\\x", "", ".", "a\x00b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rel string) {
		r, err := cleanRel("/root/ws", rel)
		if err != nil {
			return
		}
		if r == ".." || strings.HasPrefix(r, "../") || path.IsAbs(r) || path.Clean(r) != r || strings.ContainsRune(r, 0) {
			t.Fatalf("cleanRel(%q) = %q", rel, r)
		}
		newProtector([]string{rel, "**/" + rel}).match(r)
	})
}

// Whatever a process writes, log lines are bounded and carry no control character, C1 or
// bidirectional control.
func FuzzLogLines(f *testing.F) {
	f.Add([]byte("hello\n\x1b[31mred\x1b]0;title\x07\r\n\xff\xfe\xc2\x9b"), 3)
	f.Add([]byte("right\u202eto left\u2066\n"), 7)
	f.Fuzz(func(t *testing.T, data []byte, cut int) {
		log := NewLogs(LogsOptions{Lines: 50}).Agent("a")
		w := newLineWriter(log, "p: ", 3)
		if cut < 0 || cut > len(data) {
			cut = len(data) / 2
		}
		w.Write(data[:cut])
		w.Write(data[cut:])
		w.Close()
		for _, l := range append(log.Lines(), LogLine{Text: strings.Join(w.Tail(), "")}) {
			if len(l.Text) > MaxLogLine+len("p: ")+len("…")+3*MaxLogLine {
				t.Fatalf("line of %d bytes", len(l.Text))
			}
			if !utf8.ValidString(l.Text) {
				t.Fatalf("invalid UTF-8 %q", l.Text)
			}
			for _, r := range l.Text {
				if r < 0x20 && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 {
					t.Fatalf("control character %U in %q", r, l.Text)
				}
				if r == 0x061c || r == 0x200e || r == 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
					t.Fatalf("bidirectional control %U in %q", r, l.Text)
				}
			}
		}
	})
}
