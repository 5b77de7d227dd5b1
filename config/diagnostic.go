package config

import "strings"

// Diagnostic is one error or warning found in a configuration file (or a project agents
// file), ready to be shown to the user.
type Diagnostic struct {
	// File is the file the problem is in.
	File string
	// Line and Column locate the problem (1-based; 0 when the place is unknown).
	Line   int
	Column int
	// Key is the key path, such as "agents[0].name" ("" for the whole document).
	Key string
	// Message is the full message in the file's language, formatted as the specification
	// shows it: "line 12 — agents[0].name: …" in English, "ligne 12 — agents[0].name : …"
	// in French.
	Message string
	// Warning is true for a problem that does not stop the configuration from loading.
	Warning bool
	// text is Message without the line and the key it begins with ("" when Message does
	// not begin with them).
	text string
}

// Detail is the message without the line and the key that begin it ("line 12 —
// agents[0].name: "), for a reader that gets them from Line and Key: what
// `sidekicks check --json` prints.
func (d Diagnostic) Detail() string {
	if d.text != "" {
		return d.text
	}
	return d.Message
}

// Diagnostics is every problem found in one load.
type Diagnostics []Diagnostic

// HasErrors reports whether any diagnostic is an error (not a warning).
func (d Diagnostics) HasErrors() bool {
	for _, x := range d {
		if !x.Warning {
			return true
		}
	}
	return false
}

// Error joins the messages of the errors, so that Diagnostics can be returned as an error.
func (d Diagnostics) Error() string {
	var b strings.Builder
	for _, x := range d {
		if x.Warning {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(x.Message)
	}
	return b.String()
}
