package safetext

import "unicode/utf8"

// kind is what one character of a text is to a terminal: the one classification every
// function of the package works from.
type kind uint8

const (
	printable      kind = iota // shown as it is
	newline                    // U+000A
	tab                        // U+0009
	carriageReturn             // U+000D
	control                    // another C0 control (ESC included) or DEL
	c1                         // a C1 control, U+0080–U+009F
	bidi                       // a bidirectional control
	separator                  // U+2028 LINE SEPARATOR or U+2029 PARAGRAPH SEPARATOR
	invalid                    // one byte of invalid UTF-8
)

// replacement is U+FFFD, what a byte of invalid UTF-8 becomes.
const replacement = "\uFFFD"

// kinds is a set of kinds: 1<<k for each kind k in it.
type kinds uint16

// has reports whether k is in the set.
func (set kinds) has(k kind) bool {
	return set&(1<<k) != 0
}

// classify returns the kind of r, a valid rune.
func classify(r rune) kind {
	switch {
	case r == '\n':
		return newline
	case r == '\t':
		return tab
	case r == '\r':
		return carriageReturn
	case r < 0x20 || r == 0x7f:
		return control
	case r < 0x80:
		return printable
	case r <= 0x9f:
		return c1
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return bidi
	case r == 0x2028, r == 0x2029:
		return separator
	}
	return printable
}

// next returns the kind of the character that starts at s[i], the character (U+FFFD for a
// byte of invalid UTF-8) and the index where the piece it starts ends: just after it or,
// with sequences, after the whole escape sequence an ESC or a C1 control introduces.
func next(s string, i int, sequences bool) (k kind, r rune, end int) {
	if c := s[i]; c < utf8.RuneSelf {
		if sequences && c == 0x1b {
			return control, rune(c), skipEscape(s, i+1)
		}
		return classify(rune(c)), rune(c), i + 1
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && size == 1 {
		return invalid, r, i + 1
	}
	k, end = classify(r), i+size
	if sequences && k == c1 {
		end = skipC1(s, end, r)
	}
	return k, r, end
}

// firstUnsafe returns the index of the first character of s whose kind is not in pass (a
// byte of invalid UTF-8 never passes), or len(s).
func firstUnsafe(s string, pass kinds) int {
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
			if c >= 0x20 && c != 0x7f || pass.has(classify(rune(c))) {
				i++
				continue
			}
			return i
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || !pass.has(classify(r)) {
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
