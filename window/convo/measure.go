package convo

import (
	"strings"
	"unicode/utf8"

	"github.com/rivo/uniseg"

	"git.rickub.com/bots-garden/sidekicks/window/markdown"
)

// TabWidth is the distance between tab stops: a tab moves to the next multiple of 4 cells.
const TabWidth = 4

// placeholderGlyph stands for a cluster wider than the whole row (a wide character at width
// 1): a row never holds more cells than the width.
const placeholderGlyph = "…"

// replacementGlyph stands for a control character that reached the view (the chat model
// removes them; a Source in a test may not).
const replacementGlyph = "\ufffd"

// firstCluster returns the first grapheme cluster of s (not empty), its width in cells as
// uniseg measures it (tcell measures the same way), and the rest of s.
func firstCluster(s string) (cluster string, width int, rest string) {
	if c := s[0]; c >= 0x20 && c < 0x7f && (len(s) == 1 || s[1] < 0x80) {
		// Printable ASCII not followed by a combining mark: one cell, no segmentation.
		return s[:1], 1, s[1:]
	}
	cluster, rest, width, _ = uniseg.FirstGraphemeClusterInString(s, -1)
	return cluster, width, rest
}

// textWidth returns the cells s takes.
func textWidth(s string) int {
	w := 0
	for s != "" {
		var cw int
		_, cw, s = firstCluster(s)
		w += cw
	}
	return w
}

// isControl reports a rune the terminal would interpret: C0 (tab included), DEL, C1.
func isControl(r rune) bool { return markdown.IsControl(r) }

// needsDisplay reports whether s holds a tab or a control character, which displayText
// changes.
func needsDisplay(s string) bool { return markdown.NeedsDisplay(s) }

// displayText returns one line as it is shown: each tab expanded with spaces to the next
// multiple of TabWidth cells (counted from col, the cell where s starts), every other control
// character replaced by U+FFFD. It returns s itself when there is nothing to change.
func displayText(s string, col int) string {
	if !needsDisplay(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	expandInto(&b, s, col)
	return b.String()
}

// expandInto writes displayText(s, col) to b and returns the column after it.
func expandInto(b *strings.Builder, s string, col int) int {
	for s != "" {
		c := s[0]
		switch {
		case c == '\t':
			n := TabWidth - col%TabWidth
			b.WriteString("    "[:n])
			col += n
			s = s[1:]
		case c < 0x20 || c == 0x7f:
			b.WriteString(replacementGlyph)
			col++
			s = s[1:]
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			col++
			s = s[1:]
		default:
			r, size := utf8.DecodeRuneInString(s)
			if isControl(r) {
				b.WriteString(replacementGlyph)
				col++
				s = s[size:]
				continue
			}
			cluster, w, rest := firstCluster(s)
			if strings.ContainsFunc(cluster, isControl) {
				cluster = strings.Map(func(r rune) rune {
					if isControl(r) {
						return utf8.RuneError
					}
					return r
				}, cluster)
				w = textWidth(cluster)
			}
			b.WriteString(cluster)
			col += w
			s = rest
		}
	}
	return col
}
