package runtime

import (
	"strings"

	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// cleanLine makes text from a process safe to show and to store as one log line: trailing
// blanks go, and what is left is made visible with safetext.Caret (ESC is "^[").
func cleanLine(s string) string {
	return safetext.Caret(strings.TrimRight(s, " \t\r\n"))
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
