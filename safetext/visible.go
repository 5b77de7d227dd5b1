package safetext

import (
	"fmt"
	"strings"
)

// Caret returns s made safe to show and to store as a log line, with every dangerous
// character left visible, since a log is diagnostic: a C0 control other than tab becomes
// caret notation (ESC is "^[", a newline "^J"), DEL becomes "^?", and a C1 control, a
// bidirectional control or a byte of invalid UTF-8 becomes U+FFFD. Escape sequences are not
// removed: their ESC shows as "^[" and the rest as the text it is.
func Caret(s string) string {
	i := firstUnsafe(s, kindSet(printable, tab, separator))
	if i == len(s) {
		return s // the usual case
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		k, r, end := next(s, i, false)
		switch k {
		case printable, tab, separator:
			b.WriteString(s[i:end])
		case newline, carriageReturn, control:
			if r == 0x7f {
				b.WriteString("^?")
			} else {
				b.WriteByte('^')
				b.WriteByte(byte(r) + 64)
			}
		case c1, bidi, invalid:
			b.WriteString(replacement)
		}
		i = end
	}
	return b.String()
}

// Escaped returns s made safe to quote in a message about a configuration file, with every
// dangerous character shown as the Go escape that writes it: newline, tab and carriage
// return as `\n`, `\t` and `\r`, another C0 control, DEL or a C1 control as `\xhh` (ESC is
// `\x1b`), a bidirectional control or a line or paragraph separator as `\uhhhh`. A byte of
// invalid UTF-8 becomes U+FFFD.
func Escaped(s string) string {
	i := firstUnsafe(s, kindSet(printable))
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		k, r, end := next(s, i, false)
		switch k {
		case printable:
			b.WriteString(s[i:end])
		case newline:
			b.WriteString(`\n`)
		case tab:
			b.WriteString(`\t`)
		case carriageReturn:
			b.WriteString(`\r`)
		case control, c1:
			fmt.Fprintf(&b, `\x%02x`, r)
		case bidi, separator:
			fmt.Fprintf(&b, `\u%04x`, r)
		case invalid:
			b.WriteString(replacement)
		}
		i = end
	}
	return b.String()
}
