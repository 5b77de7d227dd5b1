package markdown

import (
	"reflect"
	"testing"

	"github.com/rivo/uniseg"
)

// wrapSpansRef is wrapSpans as it was before it kept slices: it cuts spans into rows of at most w cells (w ≥ 2): at spaces, and a word longer
// than a row where the row ends, between grapheme clusters. A word is measured only as far
// as a row has room for it, so wrapping is linear in the text.
func wrapSpansRef(spans []Span, w int) [][]Span {
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

// FuzzWrapSpans: wrapSpans cuts any spans into the rows it cut them into when it copied
// every piece (wrapSpansRef), its fast path for a row that fits included.
func FuzzWrapSpans(f *testing.F) {
	f.Add("a list item with bold words", "0012", 10)
	f.Add(" lead  and  spaces  ", "01", 7)
	f.Add("中文 and ́accents e\u0301 ok", "010", 5)
	f.Add("fits", "0", 80)
	f.Add("", "", 3)
	f.Fuzz(func(t *testing.T, text, classes string, w int) {
		w = 2 + abs(w)%100
		var spans []Span
		names := []string{ClassText, ClassStrong, ClassCode}
		for i := 0; i < len(classes) && len(text) > 0; i++ {
			n := min(len(text), 1+int(classes[i])%7)
			spans = append(spans, Span{Text: text[:n], Class: names[int(classes[i])%3]})
			text = text[n:]
		}
		if text != "" {
			spans = append(spans, Span{Text: text, Class: ClassText})
		}
		if got, want := wrapSpans(spans, w), wrapSpansRef(spans, w); !reflect.DeepEqual(norm(got), norm(want)) {
			t.Fatalf("%q at %d:\n%q\nwant\n%q", spans, w, got, want)
		}
	})
}

// norm makes empty rows nil, for comparing.
func norm(rows [][]Span) [][]Span {
	for i := range rows {
		if len(rows[i]) == 0 {
			rows[i] = nil
		}
	}
	return rows
}
