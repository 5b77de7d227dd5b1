package markdown

import "github.com/rivo/uniseg"

// wrapSpans cuts spans into rows of at most w cells (w ≥ 2): at spaces, and a word longer
// than a row where the row ends, between grapheme clusters. A word is measured only as far
// as a row has room for it, so wrapping is linear in the text.
func wrapSpans(spans []Span, w int) [][]Span {
	var rows [][]Span
	var row []Span
	rw := 0
	add := func(sp Span, t string, cw int) {
		if n := len(row); n > 0 && row[n-1].Class == sp.Class && row[n-1].URL == sp.URL {
			row[n-1].Text += t
		} else {
			row = append(row, Span{Text: t, Class: sp.Class, URL: sp.URL})
		}
		rw += cw
	}
	newRow := func() {
		rows = append(rows, row)
		row, rw = nil, 0
	}
	for _, sp := range spans {
		s := sp.Text
		for s != "" {
			if s[0] == ' ' {
				n := 1
				for n < len(s) && s[n] == ' ' {
					n++
				}
				if rw > 0 {
					if rw+n < w {
						add(sp, s[:n], n)
					} else {
						newRow()
					}
				}
				s = s[n:]
				continue
			}
			end := 1
			for end < len(s) && s[end] != ' ' {
				end++
			}
			word := s[:end]
			for word != "" {
				cut, cw := fit(word, w-rw)
				if cut == len(word) {
					add(sp, word, cw)
					break
				}
				if rw > 0 {
					newRow()
					continue
				}
				if cut == 0 { // wider than a row (not with w ≥ 2): on a row of its own
					c, _, _, _ := uniseg.FirstGraphemeClusterInString(word, -1)
					cut, cw = len(c), w
				}
				add(sp, word[:cut], cw)
				word = word[cut:]
				newRow()
			}
			s = s[end:]
		}
	}
	if len(row) > 0 || len(rows) == 0 {
		rows = append(rows, row)
	}
	return rows
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
