package acp

import (
	"strings"
	"unicode/utf8"
)

// maxQuoted is how many bytes of an agent-chosen string an error message or a statistic
// repeats; the rest is replaced by an ellipsis, so that a hostile agent cannot make an
// error message megabytes long.
const maxQuoted = 200

// clean makes an agent-chosen string safe to put in an error message: C0 and C1 control
// characters (newline and tab included), DEL, and bidirectional controls are dropped,
// invalid UTF-8 becomes U+FFFD, and the result is cut after max bytes. The chat model does
// its own, fuller sanitizing of what it shows; this only keeps the client's own messages
// free of raw control bytes.
func clean(s string, max int) string {
	var b strings.Builder
	for i, r := range s {
		if b.Len() >= max {
			if i < len(s) {
				b.WriteString("…")
			}
			break
		}
		switch {
		case r == utf8.RuneError:
			// Either invalid UTF-8 or a real U+FFFD: both are shown as U+FFFD.
			b.WriteRune(utf8.RuneError)
		case r == '\n' || r == '\t' || r == '\r':
			b.WriteByte(' ')
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
			// control character: dropped
		case isBidiControl(r):
			// dropped
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isBidiControl reports whether r changes the direction of the text around it.
func isBidiControl(r rune) bool {
	switch {
	case r == 0x061c, r == 0x200e, r == 0x200f:
		return true
	case r >= 0x202a && r <= 0x202e:
		return true
	case r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}
