package convo

import "strings"

// The text of a message, a reply or a thought is read as Markdown, only as far as the view
// needs: fenced code blocks (``` or ~~~, at least three, indented by at most three spaces,
// with an info string whose first word is the language; a backtick fence's info string has
// no backtick; the block ends at a fence of the same character at least as long, or at the
// end of the text), blank lines, headings (#…), and passages of prose (lines between blank
// lines, fences and headings). Everything else is shown as written.

// textState is where the parser stands after the lines it committed.
type textState struct {
	off    int   // bytes of the text read into committed lines
	region int32 // the number the next region takes
	// The open fenced block: its character, length, indentation and block index.
	fence   bool
	fch     byte
	flen    int
	findent int
	block   int32
	bregion int32
	// para says the last line was prose (a passage goes on); blank that it was blank.
	para, blank bool
}

// fenceEvent says what a line did to fenced blocks.
type fenceEvent uint8

const (
	fenceNone fenceEvent = iota
	fenceOpen
	fenceClose
	fenceCode
)

// textLine reads one line of text (raw, which starts at byte off of the entry's text) and
// returns it classified; st moves past it. base is the class of prose; indent the display
// indentation of the body.
func (st *textState) textLine(raw string, off int, base string, indent int16) (line, fenceEvent, string) {
	l := line{raw: raw, off: int32(off), block: -1, indent: indent}
	if st.fence {
		if closesFence(raw, st.fch, st.flen) {
			st.fence = false
			st.para, st.blank = false, false
			l.text, l.cls, l.kind, l.region = displayText(raw, 0), ClassComment, RowFence, st.bregion
			return l, fenceClose, ""
		}
		code := stripSpaces(raw, st.findent)
		l.raw = code
		l.off += int32(len(raw) - len(code))
		l.text, l.cls, l.kind, l.region, l.block, l.cont = displayText(code, 0), ClassText, RowCode, st.bregion, st.block, 2
		return l, fenceCode, ""
	}
	if ch, n, info, ind, ok := opensFence(raw); ok {
		st.fence, st.fch, st.flen, st.findent = true, ch, n, ind
		st.bregion = st.newRegion()
		st.para, st.blank = false, false
		l.text, l.cls, l.kind, l.region = displayText(raw, 0), ClassComment, RowFence, st.bregion
		return l, fenceOpen, fenceLang(info)
	}
	if strings.TrimLeft(raw, " \t") == "" {
		if !st.blank {
			st.newRegion()
		}
		st.para, st.blank = false, true
		l.kind, l.region, l.cls = RowBlank, st.region-1, base
		l.text = ""
		return l, fenceNone, ""
	}
	l.text, l.cls, l.kind, l.word = displayText(raw, 0), base, RowProse, true
	if isHeading(raw) {
		st.para, st.blank = false, false
		l.region, l.cls = st.newRegion(), ClassKeyword
		return l, fenceNone, ""
	}
	if !st.para {
		st.newRegion()
	}
	st.para, st.blank = true, false
	l.region = st.region - 1
	l.cont = int16(hangingIndent(l.text))
	return l, fenceNone, ""
}

func (st *textState) newRegion() int32 {
	r := st.region
	st.region++
	return r
}

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

// opensFence reports whether s opens a fenced code block.
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

// isHeading reports an ATX heading: one to six #, then a space or nothing.
func isHeading(s string) bool {
	s = s[min(leadingSpaces(s), 3):]
	n := 0
	for n < len(s) && s[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && (n == len(s) || s[n] == ' ' || s[n] == '\t')
}

// hangingIndent returns how far the wrapped rows of a prose line are indented: under the
// text of a list item ("- ", "* ", "+ ", "1. ", "1) "), else under the line's own
// indentation; at most 12 cells.
func hangingIndent(text string) int {
	n := leadingSpaces(text)
	rest := text[n:]
	switch {
	case len(rest) >= 2 && (rest[0] == '-' || rest[0] == '*' || rest[0] == '+') && rest[1] == ' ':
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
