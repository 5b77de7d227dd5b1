package markdown

import "github.com/rivo/uniseg"

// wrapSpans cuts spans into rows of at most w cells (w ≥ 2): at spaces, and a word longer
// than a row where the row ends, between grapheme clusters. A word is measured only as far
// as a row has room for it, so wrapping is linear in the text. The pieces of a span that
// follow each other on a row stay one slice of its text.
func wrapSpans(spans []Span, w int) [][]Span {
	if fitsRow(spans, w) {
		return [][]Span{spans}
	}
	var rows [][]Span
	var row []Span
	rw := 0
	// The last span of row is spans[from].Text[lo:hi] when it is a slice of one span's
	// text (from -1 otherwise).
	from, lo, hi := -1, 0, 0
	add := func(i, a, b, cw int) {
		sp := spans[i]
		if n := len(row); n > 0 && row[n-1].Class == sp.Class && row[n-1].URL == sp.URL {
			if from == i && hi == a {
				hi = b
				row[n-1].Text = sp.Text[lo:hi]
			} else {
				row[n-1].Text += sp.Text[a:b]
				from = -1
			}
		} else {
			row = append(row, Span{Text: sp.Text[a:b], Class: sp.Class, URL: sp.URL})
			from, lo, hi = i, a, b
		}
		rw += cw
	}
	newRow := func() {
		rows = append(rows, row)
		row, rw, from = nil, 0, -1
	}
	for i, sp := range spans {
		s := sp.Text
		pos := 0
		for pos < len(s) {
			if s[pos] == ' ' {
				n := 1
				for pos+n < len(s) && s[pos+n] == ' ' {
					n++
				}
				if rw > 0 {
					if rw+n < w {
						add(i, pos, pos+n, n)
					} else {
						newRow()
					}
				}
				pos += n
				continue
			}
			end := pos + 1
			for end < len(s) && s[end] != ' ' {
				end++
			}
			for pos < end {
				cut, cw := fit(s[pos:end], w-rw)
				if pos+cut == end {
					add(i, pos, end, cw)
					pos = end
					break
				}
				if rw > 0 {
					newRow()
					continue
				}
				if cut == 0 { // wider than a row (not with w ≥ 2): on a row of its own
					c, _, _, _ := uniseg.FirstGraphemeClusterInString(s[pos:end], -1)
					cut, cw = len(c), w
				}
				add(i, pos, pos+cut, cw)
				pos += cut
				newRow()
			}
		}
	}
	if len(row) > 0 || len(rows) == 0 {
		rows = append(rows, row)
	}
	return rows
}

// fitsRow reports spans that wrapSpans would leave as they are, on one row: printable ASCII
// narrower than w, not starting with a space, no span empty, no two spans in a row of the
// same style.
func fitsRow(spans []Span, w int) bool {
	cells := 0
	for i, sp := range spans {
		if sp.Text == "" || i == 0 && sp.Text[0] == ' ' ||
			i > 0 && spans[i-1].Class == sp.Class && spans[i-1].URL == sp.URL {
			return false
		}
		for k := 0; k < len(sp.Text); k++ {
			if c := sp.Text[k]; c < 0x20 || c >= 0x7f {
				return false
			}
		}
		if cells += len(sp.Text); cells >= w {
			return false
		}
	}
	return true
}

// fit returns how many bytes of s, and how many cells, the clusters that fit in room cells
// take; it looks at one cluster past them, no more.
func fit(s string, room int) (int, int) {
	pos, w := 0, 0
	for pos < len(s) {
		var cw, n int
		if c := s[pos]; c >= 0x20 && c < 0x7f && (pos+1 == len(s) || s[pos+1] < 0x80) {
			n, cw = 1, 1
		} else {
			c, _, cwidth, _ := uniseg.FirstGraphemeClusterInString(s[pos:], -1)
			n, cw = len(c), cwidth
		}
		if w+cw > room {
			break
		}
		w += cw
		pos += n
	}
	return pos, w
}
