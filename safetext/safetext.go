// Package safetext owns the making safe of untrusted text: whatever an agent, a process or
// a configuration file chose goes through it before it reaches a screen, a log or a message.
//
// It holds the one classification of the runes a terminal would act on (C0 controls and
// DEL, C1 controls, bidirectional controls, line and paragraph separators, invalid UTF-8)
// and the one scanner of escape sequences (CSI, OSC, DCS, SOS, PM, APC and two-byte
// sequences, in their 7-bit and 8-bit forms). Each function below is one way of treating
// what that core finds:
//
//   - for the screen, dangerous text is removed: Text (multi-line) and Line (one line)
//     remove escape sequences whole; Snippet, for a string quoted inside a one-line
//     message, drops each control character alone and bounds the length;
//   - for diagnostics, dangerous text is shown with visible placeholders: Caret (logs,
//     caret notation such as "^[") and Escaped (messages, Go escapes such as `\x1b`).
//
// Every function turns each byte of invalid UTF-8 into U+FFFD, and returns a string with
// nothing to change as it is, without allocating.
package safetext

import "strings"

// Text returns s made safe to show on screen as multi-line text: every string an agent
// chooses goes through it (or Line) before it is stored.
//
// What it removes (removed, not replaced by a placeholder: a coloured compiler log then reads
// as plain text instead of being littered with marks):
//   - C0 control characters and DEL, except newline and tab. A carriage return is removed
//     too, so CRLF becomes LF; a lone CR is dropped rather than turned into a newline, because
//     a CRLF split across two chunks would otherwise become two newlines.
//   - Escape sequences, whole: CSI (ESC [ parameters, intermediates, final), OSC, DCS, SOS,
//     PM and APC strings (up to BEL or ST, a CAN or SUB that aborts them, or — further than a
//     terminal goes — a newline, so that a missing terminator hides at most one line), and
//     two-byte sequences (ESC, intermediates, final). An ESC followed by anything else is
//     dropped alone.
//   - C1 controls U+0080–U+009F; those that introduce a sequence in 8-bit form (CSI, OSC,
//     DCS, SOS, PM, APC) take their sequence with them, like their 7-bit forms.
//   - Bidirectional controls: U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069.
//
// Each byte of invalid UTF-8 becomes U+FFFD, the one visible placeholder.
//
// A string with none of these is returned as is, without allocating. The result never holds
// an ESC byte, even for a string cut in the middle of a sequence: the rest of such a
// sequence, arriving in the next chunk, shows as printable text.
func Text(s string) string {
	return remove(s, 1<<newline|1<<tab)
}

// Line is Text for single-line fields (titles, names, descriptions, statuses): newlines
// and tabs become spaces too.
func Line(s string) string {
	return remove(s, 0)
}

// remove is Text and Line: keep holds the kinds of blank (newline, tab) that stay as they
// are; the others become a space. Carriage returns, other controls (with the sequence they
// start) and bidirectional controls are removed.
func remove(s string, keep kinds) string {
	return rewrite(s, keep|1<<printable|1<<separator, true, func(k kind, _ rune, piece string) string {
		switch k {
		case printable, separator:
			return piece
		case newline, tab:
			if keep.has(k) {
				return piece
			}
			return " "
		case invalid:
			return replacement
		}
		return ""
	})
}

// rewrite is the loop every function but Snippet shares: it returns s as is when the kind
// of each of its characters is in pass; otherwise a copy in which printable ASCII stays and
// each other piece that next finds (a character or, with sequences, a whole escape
// sequence) becomes what shown returns for it.
func rewrite(s string, pass kinds, sequences bool, shown func(k kind, r rune, piece string) string) string {
	i := firstUnsafe(s, pass)
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		if c := s[i]; c >= 0x20 && c < 0x7f {
			b.WriteByte(c) // printable ASCII, most of any text
			i++
			continue
		}
		k, r, end := next(s, i, sequences)
		b.WriteString(shown(k, r, s[i:end]))
		i = end
	}
	return b.String()
}

// Snippet returns s made safe to quote inside a one-line message (an error, a statistic):
// newline, tab and carriage return become spaces; every other C0 control, DEL, C1 control
// and bidirectional control is dropped alone — an escape sequence's printable rest stays,
// as a hint of what was sent —, invalid UTF-8 becomes U+FFFD, and the result is cut, with
// "…", once it holds max bytes, so that a hostile agent cannot make a message megabytes
// long.
func Snippet(s string, max int) string {
	if len(s) <= max && firstUnsafe(s, 1<<printable|1<<separator) == len(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if b.Len() >= max {
			b.WriteString("…")
			break
		}
		k, _, end := next(s, i, false)
		switch k {
		case printable, separator:
			b.WriteString(s[i:end])
		case newline, tab, carriageReturn:
			b.WriteByte(' ')
		case invalid:
			b.WriteString(replacement)
		}
		i = end
	}
	return b.String()
}
