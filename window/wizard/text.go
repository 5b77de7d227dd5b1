package wizard

import (
	"strings"

	"git.rickub.com/bots-garden/sidekicks/window"
	"github.com/rivo/uniseg"
)

// fit cuts s to at most width cells, ending with "…" when something was cut.
func fit(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if window.TextWidth(s) <= width {
		return s
	}
	var b strings.Builder
	used := 0
	g := uniseg.NewGraphemes(s)
	for g.Next() {
		w := window.TextWidth(g.Str())
		if used+w > width-1 {
			break
		}
		b.WriteString(g.Str())
		used += w
	}
	return b.String() + "…"
}

// wrapText breaks s into rows of at most width cells, after a space where it can, in the
// middle of a word that is longer than a row; it never splits a grapheme cluster.
func wrapText(s string, width int) []string {
	if width <= 0 {
		return nil
	}
	var rows []string
	var row strings.Builder
	rowW := 0
	for _, word := range strings.Split(s, " ") {
		ww := window.TextWidth(word)
		switch {
		case rowW == 0:
		case rowW+1+ww <= width:
			row.WriteByte(' ')
			rowW++
		default:
			rows = append(rows, row.String())
			row.Reset()
			rowW = 0
		}
		if ww <= width-rowW {
			row.WriteString(word)
			rowW += ww
			continue
		}
		// A word longer than the row: cut it where the row ends.
		g := uniseg.NewGraphemes(word)
		for g.Next() {
			cw := window.TextWidth(g.Str())
			if rowW+cw > width && rowW > 0 {
				rows = append(rows, row.String())
				row.Reset()
				rowW = 0
			}
			row.WriteString(g.Str())
			rowW += cw
		}
	}
	return append(rows, row.String())
}

// pad fills s with spaces up to width cells.
func pad(s string, width int) string {
	if n := width - window.TextWidth(s); n > 0 {
		return s + strings.Repeat(" ", n)
	}
	return s
}
