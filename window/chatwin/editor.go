package chatwin

import (
	"sort"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/safetext"
	"git.rickub.com/bots-garden/sidekicks/window"
	"github.com/rivo/uniseg"
)

// tabWidth is the distance between tab stops in the input, as in the conversation.
const tabWidth = 4

// maxHistory is how many sent prompts Up can recall.
const maxHistory = 500

// editor is the text of the input area: several lines, a cursor between grapheme clusters
// (never inside one), and the prompts sent before. It knows nothing of the screen but the
// width it is laid out at.
type editor struct {
	text   string
	cursor int // byte offset in text, on a cluster boundary
	goal   int // the column Up and Down aim at; -1 when none
	rev    uint64

	history []string
	hist    int    // the prompt of history shown, -1 when none is
	draft   string // what the input held when Up started browsing

	cache struct {
		rev   uint64
		width int
		rows  []vrow // the rows laid out, from the first
		next  int    // where the row after them starts, unless done
		done  bool   // rows go to the end of the text
	}
	laid int // bytes of text laid out since the editor was made: the layout's work, for tests
	// grow holds the text while it is typed at its end, which then costs the characters
	// typed, not a copy of the whole text; inGrow says text is grow's.
	grow   strings.Builder
	inGrow bool
}

// vrow is one row of the input on screen: text[start:end], without its newline.
type vrow struct{ start, end int }

func newEditor() *editor { return &editor{goal: -1, hist: -1} }

// cluster returns the first grapheme cluster of s, its width in cells at column col (a tab
// reaches the next stop), and the rest.
func cluster(s string, col int) (string, int, string) {
	if s[0] == '\t' {
		return s[:1], tabWidth - col%tabWidth, s[1:]
	}
	if s[0] == '\n' {
		return s[:1], 0, s[1:]
	}
	c, rest, w, _ := uniseg.FirstGraphemeClusterInString(s, -1)
	return c, w, rest
}

// cleanInput makes typed or pasted text fit the input: CR LF and lone CRs become newlines,
// and escape sequences and control characters other than newline and tab go.
func cleanInput(s string) string {
	if strings.ContainsRune(s, '\r') {
		s = strings.ReplaceAll(s, "\r\n", "\n")
		s = strings.ReplaceAll(s, "\r", "\n")
	}
	return safetext.Text(s)
}

// set replaces the text and puts the cursor at its end.
func (e *editor) set(s string) {
	e.text, e.inGrow = s, false
	e.cursor = len(s)
	e.changed()
}

func (e *editor) changed() {
	e.rev++
	e.goal = -1
}

// edited is a change made by the user: it ends browsing the history.
func (e *editor) edited() {
	e.changed()
	e.hist = -1
}

// insert types s at the cursor.
func (e *editor) insert(s string) {
	s = cleanInput(s)
	if s == "" {
		return
	}
	at := e.cursor
	e.splice(at, at, s)
	e.cursor = at + len(s)
}

// replace puts s in place of text[from:to] and the cursor after it.
func (e *editor) replace(from, to int, s string) {
	e.splice(from, to, s)
	e.cursor = from + len(s)
}

// splice is the user's edit of text[from:to] into s. The rows laid out before the edit are
// kept, but for the two above it (a combining mark typed at a row's start joins the cluster
// before it, which may move where the rows above it break): the layout goes on from there
// when it is next asked for, as far as it is asked. A key typed into a 1 MB input lays out
// a few rows, not the megabyte.
func (e *editor) splice(from, to int, s string) {
	keep := e.cache.rows != nil && e.cache.rev == e.rev
	if from == len(e.text) {
		if !e.inGrow {
			e.grow = strings.Builder{} // strings handed out keep the old buffer
			e.grow.WriteString(e.text)
		}
		e.grow.WriteString(s)
		e.text, e.inGrow = e.grow.String(), true
	} else {
		e.text, e.inGrow = e.text[:from]+s+e.text[to:], false
	}
	e.edited()
	if !keep {
		return
	}
	c := &e.cache
	i := sort.Search(len(c.rows), func(k int) bool { return c.rows[k].start > from })
	if k := max(i-2, 0); k < len(c.rows) {
		c.next = c.rows[k].start
		c.rows = c.rows[:k]
	}
	c.done = false
	c.rev = e.rev
}

// lineStart and lineEnd are the ends of the line that holds the cursor.
func (e *editor) lineStart() int { return strings.LastIndexByte(e.text[:e.cursor], '\n') + 1 }

func (e *editor) lineEnd() int {
	if i := strings.IndexByte(e.text[e.cursor:], '\n'); i >= 0 {
		return e.cursor + i
	}
	return len(e.text)
}

// prevBoundary returns the start of the cluster before the cursor (the cursor when none).
func (e *editor) prevBoundary() int {
	if e.cursor == 0 {
		return 0
	}
	// From a boundary shortly before the cursor, not from the line's start: Backspace at the
	// end of a 1 MB line segmented the megabyte.
	return window.ClusterStart(e.text, e.cursor-1)
}

// nextBoundary returns the end of the cluster after the cursor.
func (e *editor) nextBoundary() int {
	if e.cursor >= len(e.text) {
		return len(e.text)
	}
	c, _, _ := cluster(e.text[e.cursor:], 0)
	return e.cursor + len(c)
}

func (e *editor) left()  { e.cursor, e.goal = e.prevBoundary(), -1 }
func (e *editor) right() { e.cursor, e.goal = e.nextBoundary(), -1 }
func (e *editor) home()  { e.cursor, e.goal = e.lineStart(), -1 }
func (e *editor) end()   { e.cursor, e.goal = e.lineEnd(), -1 }

// backspace deletes the cluster before the cursor; at the start of a line it joins the
// line to the one above.
func (e *editor) backspace() {
	if p := e.prevBoundary(); p < e.cursor {
		e.splice(p, e.cursor, "")
		e.cursor = p
	}
}

// del deletes the cluster under the cursor; at the end of a line it joins the next one.
func (e *editor) del() {
	if n := e.nextBoundary(); n > e.cursor {
		e.splice(e.cursor, n, "")
	}
}

// killStart and killEnd delete from the cursor to the start or the end of its line.
func (e *editor) killStart() {
	if s := e.lineStart(); s < e.cursor {
		e.replace(s, e.cursor, "")
	}
}

func (e *editor) killEnd() {
	if end := e.lineEnd(); end > e.cursor {
		e.splice(e.cursor, end, "")
	}
}

// layout returns the rows of the text wrapped at width cells (at least one row, and at
// least one cluster per row), from the first through the cursor's row and after rows more:
// the slice ends there when the text goes on. What it has laid out is kept until the
// width changes or the text does (splice keeps the rows above an edit).
func (e *editor) layout(width, after int) []vrow {
	width = max(width, 1)
	c := &e.cache
	if c.rows == nil || c.rev != e.rev || c.width != width {
		c.rows, c.next, c.done = c.rows[:0], 0, false
		c.rev, c.width = e.rev, width
	}
	if c.done || e.covered(after) {
		return c.rows
	}
	from := c.next
	var stopped int
	c.rows, stopped = wrapRows(e.text, c.rows, from, width, func(rows []vrow, at int) bool {
		if at <= e.cursor {
			return false
		}
		crow := sort.Search(len(rows), func(k int) bool { return rows[k].start > e.cursor }) - 1
		return len(rows)-1-crow >= after
	})
	if stopped < 0 {
		c.done = true
		e.laid += len(e.text) - from
	} else {
		c.next = stopped
		e.laid += stopped - from
	}
	return c.rows
}

// covered reports whether the rows laid out hold the cursor's row and after rows more.
func (e *editor) covered(after int) bool {
	rows := e.cache.rows
	if e.cache.next <= e.cursor || len(rows) == 0 {
		return false
	}
	crow := sort.Search(len(rows), func(k int) bool { return rows[k].start > e.cursor }) - 1
	return len(rows)-1-crow >= after
}

// wrapRows appends to rows the rows of text from start, the start of a row, on, wrapped
// at width. A row's layout depends only on the text from its start: when stop, asked at
// the start of each new row with the rows so far, says so, wrapRows stops there and returns
// where (-1 when it went to the end).
func wrapRows(text string, rows []vrow, start, width int, stop func(rows []vrow, at int) bool) ([]vrow, int) {
	col, at := 0, start
	for s := text[start:]; s != ""; {
		// A run of printable ASCII: each byte is a cluster one cell wide (but the last one
		// before a byte of a longer character, which may be a mark that joins it), so its
		// rows are counted a row at a time, not a cluster at a time: a megabyte pasted as
		// one word took 60 ms to lay out, for the first key after it.
		if n := printableASCII(s); n > 1 {
			for n > 0 {
				if col >= width && col > 0 {
					rows = append(rows, vrow{start, at})
					start, col = at, 0
					if stop(rows, start) {
						return rows, start
					}
				}
				k := min(n, max(width-col, 1))
				col, at, s, n = col+k, at+k, s[k:], n-k
			}
			continue
		}
		c, w, rest := cluster(s, col)
		switch {
		case c == "\n":
			rows = append(rows, vrow{start, at})
			start, col = at+1, 0
			if stop(rows, start) {
				return rows, start
			}
		case col > 0 && col+w > width:
			rows = append(rows, vrow{start, at})
			start = at
			if stop(rows, start) {
				return rows, start
			}
			_, col, _ = cluster(s, 0)
		default:
			col += w
		}
		at += len(c)
		s = rest
	}
	return append(rows, vrow{start, len(text)}), -1
}

// printableASCII returns how many bytes at the start of s are printable ASCII characters
// that are each a cluster of their own: all of the run but its last byte when a byte of a
// longer character follows it.
func printableASCII(s string) int {
	n := 0
	for n < len(s) && s[n] >= 0x20 && s[n] < 0x7f {
		n++
	}
	if n < len(s) && s[n] >= 0x80 {
		n--
	}
	return n
}

// position returns the row and the column of the cursor in rows. At a wrapping point the
// cursor is at the start of the next row.
func (e *editor) position(rows []vrow) (row, col int) {
	row = max(sort.Search(len(rows), func(i int) bool { return rows[i].start > e.cursor })-1, 0)
	return row, columnOf(e.text[rows[row].start:e.cursor])
}

// columnOf returns the width of s from column 0.
func columnOf(s string) int {
	col := 0
	for s != "" {
		_, w, rest := cluster(s, col)
		col += w
		s = rest
	}
	return col
}

// offsetAt returns the boundary of row r nearest to column col, not past it.
func (e *editor) offsetAt(r vrow, col int) int {
	at, c := r.start, 0
	for s := e.text[r.start:r.end]; s != ""; {
		cl, w, rest := cluster(s, c)
		if c+w > col {
			return at
		}
		c += w
		at += len(cl)
		s = rest
	}
	return r.end
}

// vertical moves the cursor by dy rows of the layout at width, keeping its column; it
// reports false when there is no row there.
func (e *editor) vertical(dy, width int) bool {
	rows := e.layout(width, 1)
	row, col := e.position(rows)
	target := row + dy
	if target < 0 || target >= len(rows) {
		return false
	}
	if e.goal < 0 {
		e.goal = col
	}
	goal := e.goal
	e.cursor = e.offsetAt(rows[target], goal)
	e.goal = goal
	return true
}

// remember adds a sent prompt to the history.
func (e *editor) remember(s string) {
	e.hist = -1
	if n := len(e.history); n > 0 && e.history[n-1] == s {
		return
	}
	e.history = append(e.history, s)
	if len(e.history) > maxHistory {
		e.history = append(e.history[:0], e.history[len(e.history)-maxHistory:]...)
	}
}

// older shows the prompt sent before the one shown (the last one, when none is): Up on an
// empty input, or on the first row while browsing. It reports false when there is none.
func (e *editor) older() bool {
	if e.hist == -1 {
		if len(e.history) == 0 {
			return false
		}
		e.draft = e.text
		e.hist = len(e.history)
	}
	if e.hist == 0 {
		return false
	}
	e.hist--
	e.set(e.history[e.hist])
	return true
}

// newer shows the prompt sent after the one shown, or what the input held before
// browsing; false when not browsing.
func (e *editor) newer() bool {
	if e.hist == -1 {
		return false
	}
	e.hist++
	if e.hist >= len(e.history) {
		e.hist = -1
		e.set(e.draft)
		return true
	}
	e.set(e.history[e.hist])
	return true
}
