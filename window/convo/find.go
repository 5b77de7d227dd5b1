package convo

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Find in a conversation: the text searched is each line as it is copied (line.raw: the
// entry's source, a line at a time; a tool call's title and output as shown), the lines a
// fold hides included; the speakers' labels and blank lines are not searched. A match never
// spans two lines.

// Query is what Find looks for: the text, and whether case counts (it does when the text
// has a capital letter). Accents are ignored the same way, letter by letter: a letter
// typed without an accent finds it with any accent or none ("ete" finds "été", "Ete"
// finds "Été"), a letter typed with an accent finds only that accented letter ("été"
// does not find "ete"). An accent is a mark a letter decomposes into (Unicode NFD): "ø",
// "ł" or "ß" are letters of their own.
type Query struct {
	text  string
	lower bool
}

// NewQuery returns the query for text: case is ignored unless text has a capital.
func NewQuery(text string) Query {
	q := Query{text: text, lower: true}
	for _, r := range text {
		if unicode.IsUpper(r) {
			q.lower = false
			break
		}
	}
	if q.lower {
		q.text = strings.ToLower(text)
	}
	return q
}

// Empty reports a query that finds nothing.
func (q Query) Empty() bool { return q.text == "" }

// Index returns the byte offset of the first match in s at or after from, -1 when none.
func (q Query) Index(s string, from int) int {
	a, _ := q.Span(s, from)
	return a
}

// Span returns where the first match in s at or after from starts and ends (bytes of s;
// ignoring case or accents, a text's rune may be of another length than the query's),
// -1, -1 when there is none. It allocates nothing.
func (q Query) Span(s string, from int) (int, int) {
	if q.text == "" || from < 0 || from > len(s) {
		return -1, -1
	}
	// An ASCII first letter of the query: an ASCII byte of s that is not it (in either
	// case when case is ignored) starts no match, which skips most of s a byte at a time.
	b0 := q.text[0]
	ascii := b0 < utf8.RuneSelf
	for i := from; i < len(s); {
		c := s[i]
		if ascii && c < utf8.RuneSelf && c != b0 && !(q.lower && asciiLower(c) == b0) {
			i++
			continue
		}
		if e := q.matchAt(s, i); e >= 0 {
			return i, e
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return -1, -1
}

func asciiLower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// matchAt returns where the query matches s at i ends, -1 when it does not match there.
func (q Query) matchAt(s string, i int) int {
	t := q.text
	for t != "" {
		if i >= len(s) {
			return -1
		}
		a, na := utf8.DecodeRuneInString(s[i:])
		b, nb := utf8.DecodeRuneInString(t)
		if a != b {
			if q.lower {
				a = unicode.ToLower(a)
			}
			// b unaccented finds a with an accent; b accented only itself.
			if a != b && (foldRune(a) != b || foldRune(b) != b) {
				return -1
			}
		}
		i, t = i+na, t[nb:]
	}
	return i
}

// Hit is a match: the entry (by an id that survives entries loaded before the first or
// leaving from the front, like an Anchor's), the line in it and the byte offset in the
// line's source.
type Hit struct {
	ID   int
	Line int32
	Off  int32
}

// ID returns the id of entry i (see Hit).
func (v *View) ID(i int) int { return i - v.origin }

// Index returns the index of the entry with id, and whether the view holds it.
func (v *View) Index(id int) (int, bool) {
	i := id + v.origin
	return i, i >= 0 && i < len(v.ents)
}

// FindIn appends the matches of q in entry i to hits, and returns them with the number of
// bytes it looked at. A message or a thought is first looked at in the Source: it is laid
// out (when it is not) only when it holds a match; another entry is laid out to be searched.
func (v *View) FindIn(i int, q Query, hits []Hit) ([]Hit, int) {
	if i < 0 || i >= len(v.ents) || q.Empty() {
		return hits, 0
	}
	if e, ok := v.src.Entry(i); ok && isTextKind(e.Kind) && q.Index(e.Text, 0) < 0 {
		return hits, len(e.Text)
	}
	hits, n, _ := v.FindLines(i, q, 0, hits)
	return hits, n
}

// FindLines appends the matches of q in the lines of entry i from line from on to hits,
// and returns them with the number of bytes it looked at and the index of the entry's
// last line. An entry still arriving is searched so a frame at a time: its last line may
// not be complete yet, and is searched again, from there, once it has grown (its matches
// dropped from hits first).
func (v *View) FindLines(i int, q Query, from int, hits []Hit) ([]Hit, int, int) {
	if i < 0 || i >= len(v.ents) || q.Empty() {
		return hits, 0, from
	}
	ev := v.ensure(i)
	n := 0
	for li := max(from, 0); li < len(ev.lines); li++ {
		l := &ev.lines[li]
		if l.kind == RowBlank || l.kind == RowLabel {
			continue
		}
		n += len(l.raw())
		for a, b := q.Span(l.raw(), 0); a >= 0; a, b = q.Span(l.raw(), b) {
			hits = append(hits, Hit{ID: i - v.origin, Line: int32(li), Off: int32(a)})
		}
	}
	return hits, n, max(len(ev.lines)-1, 0)
}

// RowOfHit returns the row that shows a match, unfolding the entry when the fold hides it.
// It reports false when the view no longer holds the entry.
func (v *View) RowOfHit(h Hit) (int, bool) {
	i, ok := v.Index(h.ID)
	if !ok {
		return 0, false
	}
	// The entries above it that are counted at an estimate (never read, or parked at
	// another width) are laid out, a few screens of them, as ScrollBy does: an entry
	// counted at thousands of rows it does not have would put the viewport far from the
	// match (a conversation read back from the history after a restart).
	for j, need := i-1, 2*max(v.height, 1); j >= 0 && need > 0; j-- {
		need -= len(v.ensure(j).rows)
	}
	ev := v.ensure(i)
	if int(h.Line) >= len(ev.lines) {
		return 0, false
	}
	if ev.foldTo > 0 && v.Folded(i) {
		hf, ht, _ := ev.foldable()
		if int(h.Line) >= hf && int(h.Line) < ht {
			v.Unfold(i)
			ev = v.ents[i]
		}
	}
	l := &ev.lines[h.Line]
	off := int32(0)
	if len(l.raw()) == len(l.text) { // shown as copied: the offset is the shown one
		off = h.Off
	}
	r := 0
	for k, w := range ev.rows {
		if w.line == h.Line && !w.fold && w.start <= off {
			r = k
		}
		if w.line > h.Line {
			break
		}
	}
	return v.fw.prefix(i) + r, true
}
