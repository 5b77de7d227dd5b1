package config

import (
	"os"
	"path/filepath"
	"strings"
)

// This file writes what the command line and the application say about the
// configuration: a diagnostic as one line, where the file is, and that it was created.

// Text writes one diagnostic as `sidekicks check` prints it, in lang. The project agents file's
// messages already begin with the file ("reading …/acp.toml: …", as the Turbo Python spec
// words them), so they are not prefixed with it a second time.
func (d Diagnostic) Text(lang string) string {
	var b strings.Builder
	namesFile := d.File != "" && (strings.HasPrefix(d.Message, "reading "+d.File) || strings.HasPrefix(d.Message, "lecture de "+d.File))
	if !namesFile {
		b.WriteString(DisplayPath(d.File))
		b.WriteString(": ")
	}
	if d.Warning {
		b.WriteString(WarningMark(lang))
	}
	b.WriteString(d.Message)
	return b.String()
}

// DisplayPath shows a file relative to the current folder when it is inside it, and
// absolute otherwise.
func DisplayPath(path string) string {
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	rel, err := filepath.Rel(wd, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return path
	}
	return rel
}

// NotFoundText says in the user's language why the configuration could not be found.
func NotFoundText(lang string, err error) string {
	if lang == French {
		return "la configuration est introuvable : " + err.Error()
	}
	return "the configuration cannot be found: " + err.Error()
}

// CreatedText says that the default configuration has just been created.
func CreatedText(lang, path string) string {
	if lang == French {
		return "configuration par défaut créée : " + DisplayPath(path)
	}
	return "created the default configuration: " + DisplayPath(path)
}
