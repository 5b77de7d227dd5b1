// Package safetexttest owns the statement of what text made safe for the screen may hold,
// written independently of package safetext's code, so that the tests of safetext and of
// the packages that use it can check their output against it.
package safetexttest

import "unicode/utf8"

// Reason returns why s could not have come out of safetext.Text (or, with line, of
// safetext.Line), or "" when it could: invalid UTF-8, a control character (C0 but newline
// and tab, DEL, C1), a bidirectional control, or, with line, a newline or a tab.
func Reason(s string, line bool) string {
	if !utf8.ValidString(s) {
		return "invalid UTF-8"
	}
	for _, r := range s {
		switch {
		case r == '\n' || r == '\t':
			if line {
				return "newline or tab in a single-line field"
			}
		case r < 0x20 || r == 0x7f:
			return "control character"
		case r >= 0x80 && r <= 0x9f:
			return "C1 control"
		case r == 0x061c || r == 0x200e || r == 0x200f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069):
			return "bidirectional control"
		}
	}
	return ""
}
