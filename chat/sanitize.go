package chat

import (
	"strings"
	"unicode/utf8"

	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// clip returns the longest prefix of s (a valid UTF-8 string) that holds at most n bytes and
// does not cut a character.
func clip(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// MaxLineText is the most a single-line field (a title, a name, a description, a status)
// keeps; a longer one is cut and ends with "…".
const MaxLineText = 4096

// line sanitizes a single-line field and bounds its length.
func line(s string) string {
	return cutLine(s, MaxLineText)
}

// cutLine sanitizes s as one line and cuts it at n bytes, ending it with "…" when it was cut.
func cutLine(s string, n int) string {
	s = safetext.Line(s)
	if len(s) <= n {
		return s
	}
	return strings.Clone(clip(s, n-len("…"))) + "…"
}
