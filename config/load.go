package config

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"gopkg.in/yaml.v3"
)

// maxFileSize bounds the size of a configuration file: a real one is a few kilobytes.
const maxFileSize = 1 << 20

// Load reads the configuration file at path and parses it (see Parse). The file is read
// as every one of Sidekicks' own files is (see readBounded): a regular file of at most
// 1 MiB, within ReadTimeout.
func Load(path string) (*Config, Diagnostics) {
	cfg, diags, _ := LoadContext(context.Background(), path)
	return cfg, diags
}

// LoadContext is Load, giving up as soon as ctx is done, and also returning the language
// of the messages (see LanguageOf). The file is read once, whatever it holds.
func LoadContext(ctx context.Context, path string) (*Config, Diagnostics, i18n.Lang) {
	cfg, diags, lang, _, _ := load(ctx, path)
	return cfg, diags, lang
}

// load is LoadContext, also returning the file's absolute path and its content (nil when
// it could not be read).
func load(ctx context.Context, path string) (*Config, Diagnostics, i18n.Lang, string, []byte) {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	data, err := readBounded(ctx, path, maxFileSize)
	if err != nil {
		lang := languageFromEnv()
		return nil, Diagnostics{newDiagnostic(path, lang, 0, 0, "", readErrorText(lang, err), false)}, lang, path, nil
	}
	cfg, diags := Parse(path, data)
	if cfg != nil {
		return cfg, diags, cfg.UI.Language, path, data
	}
	return nil, diags, LanguageOf(data), path, data
}

// readErrorText says why the file could not be read.
func readErrorText(lang i18n.Lang, err error) string {
	if text, ok := readRefusalText(lang, err); ok {
		return text
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return catalogue.Text(lang, mNoFile)
	case errors.Is(err, fs.ErrPermission):
		return catalogue.Text(lang, mFileDenied)
	case errors.Is(err, fs.ErrInvalid):
		return catalogue.Text(lang, mIsFolder)
	case errors.Is(err, errTooLarge):
		return catalogue.Text(lang, mTooLarge, maxFileSize>>10)
	}
	return catalogue.Text(lang, mUnreadable)
}

// Parse reads a configuration from data. path is the file's absolute path: relative paths
// in the file are resolved against its folder, and it is every Diagnostic's File.
//
// The Config is returned, with every default applied and every path resolved, whenever
// the diagnostics hold no error (warnings are allowed); it is nil otherwise. Every
// diagnostic has a line (1 or more).
func Parse(path string, data []byte) (*Config, Diagnostics) {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	l := &loader{file: path, dir: filepath.Dir(path), lang: languageFromEnv()}
	if len(data) > maxFileSize {
		l.errorAt(1, 0, "", readErrorText(l.lang, errTooLarge))
		return nil, l.diags
	}
	root, err := parseTree(data)
	if err != nil {
		l.syntaxError(data, err)
		return nil, l.diags
	}
	if lang, ok := languageOfTree(root); ok {
		l.lang = lang
	}
	l.root = root
	switch {
	case root == nil:
		l.errorAt(1, 0, "", catalogue.Text(l.lang, mEmpty))
		return nil, l.diags
	case resolve(root).Kind != yaml.MappingNode:
		l.errorAt(root.Line, root.Column, "", catalogue.Text(l.lang, mNotMapping, nodeKindName(l.lang, root)))
		return nil, l.diags
	}
	l.checkStructure(root)
	if l.diags.HasErrors() {
		return nil, l.sorted()
	}
	l.validate(data)
	cfg := l.decode()
	l.checkRules()
	diags := l.sorted()
	if diags.HasErrors() {
		return nil, diags
	}
	return cfg, diags
}

// loader holds the state of one Parse.
type loader struct {
	file  string
	dir   string // the file's folder, for relative paths
	lang  i18n.Lang
	root  *yaml.Node
	diags Diagnostics
	// agents keeps, for each decoded agent, its node in the tree, for the rules.
	agents []*yaml.Node
}

func (l *loader) errorAt(line, column int, key, text string) {
	l.diags = append(l.diags, newDiagnostic(l.file, l.lang, max(line, 1), column, key, text, false))
}

func (l *loader) warnAt(line, column int, key, text string) {
	l.diags = append(l.diags, newDiagnostic(l.file, l.lang, max(line, 1), column, key, text, true))
}

// maxDiagnostics bounds how many problems one load reports: past it, fixing the first ones
// is what helps, and a hostile file cannot flood the screen.
const maxDiagnostics = 200

// sorted returns the diagnostics in the order of the file, at most maxDiagnostics of them
// and then one that says how many more there are.
func (l *loader) sorted() Diagnostics {
	slices.SortStableFunc(l.diags, func(a, b Diagnostic) int {
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return a.Column - b.Column
	})
	if len(l.diags) <= maxDiagnostics {
		return l.diags
	}
	rest := l.diags[maxDiagnostics:]
	more := Diagnostic{
		File:    l.file,
		Line:    rest[0].Line,
		Message: formatMessage(l.lang, rest[0].Line, "", catalogue.Text(l.lang, mMoreProblems, len(rest))),
		Warning: !rest.HasErrors(),
	}
	return append(l.diags[:maxDiagnostics:maxDiagnostics], more)
}

// nodeKindName says what a node is, for "must be …, not …" messages.
func nodeKindName(lang i18n.Lang, n *yaml.Node) string {
	n = resolve(n)
	switch {
	case n == nil:
		return kindName(lang, "null")
	case n.Kind == yaml.SequenceNode:
		return kindName(lang, "array")
	case n.Kind == yaml.MappingNode:
		return kindName(lang, "object")
	}
	switch n.ShortTag() {
	case "!!int", "!!float":
		return kindName(lang, "number")
	case "!!bool":
		return kindName(lang, "boolean")
	case "!!null":
		return kindName(lang, "null")
	}
	return kindName(lang, "string")
}

// LanguageOf returns the language of a configuration's messages, one rule for the
// application and every command: the file's ui.language when the file can be read that
// far and says it; else the environment's (see languageFromEnv: LC_ALL, then LC_MESSAGES,
// then LANG); else English.
func LanguageOf(data []byte) i18n.Lang {
	if len(data) > maxFileSize {
		return languageFromEnv()
	}
	root, err := parseTree(data)
	if err != nil {
		// The lines before the mistake may say it, as they do for the syntax error's
		// own message.
		var second errSecondDocument
		if errors.As(err, &second) {
			return languageOfPrefix(data, second.line)
		}
		line, problem := splitYAMLError(err)
		if found := errorLine(data, problem); found > 0 {
			line = found
		}
		return languageOfPrefix(data, line)
	}
	if lang, ok := languageOfTree(root); ok {
		return lang
	}
	return languageFromEnv()
}

// languageOfTree returns ui.language, and whether it is a known language ("en", "fr").
func languageOfTree(root *yaml.Node) (i18n.Lang, bool) {
	_, ui := field(root, "ui")
	_, language := field(ui, "language")
	s, _ := stringValue(language)
	for _, lang := range []i18n.Lang{i18n.English, i18n.French} {
		if s == lang.Code() {
			return lang, true
		}
	}
	return i18n.English, false
}

// languageFromEnv reads the locale of messages as POSIX orders the variables: the first
// of LC_ALL, LC_MESSAGES and LANG that is set and not empty decides, French when it starts
// with "fr", English otherwise (LC_ALL=C with LANG=fr_FR is English).
func languageFromEnv() i18n.Lang {
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := os.Getenv(name); v != "" {
			if strings.HasPrefix(strings.ToLower(v), "fr") {
				return i18n.French
			}
			return i18n.English
		}
	}
	return i18n.English
}
