package runtime

import (
	"strings"
	"unicode/utf8"
)

// cleanLine makes text from a process safe to show and to store as one log line: control
// characters become visible caret notation (ESC is "^["), C1 controls and invalid UTF-8
// become U+FFFD, and surrounding blanks go.
func cleanLine(s string) string {
	s = strings.TrimRight(s, " \t\r\n")
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\t' || c >= 0x7f {
			clean = false
			break
		}
	}
	if clean {
		return s // the usual case: printable ASCII
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && w <= 1:
			b.WriteRune(utf8.RuneError)
		case r == '\t':
			b.WriteByte('\t')
		case r < 0x20:
			b.WriteByte('^')
			b.WriteByte(byte(r) + 64)
		case r == 0x7f:
			b.WriteString("^?")
		case r >= 0x80 && r < 0xa0:
			b.WriteRune(utf8.RuneError)
		default:
			b.WriteString(s[i : i+w])
		}
		i += w
	}
	return b.String()
}

// tailBuffer is an io.Writer that keeps only the last max bytes written to it.
type tailBuffer struct {
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	n := len(p)
	if len(p) >= t.max {
		t.buf = append(t.buf[:0], p[len(p)-t.max:]...)
		return n, nil
	}
	if over := len(t.buf) + len(p) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	t.buf = append(t.buf, p...)
	return n, nil
}

func (t *tailBuffer) String() string { return string(t.buf) }
