package safetext

import "fmt"

// Caret returns s made safe to show and to store as a log line, with every dangerous
// character left visible, since a log is diagnostic: a C0 control other than tab becomes
// caret notation (ESC is "^[", a newline "^J"), DEL becomes "^?", and a C1 control, a
// bidirectional control or a byte of invalid UTF-8 becomes U+FFFD. Escape sequences are not
// removed: their ESC shows as "^[" and the rest as the text it is.
func Caret(s string) string {
	return rewrite(s, 1<<printable|1<<tab|1<<separator, false, func(k kind, r rune, piece string) string {
		switch k {
		case newline, carriageReturn, control:
			if r == 0x7f {
				return "^?"
			}
			return carets[2*r : 2*r+2]
		case c1, bidi, invalid:
			return replacement
		}
		return piece // printable, tab, separator
	})
}

// carets holds the caret notation of the C0 controls, two bytes each.
const carets = "^@^A^B^C^D^E^F^G^H^I^J^K^L^M^N^O^P^Q^R^S^T^U^V^W^X^Y^Z^[^\\^]^^^_"

// Escaped returns s made safe to quote in a message about a configuration file, with every
// dangerous character shown as the Go escape that writes it: newline, tab and carriage
// return as `\n`, `\t` and `\r`, another C0 control, DEL or a C1 control as `\xhh` (ESC is
// `\x1b`), a bidirectional control or a line or paragraph separator as `\uhhhh`. A byte of
// invalid UTF-8 becomes U+FFFD.
func Escaped(s string) string {
	return rewrite(s, 1<<printable, false, func(k kind, r rune, piece string) string {
		switch k {
		case newline:
			return `\n`
		case tab:
			return `\t`
		case carriageReturn:
			return `\r`
		case control, c1:
			return fmt.Sprintf(`\x%02x`, r)
		case bidi, separator:
			return fmt.Sprintf(`\u%04x`, r)
		case invalid:
			return replacement
		}
		return piece // printable
	})
}
