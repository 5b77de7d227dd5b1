package markdown

import (
	"strings"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// tabWidth is the distance between tab stops, as in the conversation view.
const tabWidth = 4

// display returns a line as it is shown: tabs expanded to the next multiple of tabWidth
// cells, every other control character replaced by U+FFFD. It returns s itself when there
// is nothing to change.
func display(s string) string {
	if !NeedsDisplay(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	appendDisplay(&b, s, 0)
	return b.String()
}

// appendDisplay writes s as display shows it to b, s starting at column col of its line,
// and returns the column after it.
func appendDisplay(b *strings.Builder, s string, col int) int {
	for _, r := range s {
		switch {
		case r == '\t':
			n := tabWidth - col%tabWidth
			b.WriteString("    "[:n])
			col += n
		case IsControl(r):
			b.WriteRune(utf8.RuneError)
			col++
		default:
			b.WriteRune(r)
			col++ // close enough for tab stops after wide characters
		}
	}
	return col
}

// growing is display for a line that grows between two calls (the line still arriving, a
// long word, minified code, base64 at its end): what it looked at and converted before is
// not looked at again, so that a word of a megabyte arriving 4 KiB at a time costs its
// length, not its length times the chunks (a frame of a flood took 270 ms in NeedsDisplay).
type growing struct {
	at     int             // where the line starts in the text (-1: nothing kept)
	looked int             // bytes of it known to need nothing (whole characters)
	dirty  bool            // a byte needed display: b holds the display of line[:looked]
	b      strings.Builder // when dirty
	col    int             // the column after b
}

// show returns display(s) for s, the line that starts at byte at of the text: the same
// line as the last call's with more at its end when at is the same.
func (g *growing) show(s string, at int) string {
	if g.at != at || g.looked > len(s) {
		*g = growing{at: at}
	}
	whole := wholeRunes(s)
	if !g.dirty {
		if !NeedsDisplay(s[g.looked:]) {
			g.looked = whole
			return s
		}
		g.dirty, g.looked, g.col = true, 0, 0
		g.b.Grow(len(s) + 8)
	}
	g.col = appendDisplay(&g.b, s[g.looked:whole], g.col)
	g.looked = whole
	if whole == len(s) {
		return g.b.String()
	}
	var t strings.Builder // an unfinished character at the end, as display shows it
	t.WriteString(g.b.String())
	appendDisplay(&t, s[whole:], g.col)
	return t.String()
}

// wholeRunes returns the length of s without an unfinished UTF-8 sequence at its end.
func wholeRunes(s string) int {
	for i := len(s) - 1; i >= 0 && i >= len(s)-utf8.UTFMax; i-- {
		if utf8.RuneStart(s[i]) {
			if !utf8.FullRuneInString(s[i:]) {
				return i
			}
			break
		}
	}
	return len(s)
}

// clean returns s with its control characters removed and its line ends made spaces: for
// the text of a single span.
func clean(s string) string {
	if !NeedsDisplay(s) {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n':
			return ' '
		case r == '\r':
			return -1
		case IsControl(r):
			return utf8.RuneError
		}
		return r
	}, s)
}

// cleanURL returns a link's address with every control character, and every space,
// removed: what is left cannot end the hyperlink's escape sequence or start another.
func cleanURL(s string) string {
	return strings.Map(func(r rune) rune {
		if IsControl(r) || r == ' ' || r == utf8.RuneError || r >= 0x2028 && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
			return -1
		}
		return r
	}, s)
}

// IsControl reports a rune the terminal would interpret: C0 (tab included), DEL, C1.
func IsControl(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f)
}

// NeedsDisplay reports whether s holds a tab or a control character: what a line shown
// on a terminal must not hold as it is.
func NeedsDisplay(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f || (c == 0xc2 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] <= 0x9f) {
			return true
		}
	}
	return false
}

// width returns the cells s takes, measured as tcell does.
func width(s string) int {
	w := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return uniseg.StringWidth(s)
		}
		w++
	}
	return w
}

// spansWidth returns the cells spans take.
func spansWidth(spans []Span) int {
	w := 0
	for _, s := range spans {
		w += width(s.Text)
	}
	return w
}

func isBlank(s string) bool { return strings.TrimLeft(s, " \t") == "" }

// leadingSpaces counts the spaces that start s.
func leadingSpaces(s string) int {
	n := 0
	for n < len(s) && s[n] == ' ' {
		n++
	}
	return n
}

// stripSpaces removes up to n leading spaces: the indentation of a fence, taken from each
// line of its block.
func stripSpaces(s string, n int) string {
	return s[min(n, leadingSpaces(s)):]
}

// opensFence reports whether s opens a fenced code block: three or more ` or ~, indented
// by at most three spaces; a backtick fence's info string has no backtick.
func opensFence(s string) (ch byte, n int, info string, indent int, ok bool) {
	indent = leadingSpaces(s)
	if indent > 3 {
		return 0, 0, "", 0, false
	}
	rest := s[indent:]
	if rest == "" || (rest[0] != '`' && rest[0] != '~') {
		return 0, 0, "", 0, false
	}
	ch = rest[0]
	for n < len(rest) && rest[n] == ch {
		n++
	}
	if n < 3 {
		return 0, 0, "", 0, false
	}
	info = strings.TrimSpace(rest[n:])
	if ch == '`' && strings.IndexByte(info, '`') >= 0 {
		return 0, 0, "", 0, false
	}
	return ch, n, info, indent, true
}

// closesFence reports whether s closes a block opened by n characters ch.
func closesFence(s string, ch byte, n int) bool {
	indent := leadingSpaces(s)
	if indent > 3 {
		return false
	}
	rest := s[indent:]
	k := 0
	for k < len(rest) && rest[k] == ch {
		k++
	}
	return k >= n && strings.TrimRight(rest[k:], " \t") == ""
}

// fenceLang returns the language of an info string: its first word, without the braces
// and dot of the "{.python}" form.
func fenceLang(info string) string {
	if i := strings.IndexAny(info, " \t"); i >= 0 {
		info = info[:i]
	}
	info = strings.TrimPrefix(info, "{")
	info = strings.TrimSuffix(info, "}")
	return strings.TrimPrefix(info, ".")
}

// isHeading reports an ATX heading that starts at the left margin: one to six #, then a
// space or nothing.
func isHeading(s string) bool {
	n := 0
	for n < len(s) && s[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && (n == len(s) || s[n] == ' ' || s[n] == '\t')
}

// hangingIndent returns how far the wrapped rows of a line shown as written are indented:
// under the text of a list item ("- ", "* ", "+ ", "1. ", "1) "), else under the line's own
// indentation; at most 12 cells.
func hangingIndent(text string) int {
	n := leadingSpaces(text)
	rest := text[n:]
	switch {
	case len(rest) >= 2 && (rest[0] == '-' || rest[0] == '*' || rest[0] == '+' || rest[0] == '>') && rest[1] == ' ':
		n += 2
	default:
		d := 0
		for d < len(rest) && d < 9 && rest[d] >= '0' && rest[d] <= '9' {
			d++
		}
		if d > 0 && d+1 < len(rest) && (rest[d] == '.' || rest[d] == ')') && rest[d+1] == ' ' {
			n += d + 2
		}
	}
	return min(n, 12)
}

// nesting returns how many container markers (quote marks, list markers, the spaces
// between them) start s, counting at most limit+1.
func nesting(s string, limit int) int {
	n := 0
	for n < len(s) && n <= limit {
		switch c := s[n]; {
		case c == '>' || c == ' ' || c == '\t' || c == '-' || c == '*' || c == '+' || c == '.' || c == ')' || c >= '0' && c <= '9':
			n++
		default:
			return n
		}
	}
	return n
}

// countDelims counts the bytes of s that may open or close inline markup.
func countDelims(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '`', '*', '_', '~', '[', ']', '<', '!':
			n++
		}
	}
	return n
}
