package chat

import (
	"strings"
	"unicode/utf8"
)

// Sanitize returns s made safe to show in a terminal: every string an agent chooses goes
// through it before it is stored in an entry.
//
// What it removes (removed, not replaced by a placeholder: a coloured compiler log then reads
// as plain text instead of being littered with marks):
//   - C0 control characters and DEL, except newline and tab. A carriage return is removed
//     too, so CRLF becomes LF; a lone CR is dropped rather than turned into a newline, because
//     a CRLF split across two chunks would otherwise become two newlines.
//   - Escape sequences, whole: CSI (ESC [ parameters, intermediates, final), OSC, DCS, SOS,
//     PM and APC strings (up to BEL or ST, a CAN or SUB that aborts them, or — further than a
//     terminal goes — a newline, so that a missing terminator hides at most one line), and
//     two-byte sequences (ESC, intermediates, final). An ESC followed by anything else is
//     dropped alone.
//   - C1 controls U+0080–U+009F; those that introduce a sequence in 8-bit form (CSI, OSC,
//     DCS, SOS, PM, APC) take their sequence with them, like their 7-bit forms.
//   - Bidirectional controls: U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069.
//
// Each byte of invalid UTF-8 becomes U+FFFD, the one visible placeholder.
//
// A string with none of these is returned as is, without allocating. The result never holds
// an ESC byte, even for a string cut in the middle of a sequence: the rest of such a
// sequence, arriving in the next chunk, shows as printable text.
func Sanitize(s string) string {
	return sanitize(s, false)
}

// SanitizeLine is Sanitize for single-line fields (titles, names, descriptions, statuses):
// newlines and tabs become spaces too.
func SanitizeLine(s string) string {
	return sanitize(s, true)
}

func sanitize(s string, line bool) string {
	i := firstUnsafe(s, line)
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for i < len(s) {
		c := s[i]
		switch {
		case c == '\n' || c == '\t':
			if line {
				b.WriteByte(' ')
			} else {
				b.WriteByte(c)
			}
			i++
		case c == 0x1b:
			i = skipEscape(s, i+1)
		case c < 0x20 || c == 0x7f:
			i++
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			i++
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && size == 1:
				b.WriteRune(utf8.RuneError)
				i++
			case r >= 0x80 && r <= 0x9f:
				i = skipC1(s, i+size, r)
			case isBidiControl(r):
				i += size
			default:
				b.WriteString(s[i : i+size])
				i += size
			}
		}
	}
	return b.String()
}

// firstUnsafe returns the index of the first byte that Sanitize must change, or len(s).
func firstUnsafe(s string, line bool) int {
	for i := 0; i < len(s); {
		// Eight bytes at a time while they are all printable ASCII (most of any text).
		for i+8 <= len(s) {
			w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
				uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
			if notPrintableASCII(w) {
				break
			}
			i += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != 0x7f {
				i++
				continue
			}
			if (c == '\n' || c == '\t') && !line {
				i++
				continue
			}
			return i
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || (r >= 0x80 && r <= 0x9f) || isBidiControl(r) {
			return i
		}
		i += size
	}
	return len(s)
}

// notPrintableASCII reports whether one of the eight bytes of w is not in 0x20–0x7E: a
// control character, DEL, or the start or middle of a multi-byte character.
func notPrintableASCII(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	below := (w - 0x20*ones) & ^w & highs // a byte below 0x20 (exact when no byte has its high bit set)
	del := w ^ 0x7f*ones                  // a zero byte where w held DEL
	del = (del - ones) & ^del & highs
	return (w&highs)|below|del != 0
}

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

// skipEscape returns the index just after the escape sequence whose ESC is right before i.
func skipEscape(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch c := s[i]; {
	case c == '[':
		return skipCSI(s, i+1)
	case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
		return skipString(s, i+1)
	case c >= 0x20 && c <= 0x2f:
		for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
			i++
		}
		if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
			i++
		}
		return i
	case c >= 0x30 && c <= 0x7e:
		return i + 1
	}
	return i
}

// skipC1 handles a C1 control r that ended right before i: the 8-bit forms of CSI, OSC, DCS,
// SOS, PM and APC take their sequence with them; the others go alone.
func skipC1(s string, i int, r rune) int {
	switch r {
	case 0x9b:
		return skipCSI(s, i)
	case 0x9d, 0x90, 0x98, 0x9e, 0x9f:
		return skipString(s, i)
	}
	return i
}

// skipCSI skips a control sequence's parameter and intermediate bytes and its final byte.
// Anything else ends the sequence there and is handled on its own.
func skipCSI(s string, i int) int {
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x3f {
		i++
	}
	if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipString skips the body of an OSC, DCS, SOS, PM or APC string and its terminator.
func skipString(s string, i int) int {
	for i < len(s) {
		switch s[i] {
		case 0x07, 0x18, 0x1a: // BEL ends an OSC in practice; CAN and SUB abort
			return i + 1
		case 0x1b:
			if i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			return i // a new sequence starts: it ends this one
		case '\n':
			return i
		case 0xc2:
			if i+1 < len(s) && s[i+1] == 0x9c { // ST in its 8-bit form, as UTF-8
				return i + 2
			}
		}
		i++
	}
	return i
}

// clip returns the longest prefix of s (a valid UTF-8 string) that holds at most n bytes and
// does not cut a character.
func clip(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// MaxLineText is the most a single-line field (a title, a name, a description, a status)
// keeps; a longer one is cut and ends with "…".
const MaxLineText = 4096

// line sanitizes a single-line field and bounds its length.
func line(s string) string {
	s = SanitizeLine(s)
	if len(s) <= MaxLineText {
		return s
	}
	return strings.Clone(clip(s, MaxLineText-len("…"))) + "…"
}
