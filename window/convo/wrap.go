package convo

import "unicode/utf8"

// line is one logical line of an entry: a line of its text, a label, a tool call's header,
// a line of output. Wrapping cuts it into rows; copying takes raw. It is kept small (48
// bytes, TestLineSize): a view holds one for each line laid out. What most lines do not
// need (a raw text other than the text shown, classes over parts of the text) is in x,
// allocated for the lines that need it only.
type line struct {
	text string // as shown, without indentation: tabs expanded, control characters replaced
	x    *lineExtra
	// off is where raw starts in the entry's text (text entries only), block the index of
	// the code block a code line belongs to (-1 for none).
	off    int32
	block  int32
	region int32
	// indent is the display indentation of the first row; continuation rows get cont more.
	indent, cont int16
	cls          class
	kind         RowKind
	// word wraps at spaces (prose); otherwise the line is cut where the width ends (code).
	word bool
	// nocopy: the line is drawn only (a table's border), a copy leaves it out. fits: the
	// line was made for the width (a table's row) and is one row, not measured.
	nocopy, fits bool
}

// lineExtra is what a line rarely needs: its raw text when it is not the text shown (a
// Markdown line's markup, a code line's tabs, a speaker's title), and its runs.
type lineExtra struct {
	raw  string
	runs []run
}

// raw returns the line as copied: the line as the entry holds it (tabs kept).
func (l *line) raw() string {
	if l.x != nil {
		return l.x.raw
	}
	return l.text
}

// runs returns the classes over text; nil when all of it is in cls.
func (l *line) runs() []run {
	if l.x != nil {
		return l.x.runs
	}
	return nil
}

// with returns l with raw as its raw text and runs as its runs. Its text must be set: a raw
// text equal to it is not kept twice. The string kept is then raw's: a Markdown line's raw
// text is part of the entry's text, which the view holds anyway, where its text may be a
// copy.
func (l line) with(raw string, runs []run) line {
	if runs == nil && raw == l.text {
		l.text, l.x = raw, nil
	} else {
		l.x = &lineExtra{raw: raw, runs: runs}
	}
	return l
}

// run is a class over text, from the end of the previous run up to end, and the address
// of the link it is (or "").
type run struct {
	end int32
	cls class
	url string
}

// wrow is a row as the cache keeps it: a byte range of one line.
type wrow struct {
	line       int32
	start, end int32
	indent     int16
	// subst says the row shows placeholderGlyph instead of a cluster wider than the row.
	subst bool
	// fold says the row is of the marker of a folded entry (entryView.fold): it stands
	// for the lines from line on (fold.go).
	fold bool
}

// rowIndent returns the indentation of a row and the cells left for text. The indentation
// gives way on a narrow width: a row always keeps 2 cells for text (1 at width 1), so that
// a wide character fits on a row of its own whenever the width allows it.
func rowIndent(width, indent int) (int, int) {
	keep := min(2, width)
	indent = max(0, min(indent, width-keep))
	return indent, width - indent
}

// wrapLine appends the rows of line l (number idx) at width, starting at byte from of its
// text: 0 for the whole line, or where a previous wrap of a shorter version of the same line
// started its row resumeRow (the rows before it stay what they were).
func wrapLine(rows []wrow, idx int, l *line, width, from int) []wrow {
	rows, _ = wrapLineWork(rows, idx, l, width, from)
	return rows
}

// resumeRow returns the row from which a line that grew is wrapped again, given its rows
// before it grew: the rows before that one stay what they were. It is the last row but one.
// A row ends where the next word would not fit, and the word that starts the last row may
// end in a cluster that the text added changes: a regional indicator that becomes a flag, an
// emoji that a variation selector widens, a prepended mark that joins the next letter. A
// cluster that turns wide ends the word before it, and the shorter word may then fit on the
// row before. It cannot reach further up: the words that start the rows before the last
// one end before the text did.
func resumeRow(rows []wrow) int { return max(0, len(rows)-2) }

// wrapLineWork is wrapLine, and it also returns the work it did: the bytes it measured, a
// cluster counted each time it was measured. Wrapping is linear: whatever the width and
// however long the words, a byte is measured at most twice. A row measures a word only as
// far as it has room for it, plus one cluster, which the next row starts with and does not
// measure again; a word that does not fit on a row that holds words already is measured
// again by the next row, once.
func wrapLineWork(rows []wrow, idx int, l *line, width, from int) ([]wrow, int) {
	width = max(width, 1)
	text := l.text
	if text == "" {
		if from == 0 {
			ind, _ := rowIndent(width, int(l.indent))
			rows = append(rows, wrow{line: int32(idx), indent: int16(ind)})
		}
		return rows, 0
	}
	if l.fits && from == 0 {
		ind, _ := rowIndent(width, int(l.indent))
		return append(rows, wrow{line: int32(idx), end: int32(len(text)), indent: int16(ind)}), 0
	}
	m := newMeasurer(text)
	pos := from
	for pos < len(text) {
		first := pos == 0
		indent := int(l.indent)
		if !first {
			indent += int(l.cont)
			if l.word {
				pos = m.spaces(pos)
				if pos == len(text) {
					break
				}
			}
		}
		ind, avail := rowIndent(width, indent)
		var start, end int
		var subst bool
		if l.word {
			start, end, pos, subst = m.wordRow(pos, avail)
		} else {
			start, end, pos, subst = m.hardRow(pos, avail)
		}
		rows = append(rows, wrow{line: int32(idx), start: int32(start), end: int32(end), indent: int16(ind), subst: subst})
	}
	return rows, m.work
}

// measurer measures the clusters of one line as wrapping walks it, and counts the bytes it
// measured. It remembers the last cluster it measured: the one a row looked at past its end
// is where the next row starts.
type measurer struct {
	text string
	work int
	// at, end, width: the last cluster measured, at byte at (-1 for none).
	at, end, width int
}

func newMeasurer(text string) measurer { return measurer{text: text, at: -1} }

// ascii reports whether a printable ASCII character from lo up that no combining mark
// follows is at pos: a cluster of its own, one cell wide (as in firstCluster). It counts it
// as measured, unless it is the cluster measured last. It is the fast path of the loops that
// fill a row: small enough to be inlined.
func (m *measurer) ascii(pos int, lo byte) bool {
	text := m.text
	if c := text[pos]; c < lo || c >= 0x7f || pos == m.at || (pos+1 < len(text) && text[pos+1] >= utf8.RuneSelf) {
		return false
	}
	m.work++
	return true
}

// graphicRun goes on with a word past 16 cells (word), eight bytes at a time while each is
// a one-cell cluster too (ascii), within room cells: a word of a megabyte (base64, minified
// code) is cut into rows at a fraction of a byte's look each. It returns where it stopped,
// and the width up to there. Not inlined, nor called before 16 cells: an ordinary word's
// loop stays as small as it was (with the test in it, a resize of 9 windows of words took
// a third longer).
//
//go:noinline
func (m *measurer) graphicRun(pos, width, room int) (int, int) {
	text := m.text
	for pos+8 < len(text) && width+8 <= room && (m.at < pos || m.at >= pos+8) &&
		text[pos+8] < utf8.RuneSelf && graphic8(text[pos:pos+8]) {
		width += 8
		pos += 8
		m.work += 8
	}
	return pos, width
}

// graphic8 reports whether each of the eight bytes of s is a printable ASCII character
// other than a space ('!' to '~'): none is below 0x21 (a borrow sets its high bit), none
// is 0x7f or above (adding one sets it, or it is set). A borrow or a carry crosses into
// the next byte only from a byte that is not one, so the answer is exact.
func graphic8(s string) bool {
	x := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	return ((x-ones*0x21)&^x|(x+ones)|x)&highs == 0
}

// remember makes the one-cell cluster at pos the last measured: the row that looked at it
// past its end leaves it to the next row.
func (m *measurer) remember(pos int) { m.at, m.end, m.width = pos, pos+1, 1 }

// cluster returns the end and the width of the grapheme cluster at pos.
func (m *measurer) cluster(pos int) (end, width int) {
	if pos == m.at {
		return m.end, m.width
	}
	c, w, _ := firstCluster(m.text[pos:])
	m.work += len(c)
	m.at, m.end, m.width = pos, pos+len(c), w
	return m.end, w
}

// space reports whether a space a line may break at starts at pos: a space that no
// combining mark follows (a space that carries one is a character, and part of a word).
func (m *measurer) space(pos int) bool {
	text := m.text
	if text[pos] != ' ' {
		return false
	}
	if pos+1 == len(text) || text[pos+1] < utf8.RuneSelf {
		return true
	}
	end, _ := m.cluster(pos)
	return end == pos+1
}

// spaces returns the end of the run of spaces at pos (pos itself when there is none).
func (m *measurer) spaces(pos int) int {
	n := pos
	for n < len(m.text) && m.space(n) {
		if m.at != n {
			m.work++ // a space told by its next byte, not measured
		}
		n++
	}
	return n
}

// fit returns how far from pos the clusters of the text fill at most room cells: the end of
// the last cluster that fits. It looks at one cluster past those that fit, no more.
func (m *measurer) fit(pos, room int) int {
	width := 0
	for pos < len(m.text) {
		if m.ascii(pos, ' ') {
			if width+1 > room {
				m.remember(pos)
				return pos
			}
			width++
			pos++
			continue
		}
		next, cw := m.cluster(pos)
		if width+cw > room {
			return pos
		}
		width += cw
		pos = next
	}
	return pos
}

// hardRow fills one row of avail cells from pos, cluster by cluster.
func (m *measurer) hardRow(pos, avail int) (start, end, next int, subst bool) {
	end = m.fit(pos, avail)
	if end == pos { // wider than the whole row: a placeholder takes its place
		end, _ = m.cluster(pos)
		return pos, end, end, true
	}
	return pos, end, end, false
}

// wordRow fills one row of avail cells from pos with whole words: runs of characters
// between spaces (a space that carries a combining mark is a character), and each wide
// character on its own (CJK text breaks between ideographs).
// A word longer than a whole row is cut where the row ends, between two grapheme clusters.
// Spaces where the row breaks are not shown.
//
// A word is measured only as far as the row has room for it, plus one cluster: a word that
// fills many rows (minified code, base64, a JSON blob on one line) is cut a row at a time
// without being measured to its end at each row.
func (m *measurer) wordRow(pos, avail int) (start, end, next int, subst bool) {
	text := m.text
	start, end = pos, pos
	w := 0
	words := false
	for pos < len(text) {
		if m.space(pos) {
			n := m.spaces(pos)
			if w+n-pos > avail {
				return start, end, n, false
			}
			w += n - pos
			pos = n
			if !words { // leading spaces of the line are its indentation: shown
				end = pos
			}
			continue
		}
		wend, ww, fits := m.word(pos, avail-w)
		if fits {
			w += ww
			pos = wend
			end = pos
			words = true
			continue
		}
		if words {
			return start, end, pos, false
		}
		// Longer than what is left of a row without a word yet: cut it where the row ends.
		if wend == pos {
			if pos == start { // wider than the whole row: a placeholder takes its place
				end, _ = m.cluster(pos)
				return start, end, end, true
			}
			return start, pos, pos, false
		}
		return start, wend, wend, false
	}
	return start, end, pos, false
}

// word measures the word at pos within room cells: narrow clusters up to a space or a wide
// cluster, or one wide cluster. When the whole word fits, it returns its end and width and
// fits is true; otherwise it returns how far its clusters fill the room (as fit does) and
// the cells up to there, and looks no further.
func (m *measurer) word(pos, room int) (end, width int, fits bool) {
	text := m.text
	for pos < len(text) {
		if m.ascii(pos, '!') {
			if width+1 > room {
				m.remember(pos)
				return pos, width, false
			}
			width++
			pos++
			if width >= 16 {
				pos, width = m.graphicRun(pos, width, room)
			}
			continue
		}
		if m.space(pos) {
			break
		}
		next, cw := m.cluster(pos)
		if cw > 1 {
			if width == 0 {
				if cw > room {
					return pos, 0, false
				}
				return next, cw, true
			}
			return pos, width, true
		}
		if width+cw > room {
			return pos, width, false
		}
		width += cw
		pos = next
	}
	return pos, width, true
}
