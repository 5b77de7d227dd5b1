package window

import (
	"strings"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// Text on screen is a sequence of grapheme clusters, each one or two cells wide, as
// uniseg measures them (tcell measures with the same library, so the two agree). Nothing
// drawn reaches the terminal raw: a control character becomes a visible placeholder and a
// cluster of width zero (a lone joiner, a direction override) is dropped.

// nextCluster returns the first grapheme cluster of s, ready to draw, its width in cells
// and the rest of s. A cluster that holds a control character is replaced by a
// placeholder; a cluster of width zero comes back with width 0 and must be skipped.
func nextCluster(s string) (cluster string, width int, rest string) {
	c := s[0]
	if c >= 0x20 && c < 0x7f && (len(s) == 1 || s[1] < 0x80) {
		// Printable ASCII not followed by a combining mark: one cell, no segmentation.
		return s[:1], 1, s[1:]
	}
	cluster, rest, width, _ = uniseg.FirstGraphemeClusterInString(s, -1)
	if r, ok := controlIn(cluster); ok {
		return placeholder(r), 1, rest
	}
	return cluster, width, rest
}

// controlIn reports the first C0, DEL or C1 control character of a cluster.
func controlIn(cluster string) (rune, bool) {
	for i := 0; i < len(cluster); i++ {
		b := cluster[i]
		if b < 0x20 || b == 0x7f {
			return rune(b), true
		}
		if b == 0xc2 && i+1 < len(cluster) && cluster[i+1] >= 0x80 && cluster[i+1] <= 0x9f {
			return rune(cluster[i+1]), true
		}
	}
	if cluster == string(utf8.RuneError) {
		return utf8.RuneError, false
	}
	return 0, false
}

// placeholder is the visible stand-in of a control character: the Unicode control picture
// for C0 and DEL, a space for a tab, the replacement character for C1.
func placeholder(r rune) string {
	switch {
	case r == '\t':
		return " "
	case r < 0x20:
		return string(rune(0x2400 + r))
	case r == 0x7f:
		return "\u2421"
	default:
		return "\ufffd"
	}
}

// TextWidth returns how many cells s takes on screen, as drawn.
func TextWidth(s string) int {
	w := 0
	for s != "" {
		var cw int
		_, cw, s = nextCluster(s)
		w += cw
	}
	return w
}

// truncate is Truncate, for the toolkit's own callers.
func truncate(s string, width int) string { return Truncate(s, width) }

// Truncate cuts s to at most width cells, ending with "…" when something was cut; it
// never splits a grapheme cluster.
func Truncate(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if TextWidth(s) <= width {
		return s
	}
	var b strings.Builder
	used := 0
	for s != "" {
		g, w, rest := nextCluster(s)
		if used+w > width-1 {
			break
		}
		b.WriteString(g)
		used += w
		s = rest
	}
	b.WriteString("…")
	return b.String()
}

// cluster is one grapheme of an edited text: its bytes and width.
type cluster struct {
	text  string
	width int
}

// clusters splits s into its drawable grapheme clusters (width-zero ones dropped).
func clusters(s string) []cluster {
	var out []cluster
	for s != "" {
		g, w, rest := nextCluster(s)
		if w > 0 {
			out = append(out, cluster{g, w})
		}
		s = rest
	}
	return out
}

// wrap is Wrap, for the toolkit's own callers.
func wrap(s string, width int) []string { return Wrap(s, width) }

// Wrap breaks s into rows of at most width cells, preferring to break after a space, and
// at each newline. A row never splits a grapheme cluster; a cluster wider than the row
// has a row of its own. Tabs are expanded to the next multiple of 4. Every widget that
// wraps plain text uses it.
func Wrap(s string, width int) []string {
	if width <= 0 {
		return nil
	}
	if strings.Contains(s, "\n") {
		var rows []string
		for _, para := range strings.Split(s, "\n") {
			rows = append(rows, wrapLine(para, width)...)
		}
		return rows
	}
	return wrapLine(s, width)
}

// wrapLine is Wrap for a line without newlines.
func wrapLine(s string, width int) []string {
	s = expandTabs(s)
	if s == "" {
		return []string{""}
	}
	var rows []string
	var row strings.Builder
	rowWidth := 0
	lastSpace := -1 // byte offset in row just after the last space
	lastSpaceWidth := 0
	for s != "" {
		g, w, rest := nextCluster(s)
		s = rest
		if w == 0 {
			continue
		}
		if rowWidth+w > width && rowWidth > 0 {
			text := row.String()
			if lastSpace > 0 && g != " " {
				rows = append(rows, text[:lastSpace])
				carry := text[lastSpace:]
				row.Reset()
				row.WriteString(carry)
				rowWidth -= lastSpaceWidth
			} else {
				rows = append(rows, text)
				row.Reset()
				rowWidth = 0
			}
			lastSpace = -1
			if rowWidth > 0 && rowWidth+w > width {
				// What followed the last space and this wide cluster do not fit together.
				rows = append(rows, row.String())
				row.Reset()
				rowWidth = 0
			}
			if g == " " && rowWidth == 0 {
				continue // a space that ends a row does not start the next one
			}
		}
		row.WriteString(g)
		rowWidth += w
		if g == " " {
			lastSpace = row.Len()
			lastSpaceWidth = rowWidth
		}
	}
	rows = append(rows, row.String())
	return rows
}

// expandTabs replaces each tab with spaces up to the next multiple of 4 columns.
func expandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for s != "" {
		if s[0] == '\t' {
			n := 4 - col%4
			b.WriteString(strings.Repeat(" ", n))
			col += n
			s = s[1:]
			continue
		}
		_, w, rest := nextCluster(s)
		b.WriteString(s[:len(s)-len(rest)])
		col += w
		s = rest
	}
	return b.String()
}

// splitMnemonic reads a label whose mnemonic letter is marked "~X~" and returns the text
// without the marks, the byte offset of the marked letter (-1 without one) and the letter.
func splitMnemonic(label string) (text string, at int, letter rune) {
	i := strings.IndexByte(label, '~')
	if i < 0 {
		return label, -1, 0
	}
	j := strings.IndexByte(label[i+1:], '~')
	if j <= 0 {
		return strings.ReplaceAll(label, "~", ""), -1, 0
	}
	marked := label[i+1 : i+1+j]
	r, _ := utf8.DecodeRuneInString(marked)
	return label[:i] + marked + label[i+1+j+1:], i, r
}

// SplitMnemonic returns a text whose mnemonic letter is marked with tildes ("~P~review")
// without its marks, and that letter (0 when it has none): a widget built outside this
// package draws and presses its own buttons with it.
func SplitMnemonic(marked string) (text string, letter rune) {
	text, _, letter = splitMnemonic(marked)
	return text, letter
}
