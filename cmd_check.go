package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/schema"
)

// runCheck validates the configuration and prints each error and warning, one per line:
// the file, ": ", "warning: " for a warning, then the message with its line and key in
// the file's language; then a summary line. Exit status 1 when there is an error.
func runCheck(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("check", "sidekicks check [--config FILE]", stderr)
	cfgPath := fs.String("config", "", "the configuration `FILE` (default: $SIDEKICKS_CONFIG, then the last file opened, then the default file)")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "sidekicks check: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return 2
	}
	path, created, err := config.Locate(*cfgPath)
	if err != nil {
		lang := config.LanguageOf(nil)
		fmt.Fprintf(stderr, "sidekicks check: %s\n", locateText(lang, err))
		return 1
	}
	cfg, diags := config.Load(path)
	lang := config.LanguageOf(nil)
	if cfg != nil {
		lang = cfg.UI.Language
	} else if data, err := os.ReadFile(path); err == nil {
		lang = config.LanguageOf(data)
	}
	if created {
		fmt.Fprintf(stderr, "sidekicks check: %s\n", createdText(lang, path))
	}
	// The project's agents file, when the current folder has one, is checked with the
	// configuration: its problems are printed and counted with the configuration's.
	if wd, err := os.Getwd(); err == nil {
		_, projectDiags := config.LoadProject(wd, lang)
		diags = append(diags, projectDiags...)
	}
	for _, d := range diags {
		fmt.Fprintln(stdout, checkLine(lang, d))
	}
	fmt.Fprintln(stdout, config.Summary(lang, diags))
	if diags.HasErrors() {
		return 1
	}
	return 0
}

// checkLine writes one diagnostic as `sidekicks check` prints it. The project agents file's
// messages already begin with the file ("reading …/acp.toml: …", as the Turbo Python spec
// words them), so they are not prefixed with it a second time.
func checkLine(lang string, d config.Diagnostic) string {
	var b strings.Builder
	namesFile := d.File != "" && (strings.HasPrefix(d.Message, "reading "+d.File) || strings.HasPrefix(d.Message, "lecture de "+d.File))
	if !namesFile {
		b.WriteString(displayPath(d.File))
		b.WriteString(": ")
	}
	if d.Warning {
		b.WriteString(config.WarningMark(lang))
	}
	b.WriteString(d.Message)
	return b.String()
}

// displayPath shows a file relative to the current folder when it is inside it, and
// absolute otherwise.
func displayPath(path string) string {
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

// locateText says in the user's language why the configuration could not be found.
func locateText(lang string, err error) string {
	if lang == config.French {
		return "la configuration est introuvable : " + err.Error()
	}
	return "the configuration cannot be found: " + err.Error()
}

// createdText says that the default configuration has just been created.
func createdText(lang, path string) string {
	if lang == config.French {
		return "configuration par défaut créée : " + displayPath(path)
	}
	return "created the default configuration: " + displayPath(path)
}

// runSchema prints the JSON Schema of the configuration file.
func runSchema(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("schema", "sidekicks schema", stderr)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "sidekicks schema: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return 2
	}
	if _, err := stdout.Write(schema.ConfigSchema()); err != nil {
		fmt.Fprintf(stderr, "sidekicks schema: writing the schema: %v\n", err)
		return 1
	}
	return 0
}
