package markdown

import (
	"slices"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// maxColumns is the widest table drawn as a table; a wider one is shown as its source.
const maxColumns = 64

// table draws a table with box characters, each column as wide as its widest cell or, when
// the width is too small for that, narrower with its cells wrapped. A table whose columns
// cannot get two cells each is shown as its source.
func (r *renderer) table(t *east.Table) {
	ncol := len(t.Alignments)
	rows := r.trows[:0]
	for rn := t.FirstChild(); rn != nil; rn = rn.NextSibling() {
		rw, from := tableRow{src: -1}, len(r.tcells)
		_, header := rn.(*east.TableHeader)
		for c := rn.FirstChild(); c != nil; c = c.NextSibling() {
			spans := r.cell(c, header)
			if rw.src < 0 {
				rw.src = r.lineSrc
			}
			r.tcells = append(r.tcells, spans)
		}
		rw.cells = r.tcells[from:len(r.tcells):len(r.tcells)]
		if rw.src < 0 {
			rw.src = r.lineOf(rn.Pos())
		}
		rows = append(rows, rw)
	}
	r.trows = rows
	pw := spansWidth(r.first)
	avail := r.width - pw - 3*ncol - 1
	if ncol == 0 || ncol > maxColumns || avail < 2*ncol || len(rows) == 0 {
		last := -1
		for _, rw := range rows {
			last = max(last, rw.src)
		}
		if first := rows[0].src; first >= r.mapped && last >= first {
			r.plain(first, last+1)
		}
		return
	}
	nat := make([]int, ncol)
	for _, rw := range rows {
		for c := 0; c < ncol && c < len(rw.cells); c++ {
			nat[c] = max(nat[c], min(spansWidth(rw.cells[c]), r.width))
		}
	}
	widths := fitWidths(nat, avail)
	r.sized = true
	border := func(l, m, rt string) string {
		n := len(l) + len(rt) + len(m)*(len(widths)-1)
		for _, w := range widths {
			n += len("─") * (w + 2)
		}
		var b strings.Builder
		b.Grow(n)
		b.WriteString(l)
		for c, w := range widths {
			if c > 0 {
				b.WriteString(m)
			}
			for range w + 2 {
				b.WriteString("─")
			}
		}
		b.WriteString(rt)
		return b.String()
	}
	emitBorder := func(b string, s int) {
		spans, _ := r.prefixed([]Span{{Text: b, Class: ClassMarker}})
		r.emit(Line{Spans: spans, Kind: KindTable, Sized: true}, s)
	}
	emitBorder(border("┌", "┬", "┐"), -1)
	mid := border("├", "┼", "┤")
	wrapped := slices.Grow(r.twrap[:0], ncol)[:ncol]
	one := slices.Grow(r.tone[:0], ncol)[:ncol]
	r.twrap, r.tone = wrapped, one
	line := r.tline[:0]
	for i, rw := range rows {
		if i == 1 {
			emitBorder(mid, rows[0].src+1)
		}
		height := 1
		for c := range ncol {
			var cell []Span
			if c < len(rw.cells) {
				cell = rw.cells[c]
			}
			if fitsRow(cell, widths[c]) {
				one[c] = cell
				wrapped[c] = one[c : c+1 : c+1]
			} else {
				wrapped[c] = wrapSpans(cell, widths[c])
			}
			height = max(height, len(wrapped[c]))
		}
		for k := range height {
			line = line[:0]
			for c := range ncol {
				sep := "│ "
				if c > 0 {
					sep = " │ "
				}
				line = append(line, Span{Text: sep, Class: ClassMarker})
				var cell []Span
				if k < len(wrapped[c]) {
					cell = wrapped[c][k]
				}
				pad := widths[c] - spansWidth(cell)
				left := 0
				switch t.Alignments[c] {
				case east.AlignRight:
					left = pad
				case east.AlignCenter:
					left = pad / 2
				}
				if left > 0 {
					line = append(line, Span{Text: blanks(left), Class: r.base})
				}
				line = append(line, cell...)
				if pad-left > 0 {
					line = append(line, Span{Text: blanks(pad - left), Class: r.base})
				}
			}
			line = append(line, Span{Text: " │", Class: ClassMarker})
			spans, _ := r.prefixed(line)
			s := rw.src
			if k > 0 {
				s = -1
			}
			r.emit(Line{Spans: spans, Kind: KindTable, Sized: true}, s)
		}
	}
	r.tline = line
	if len(rows) == 1 {
		emitBorder(mid, rows[0].src+1)
	}
	emitBorder(border("└", "┴", "┘"), -1)
}

// tableRow is a row of a table: its cells, and the source line it is on.
type tableRow struct {
	cells [][]Span
	src   int
}

// spaces holds the blanks that pad a cell, for blanks.
const spaces = "                                                                "

// blanks returns n spaces.
func blanks(n int) string {
	if n <= len(spaces) {
		return spaces[:n]
	}
	return strings.Repeat(" ", n)
}

// cell returns the spans of a table cell, on one line; the header's are strong. It leaves
// in r.lineSrc the source line the cell's text is on (-1 for an empty cell).
func (r *renderer) cell(c ast.Node, header bool) []Span {
	s := style{cls: r.base}
	if header {
		s.cls = ClassStrong
	}
	r.spans, r.lineSrc = r.spans[:0], -1
	for n := c.FirstChild(); n != nil; n = n.NextSibling() {
		r.inline(n, s, KindTable)
	}
	out := append(r.spanBuf(len(r.spans)), r.spans...)
	r.spans = r.spans[:0]
	return out
}

// fitWidths returns the widths of columns whose widest cells take nat, within avail cells
// (at least 2 a column): the widest are narrowed to a common width, the others keep theirs.
func fitWidths(nat []int, avail int) []int {
	out := make([]int, len(nat))
	sum, hi := 0, 2
	for i, w := range nat {
		out[i] = max(w, 1)
		sum += out[i]
		hi = max(hi, out[i])
	}
	if sum <= avail {
		return out
	}
	total := func(level int) int {
		t := 0
		for _, w := range out {
			t += min(w, level)
		}
		return t
	}
	lo := 2 // total(lo) <= avail, as avail >= 2 per column
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if total(mid) <= avail {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	left := avail - total(lo)
	for i, w := range out {
		out[i] = min(w, lo)
		if w > lo && left > 0 {
			out[i]++
			left--
		}
	}
	return out
}
