package convo

// line is one logical line of an entry: a line of its text, a label, a tool call's header,
// a line of output. Wrapping cuts it into rows; copying takes raw.
type line struct {
	text string // as shown, without indentation: tabs expanded, control characters replaced
	raw  string // as copied: the line as the entry holds it (tabs kept)
	runs []run  // the classes over text; nil when all of it is in cls
	cls  string
	// off is where raw starts in the entry's text (text entries only), block the index of
	// the code block a code line belongs to (-1 for none).
	off    int32
	block  int32
	region int32
	kind   RowKind
	// indent is the display indentation of the first row; continuation rows get cont more.
	indent, cont int16
	// word wraps at spaces (prose); otherwise the line is cut where the width ends (code).
	word bool
}

// run is a class over text, from the end of the previous run up to end.
type run struct {
	end int32
	cls string
}

// wrow is a row as the cache keeps it: a byte range of one line.
type wrow struct {
	line       int32
	start, end int32
	indent     int16
	// subst says the row shows placeholderGlyph instead of a cluster wider than the row.
	subst bool
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
// started its last row (the rows before it stay what they were: wrapping only looks ahead
// within the row it fills).
func wrapLine(rows []wrow, idx int, l *line, width, from int) []wrow {
	width = max(width, 1)
	text := l.text
	if text == "" {
		if from == 0 {
			ind, _ := rowIndent(width, int(l.indent))
			rows = append(rows, wrow{line: int32(idx), indent: int16(ind)})
		}
		return rows
	}
	pos := from
	for pos < len(text) {
		first := pos == 0
		indent := int(l.indent)
		if !first {
			indent += int(l.cont)
			if l.word {
				for pos < len(text) && text[pos] == ' ' {
					pos++
				}
				if pos == len(text) {
					break
				}
			}
		}
		ind, avail := rowIndent(width, indent)
		var start, end int
		var subst bool
		if l.word {
			start, end, pos, subst = wordRow(text, pos, avail)
		} else {
			start, end, pos, subst = hardRow(text, pos, avail)
		}
		rows = append(rows, wrow{line: int32(idx), start: int32(start), end: int32(end), indent: int16(ind), subst: subst})
	}
	return rows
}

// hardRow fills one row of avail cells from pos, cluster by cluster.
func hardRow(text string, pos, avail int) (start, end, next int, subst bool) {
	start = pos
	w := 0
	for pos < len(text) {
		c, cw, _ := firstCluster(text[pos:])
		if w+cw > avail {
			if w == 0 { // wider than the whole row: a placeholder takes its place
				return start, pos + len(c), pos + len(c), true
			}
			break
		}
		w += cw
		pos += len(c)
	}
	return start, pos, pos, false
}

// wordRow fills one row of avail cells from pos with whole words: runs of characters
// between spaces, and each wide character on its own (CJK text breaks between ideographs).
// A word longer than a whole row is cut where the row ends. Spaces where the row breaks are
// not shown.
func wordRow(text string, pos, avail int) (start, end, next int, subst bool) {
	start, end = pos, pos
	w := 0
	words := false
	for pos < len(text) {
		if text[pos] == ' ' {
			n := pos
			for n < len(text) && text[n] == ' ' {
				n++
			}
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
		wend, ww := scanWord(text, pos)
		if w+ww <= avail {
			w += ww
			pos = wend
			end = pos
			words = true
			continue
		}
		if words {
			return start, end, pos, false
		}
		// Longer than what is left of a row without a word yet: cut it.
		for pos < len(text) {
			c, cw, _ := firstCluster(text[pos:])
			if w+cw > avail {
				if pos == start {
					return start, pos + len(c), pos + len(c), true
				}
				break
			}
			w += cw
			pos += len(c)
		}
		return start, pos, pos, false
	}
	return start, end, pos, false
}

// scanWord returns the end and the width of the word at pos: narrow clusters up to a space
// or a wide cluster, or one wide cluster.
func scanWord(text string, pos int) (end, width int) {
	for pos < len(text) && text[pos] != ' ' {
		c, cw, _ := firstCluster(text[pos:])
		if cw > 1 {
			if width == 0 {
				return pos + len(c), cw
			}
			break
		}
		width += cw
		pos += len(c)
	}
	return pos, width
}
