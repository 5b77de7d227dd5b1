package agents

import (
	"fmt"
	"os"
	"strings"

	"github.com/rivo/uniseg"

	"git.rickub.com/bots-garden/sidekicks/window"
)

// wrapText cuts s into rows of at most width cells, between words where it can, inside a
// word longer than a row otherwise. Widths are those the screen draws (window.TextWidth).
func wrapText(s string, width int) []string {
	width = max(width, 1)
	var rows []string
	for _, para := range strings.Split(s, "\n") {
		var row strings.Builder
		rowW := 0
		flush := func() {
			rows = append(rows, row.String())
			row.Reset()
			rowW = 0
		}
		for i, word := range strings.Split(para, " ") {
			ww := window.TextWidth(word)
			sep := 0
			if i > 0 && rowW > 0 {
				sep = 1
			}
			if rowW > 0 && rowW+sep+ww > width {
				flush()
				sep = 0
			}
			if sep == 1 {
				row.WriteByte(' ')
				rowW++
			}
			for ww > width-rowW && ww > 0 {
				// A word longer than what is left of an empty row: cut it by clusters.
				head, headW, rest := cutCells(word, width-rowW)
				if headW == 0 && rowW == 0 {
					head, headW, rest = cutCells(word, 2) // a wide cluster in a 1-cell row
				}
				row.WriteString(head)
				flush()
				word, ww = rest, window.TextWidth(rest)
			}
			row.WriteString(word)
			rowW += ww
		}
		flush()
	}
	return rows
}

// cutCells returns the longest start of s that fits in n cells, its width, and the rest.
func cutCells(s string, n int) (head string, width int, rest string) {
	i := 0
	for i < len(s) {
		c, _, _, _ := uniseg.FirstGraphemeClusterInString(s[i:], -1)
		cw := window.TextWidth(c)
		if width+cw > n {
			break
		}
		width += cw
		i += len(c)
	}
	return s[:i], width, s[i:]
}

// humanSize says a size the way a file manager does: 512 B, 12.3 KB, 4.0 MB.
func humanSize(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1f KB", float64(n)/1000)
	case n < 1000*1000*1000:
		return fmt.Sprintf("%.1f MB", float64(n)/1000/1000)
	}
	return fmt.Sprintf("%.1f GB", float64(n)/1000/1000/1000)
}

// marks are the small signs the tree and the panel draw; asciiMarks replaces them on a
// terminal whose locale is not UTF-8.
type marks struct {
	protected, open, closed, modified string
}

var (
	unicodeMarks = marks{protected: "🔒", open: "▾", closed: "▸", modified: "●"}
	asciiMarks   = marks{protected: "[p]", open: "v", closed: ">", modified: "*"}
)

// localeMarks picks the marks from the locale the way tcell picks its character set: the
// first of LC_ALL, LC_CTYPE and LANG that is set; C and POSIX are ASCII, a locale with no
// character set (en_US) or none at all is UTF-8.
func localeMarks() marks {
	if localeIsUTF8(os.Getenv("LC_ALL"), os.Getenv("LC_CTYPE"), os.Getenv("LANG")) {
		return unicodeMarks
	}
	return asciiMarks
}

func localeIsUTF8(lcAll, lcCtype, lang string) bool {
	locale := lcAll
	if locale == "" {
		locale = lcCtype
	}
	if locale == "" {
		locale = lang
	}
	if locale == "C" || locale == "POSIX" {
		return false
	}
	locale, _, _ = strings.Cut(locale, "@")
	_, charset, ok := strings.Cut(locale, ".")
	if !ok {
		return true
	}
	charset = strings.ToLower(charset)
	return charset == "utf-8" || charset == "utf8"
}
