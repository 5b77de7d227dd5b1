package workbench

import (
	"strings"
	"unicode/utf8"

	"github.com/rivo/uniseg"

	"git.rickub.com/bots-garden/sidekicks/window"
)

// tabWidth is the distance between tab stops in the viewer and the editor, as in
// conversations.
const tabWidth = 4

// textBuffer is the built-in editor's text: its lines without their line ends, a cursor
// that always sits between two grapheme clusters (an accented letter or an emoji is one
// step), and a count of changes that tells whether it differs from what was last saved.
// It knows nothing of the screen but the width of what it holds.
type textBuffer struct {
	lines []string
	row   int
	col   int // a byte offset in lines[row], at a cluster boundary
	want  int // the display column up and down keep (-1: the cursor's own)
	crlf  bool
	gen   int // changes made
	saved int // gen when last saved (or read)
}

// newTextBuffer holds text. A text whose every line ends with CR LF is edited without
// the CRs and saved with them again; a lone CR stays a character.
func newTextBuffer(text string) *textBuffer {
	n := strings.Count(text, "\n")
	crlf := n > 0 && strings.Count(text, "\r\n") == n
	if crlf {
		text = strings.ReplaceAll(text, "\r\n", "\n")
	}
	return &textBuffer{lines: strings.Split(text, "\n"), crlf: crlf, want: -1}
}

// String returns the text with its line ends.
func (b *textBuffer) String() string {
	sep := "\n"
	if b.crlf {
		sep = "\r\n"
	}
	return strings.Join(b.lines, sep)
}

func (b *textBuffer) modified() bool { return b.gen != b.saved }

func (b *textBuffer) changed() {
	b.gen++
	b.want = -1
}

// insert types s at the cursor: newlines split the line, other control characters but
// tabs are dropped (a paste may carry anything).
func (b *textBuffer) insert(s string) {
	s = cleanInsert(s)
	if s == "" {
		return
	}
	line := b.lines[b.row]
	head, tail := line[:b.col], line[b.col:]
	parts := strings.Split(s, "\n")
	if len(parts) == 1 {
		b.lines[b.row] = head + s + tail
		b.col += len(s)
		b.changed()
		return
	}
	added := make([]string, len(parts))
	added[0] = head + parts[0]
	copy(added[1:], parts[1:])
	last := len(parts) - 1
	added[last] = parts[last] + tail
	b.lines = append(b.lines[:b.row], append(added, b.lines[b.row+1:]...)...)
	b.row += last
	b.col = len(parts[last])
	b.changed()
}

// newline splits the line at the cursor; the new line starts with the indentation of
// the one it came from.
func (b *textBuffer) newline() {
	line := b.lines[b.row]
	indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
	if len(indent) > b.col {
		indent = indent[:b.col]
	}
	b.insert("\n" + indent)
}

// cleanInsert turns CR LF and lone CRs into newlines and drops control characters other
// than newline and tab, and invalid UTF-8.
func cleanInsert(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return r
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == utf8.RuneError:
			return -1
		}
		return r
	}, s)
}

// backspace deletes the cluster before the cursor, or joins the line to the one above.
func (b *textBuffer) backspace() {
	if b.col == 0 {
		if b.row == 0 {
			return
		}
		prev := b.lines[b.row-1]
		b.lines[b.row-1] = prev + b.lines[b.row]
		b.lines = append(b.lines[:b.row], b.lines[b.row+1:]...)
		b.row--
		b.col = len(prev)
		b.changed()
		return
	}
	line := b.lines[b.row]
	start := prevBoundary(line, b.col)
	b.lines[b.row] = line[:start] + line[b.col:]
	b.col = start
	b.changed()
}

// del deletes the cluster under the cursor, or joins the next line to this one.
func (b *textBuffer) del() {
	line := b.lines[b.row]
	if b.col == len(line) {
		if b.row == len(b.lines)-1 {
			return
		}
		b.lines[b.row] = line + b.lines[b.row+1]
		b.lines = append(b.lines[:b.row+1], b.lines[b.row+2:]...)
		b.changed()
		return
	}
	end := nextBoundary(line, b.col)
	b.lines[b.row] = line[:b.col] + line[end:]
	b.changed()
}

func (b *textBuffer) left() {
	b.want = -1
	switch {
	case b.col > 0:
		b.col = prevBoundary(b.lines[b.row], b.col)
	case b.row > 0:
		b.row--
		b.col = len(b.lines[b.row])
	}
}

func (b *textBuffer) right() {
	b.want = -1
	switch {
	case b.col < len(b.lines[b.row]):
		b.col = nextBoundary(b.lines[b.row], b.col)
	case b.row < len(b.lines)-1:
		b.row++
		b.col = 0
	}
}

// vertical moves the cursor by n lines, keeping its display column.
func (b *textBuffer) vertical(n int) {
	if b.want < 0 {
		b.want = displayWidth(b.lines[b.row][:b.col])
	}
	b.row = max(min(b.row+n, len(b.lines)-1), 0)
	b.col = colAt(b.lines[b.row], b.want)
}

func (b *textBuffer) home() { b.col, b.want = 0, -1 }
func (b *textBuffer) end()  { b.col, b.want = len(b.lines[b.row]), -1 }

// moveTo puts the cursor on a line at a display column (a click).
func (b *textBuffer) moveTo(row, dcol int) {
	b.row = max(min(row, len(b.lines)-1), 0)
	b.col = colAt(b.lines[b.row], dcol)
	b.want = -1
}

// cursorColumn is the cursor's display column.
func (b *textBuffer) cursorColumn() int { return displayWidth(b.lines[b.row][:b.col]) }

// clusters calls f with each grapheme cluster of s, its byte offset and its display
// column; f returns false to stop.
func clusters(s string, f func(c string, at, col int) bool) {
	state, at, col := -1, 0, 0
	for s != "" {
		var c string
		c, s, _, state = uniseg.FirstGraphemeClusterInString(s, state)
		if !f(c, at, col) {
			return
		}
		at += len(c)
		col += clusterWidth(c, col)
	}
}

// clusterWidth is how many cells a cluster takes at a column: a tab reaches the next
// stop; anything else takes what the screen draws it in.
func clusterWidth(c string, col int) int {
	if c == "\t" {
		return tabWidth - col%tabWidth
	}
	return window.TextWidth(c)
}

// displayWidth is how many cells s takes from column 0.
func displayWidth(s string) int {
	w := 0
	clusters(s, func(c string, _, col int) bool {
		w = col + clusterWidth(c, col)
		return true
	})
	return w
}

// colAt returns the byte offset of the cluster boundary at or before display column dcol.
func colAt(s string, dcol int) int {
	out := len(s)
	clusters(s, func(c string, at, col int) bool {
		if col+clusterWidth(c, col) > dcol {
			out = at
			return false
		}
		return true
	})
	return out
}

func prevBoundary(s string, col int) int {
	prev := 0
	clusters(s[:col], func(_ string, at, _ int) bool {
		prev = at
		return true
	})
	return prev
}

func nextBoundary(s string, col int) int {
	c, _, _, _ := uniseg.FirstGraphemeClusterInString(s[col:], -1)
	return col + len(c)
}

// expandTabs returns s as drawn: each tab replaced by the spaces up to the next stop.
func expandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	clusters(s, func(c string, _, col int) bool {
		if c == "\t" {
			b.WriteString(strings.Repeat(" ", clusterWidth(c, col)))
		} else {
			b.WriteString(c)
		}
		return true
	})
	return b.String()
}
