package convo

import (
	"hash/fnv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// IconFor returns how an agent's icon is shown. An emoji (a first grapheme cluster that is
// not a letter or a digit and is drawn two cells wide, or asks for emoji presentation with
// U+FE0F) is shown as is. Otherwise the glyph is one letter — the icon's first, else the
// title's, else the name's, in upper case — drawn in a coloured round whose colour index
// (0 to IconColours-1) depends on name only, so an agent keeps its colour whatever its title.
func IconFor(icon, title, name string) (glyph string, colourIndex int, isEmoji bool) {
	icon = strings.TrimSpace(icon)
	if icon != "" {
		c, _, w, _ := uniseg.FirstGraphemeClusterInString(icon, -1)
		if isEmojiCluster(c, w) {
			return c, 0, true
		}
	}
	colourIndex = colourOf(name)
	for _, s := range []string{icon, title, name} {
		if g := firstLetter(s); g != "" {
			return g, colourIndex, false
		}
	}
	return "?", colourIndex, false
}

func isEmojiCluster(c string, width int) bool {
	r, _ := utf8.DecodeRuneInString(c)
	switch {
	case isControl(r) || unicode.IsLetter(r):
		return false
	case unicode.IsDigit(r) || r == '#' || r == '*':
		return strings.ContainsRune(c, '\u20E3') // a keycap: "1️⃣"
	}
	return width == 2 || strings.ContainsRune(c, '\uFE0F')
}

// firstLetter returns the first letter or digit of s, upper-cased, as one grapheme cluster
// one cell wide ("" when s has none). A wide letter (a CJK ideograph) is kept: it is a letter.
func firstLetter(s string) string {
	for s != "" {
		c, rest, w, _ := uniseg.FirstGraphemeClusterInString(s, -1)
		r, _ := utf8.DecodeRuneInString(c)
		if (unicode.IsLetter(r) || unicode.IsDigit(r)) && w > 0 {
			return strings.ToUpper(c)
		}
		s = rest
	}
	return ""
}

func colourOf(name string) int {
	h := fnv.New32a()
	h.Write([]byte(name))
	return int(h.Sum32() % IconColours)
}
