package config

import (
	"os"
	"path/filepath"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// This file writes what the command line and the application say about the
// configuration: a diagnostic as one line, where the file is, and that it was created.

// Text writes one diagnostic as `sidekicks check` prints it, in lang. The project agents file's
// messages already begin with the file ("reading …/acp.toml: …", as the Turbo Python spec
// words them), so they are not prefixed with it a second time.
func (d Diagnostic) Text(lang i18n.Lang) string {
	var b strings.Builder
	if !d.namesFile() {
		b.WriteString(DisplayPath(d.File))
		b.WriteString(": ")
	}
	if d.Warning {
		b.WriteString(WarningMark(lang))
	}
	b.WriteString(d.Message)
	return b.String()
}

// namesFile reports whether the message begins with the file, as the project agents
// file's messages do, in either language.
func (d Diagnostic) namesFile() bool {
	if d.File == "" {
		return false
	}
	for _, lang := range []i18n.Lang{i18n.English, i18n.French} {
		if strings.HasPrefix(d.Message, projectCatalogue.Text(lang, pReading, d.File)) {
			return true
		}
	}
	return false
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

// HomePath shows a path the same wherever Sidekicks was started: absolute, with "~" for
// the home folder when the path is in it (~/.config/sidekicks/config.yaml).
func HomePath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" || filepath.Clean(home) == string(filepath.Separator) {
		return path
	}
	rel, err := filepath.Rel(home, path)
	switch {
	case err != nil || !filepath.IsLocal(rel):
		return path
	case rel == ".":
		return "~"
	}
	return "~" + string(filepath.Separator) + rel
}

// NotFoundText says in the user's language why the configuration could not be found.
func NotFoundText(lang i18n.Lang, err error) string {
	return catalogue.Text(lang, mNotFound, err.Error())
}

// CreatedText says that the default configuration has just been created.
func CreatedText(lang i18n.Lang, path string) string {
	return catalogue.Text(lang, mCreated, DisplayPath(path))
}
