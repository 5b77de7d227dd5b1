package config

import (
	"fmt"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// The configuration's messages exist in English and French. Each message is written in
// both languages where it is built, with msg choosing one:
//
//	text := msg(lang, fmt.Sprintf("unknown key %s", q(lang, k)),
//		fmt.Sprintf("clé inconnue %s", q(lang, k)))
//
// and newDiagnostic puts the line and the key in front of it the way the specification
// shows ("line 12 — agents[0].name: …", "ligne 12 — agents[0].name : …").

// Languages of the interface and of the configuration's messages.
const (
	English = "en"
	French  = "fr"
)

// msg returns the French text when lang is French, the English text otherwise.
func msg(lang, en, fr string) string {
	if lang == French {
		return fr
	}
	return en
}

// q quotes a value or a key for a message: "x" in English, « x » in French. The text is
// made safe to print first (see printable).
func q(lang, s string) string {
	return msg(lang, `"`+printable(s)+`"`, "« "+printable(s)+" »")
}

// list joins words the way a sentence does: "a, b or c", « a, b ou c ».
func list(lang string, words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + msg(lang, " or ", " ou ") + words[len(words)-1]
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
func newDiagnostic(file, lang string, line, column int, key, text string, warning bool) Diagnostic {
	return Diagnostic{
		File:    file,
		Line:    line,
		Column:  column,
		Key:     key,
		Message: formatMessage(lang, line, key, text),
		Warning: warning,
	}
}

// formatMessage writes "line 12 — agents[0].name: text" or "ligne 12 — agents[0].name : text".
func formatMessage(lang string, line int, key, text string) string {
	var b strings.Builder
	if line > 0 {
		b.WriteString(msg(lang, "line ", "ligne "))
		fmt.Fprint(&b, line)
		b.WriteString(" — ")
	}
	if key != "" {
		b.WriteString(key)
		b.WriteString(msg(lang, ": ", " : "))
	}
	b.WriteString(text)
	return b.String()
}

// WarningMark is what `sidekicks check` and the application put before a warning's
// message: "warning: " or "avertissement : ".
func WarningMark(lang string) string {
	return msg(lang, "warning: ", "avertissement : ")
}

// Summary is the line that ends a list of diagnostics: "2 errors, 1 warning", or
// "configuration OK" (with its warnings, if any) when there is no error.
func Summary(lang string, d Diagnostics) string {
	errs, warns := 0, 0
	for _, x := range d {
		if x.Warning {
			warns++
		} else {
			errs++
		}
	}
	warnings := plural(warns, msg(lang, "warning", "avertissement"), msg(lang, "warnings", "avertissements"))
	if errs == 0 {
		ok := msg(lang, "configuration OK", "configuration valide")
		if warns == 0 {
			return ok
		}
		return ok + " (" + warnings + ")"
	}
	s := plural(errs, msg(lang, "error", "erreur"), msg(lang, "errors", "erreurs"))
	if warns > 0 {
		s += ", " + warnings
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
