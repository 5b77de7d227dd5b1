package app

import "strings"

// containBody returns the text of a message or a reply ready to sit under its entry's
// heading in the export: a code fence it leaves open is closed at its end, so that it never
// swallows the entries after it, and its ATX headings ("# Title") go two levels down (at
// most to level six), under the entry's level-two heading. Fences are found as CommonMark
// finds them: a line of at least three backquotes or tildes, indented three spaces at most,
// closed by a line of the same character at least as long, with nothing after but spaces;
// what is inside a fence is left as it is.
func containBody(s string) string {
	lines := strings.Split(s, "\n")
	var open string // the fence open, "" outside one
	for i, l := range lines {
		if open != "" {
			if closesFence(l, open) {
				open = ""
			}
			continue
		}
		if f := fenceOpener(l); f != "" {
			open = f
			continue
		}
		lines[i] = shiftHeading(l)
	}
	out := strings.Join(lines, "\n")
	if open != "" {
		out = strings.TrimRight(out, "\n") + "\n" + open
	}
	return out
}

// unindent returns l without its leading spaces, when there are three at most.
func unindent(l string) (string, bool) {
	t := strings.TrimLeft(l, " ")
	return t, len(l)-len(t) <= 3
}

// fenceOpener returns the fence (its run of ``` or ~~~) that line l opens, or "".
func fenceOpener(l string) string {
	t, ok := unindent(l)
	if !ok || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return ""
	}
	n := longestPrefix(t, t[0])
	if n < 3 || (t[0] == '`' && strings.Contains(t[n:], "`")) {
		return "" // a backquote fence's info string holds no backquote
	}
	return t[:n]
}

// closesFence reports whether line l closes the fence open.
func closesFence(l, open string) bool {
	t, ok := unindent(strings.TrimRight(l, " \t\r"))
	if !ok || t == "" || t[0] != open[0] {
		return false
	}
	n := longestPrefix(t, t[0])
	return n == len(t) && n >= len(open)
}

// longestPrefix is how many times s starts with c.
func longestPrefix(s string, c byte) int {
	n := 0
	for n < len(s) && s[n] == c {
		n++
	}
	return n
}

// shiftHeading moves an ATX heading line two levels down, at most to level six.
func shiftHeading(l string) string {
	t, ok := unindent(l)
	n := longestPrefix(t, '#')
	if !ok || n == 0 || n > 6 || (n < len(t) && t[n] != ' ' && t[n] != '\t') {
		return l
	}
	return strings.Repeat("#", min(n+2, 6)) + t[n:]
}
