package config

import (
	"strings"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// The configuration's messages exist in English and French, in the catalogue
// (catalogue.go), built with the values they name:
//
//	text := catalogue.Text(lang, mUnknownKey, q(lang, k))
//
// and newDiagnostic puts the line and the key in front of it the way the specification
// shows ("line 12 — agents[0].name: …", "ligne 12 — agents[0].name : …").

// q quotes a value or a key for a message: "x" in English, « x » in French. The text is
// made safe to print first (see printable).
func q(lang i18n.Lang, s string) string {
	return catalogue.Text(lang, mQuoted, printable(s))
}

// list joins words the way a sentence does: "a, b or c", « a, b ou c ».
func list(lang i18n.Lang, words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return catalogue.Text(lang, mOr, strings.Join(words[:len(words)-1], ", "), words[len(words)-1])
}

// maxShown is how many characters of a value a message quotes.
const maxShown = 60

// printable makes text from a configuration file safe to show: dangerous characters
// become visible escapes (\n, \x1b; see safetext.Escaped), and a text of more than
// maxShown characters is cut with "…".
func printable(s string) string {
	n := 0
	for i := range s {
		if n == maxShown {
			return safetext.Escaped(s[:i]) + "…"
		}
		n++
	}
	return safetext.Escaped(s)
}

// newDiagnostic builds a Diagnostic whose Message carries the line and the key as the
// specification formats them. A line of 0 (unknown) is left out; an empty key too.
func newDiagnostic(file string, lang i18n.Lang, line, column int, key, text string, warning bool) Diagnostic {
	return Diagnostic{
		File:    file,
		Line:    line,
		Column:  column,
		Key:     key,
		Message: formatMessage(lang, line, key, text),
		Warning: warning,
		text:    text,
	}
}

// formatMessage writes "line 12 — agents[0].name: text" or "ligne 12 — agents[0].name : text".
func formatMessage(lang i18n.Lang, line int, key, text string) string {
	var b strings.Builder
	if line > 0 {
		b.WriteString(catalogue.Text(lang, mLine, line))
	}
	if key != "" {
		b.WriteString(catalogue.Text(lang, mKey, key))
	}
	b.WriteString(text)
	return b.String()
}

// WarningMark is what `sidekicks check` and the application put before a warning's
// message: "warning: " or "avertissement : ".
func WarningMark(lang i18n.Lang) string {
	return catalogue.Text(lang, mWarning)
}

// Summary is the line that ends a list of diagnostics: "2 errors, 1 warning", or
// "configuration OK" (with its warnings, if any) when there is no error.
func Summary(lang i18n.Lang, d Diagnostics) string {
	errs, warns := 0, 0
	for _, x := range d {
		if x.Warning {
			warns++
		} else {
			errs++
		}
	}
	warnings := WarningsText(lang, warns)
	if errs == 0 {
		ok := catalogue.Text(lang, mConfigOK)
		if warns == 0 {
			return ok
		}
		return ok + " (" + warnings + ")"
	}
	s := plural(lang, errs, mOneError, mErrors)
	if warns > 0 {
		s += ", " + warnings
	}
	return s
}

// WarningsText counts n warnings: "1 warning", "2 warnings" ("1 avertissement"…).
func WarningsText(lang i18n.Lang, n int) string {
	return plural(lang, n, mOneWarning, mWarnings)
}

// plural counts n things with the message for one of them, or the one for n of them.
func plural(lang i18n.Lang, n int, one, many message) string {
	if n == 1 {
		return catalogue.Text(lang, one)
	}
	return catalogue.Text(lang, many, n)
}
