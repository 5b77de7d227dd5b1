package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/schema"
)

// checkSynopsis is the usage line of `sidekicks check`.
const checkSynopsis = "sidekicks check [--json] [--config FILE] [FILE…]"

// A checkReport is what `check` found in one file: the problems to print and the language
// to print them in. ok is false when the file could not even be located.
type checkReport struct {
	file  string
	lang  i18n.Lang
	diags config.Diagnostics
	ok    bool
}

// failed reports whether the file gives `check` the exit status 1.
func (r checkReport) failed() bool { return !r.ok || r.diags.HasErrors() }

// runCheck validates configurations and prints each error and warning, one per line:
// the file, ": ", "warning: " for a warning, then the message with its line and key in
// the file's language; then a summary line (one per file when several are checked).
// With --json it prints one JSON array of the problems instead. Exit status 1 when one
// of the files has an error, 2 for a usage mistake.
func runCheck(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("check", checkSynopsis, stderr)
	cfgPath := fs.String("config", "", "the configuration `FILE` (default: $SIDEKICKS_CONFIG, then the last file opened, then the default file)")
	asJSON := fs.Bool("json", false, "print the problems as one JSON array, for editors and CI")
	paths, code, ok := parseInterspersed(fs, args)
	if !ok {
		return code
	}
	if *cfgPath != "" {
		paths = append([]string{*cfgPath}, paths...)
	}
	reports := checkFiles(paths, stderr)
	if *asJSON {
		if err := writeProblemsJSON(stdout, reports); err != nil {
			fmt.Fprintf(stderr, "sidekicks check: %v\n", err)
			return 1
		}
	} else {
		writeProblemsText(stdout, reports)
	}
	for _, r := range reports {
		if r.failed() {
			return 1
		}
	}
	return 0
}

// checkFiles checks each configuration of paths, or the one Locate finds when there is
// none, and the current folder's project agents file. With one configuration, the project
// file's problems count with it, as the application merges them; with several, the project
// file (when the folder has one) is a report of its own, after them.
func checkFiles(paths []string, stderr io.Writer) []checkReport {
	located := paths
	if len(located) == 0 {
		located = []string{""}
	}
	var reports []checkReport
	var agents [][]config.Agent
	for _, p := range located {
		cfg, diags, lang, path, ok := loadConfigFile("check", p, stderr)
		reports = append(reports, checkReport{file: path, lang: lang, diags: diags, ok: ok})
		var a []config.Agent
		if cfg != nil {
			a = cfg.Agents
		}
		agents = append(agents, a)
	}
	var project config.Project
	if wd, err := os.Getwd(); err == nil {
		project = config.ReadProject(wd, reports[0].lang)
	}
	if len(reports) == 1 {
		reports[0].diags = fileProblems(reports[0].diags, agents[0], project, reports[0].lang)
		return reports
	}
	for i := range reports {
		reports[i].diags = fileProblems(reports[i].diags, agents[i], config.Project{}, reports[i].lang)
	}
	if project.Path != "" {
		lang := reports[0].lang
		reports = append(reports, checkReport{file: project.Path, lang: lang, diags: fileProblems(nil, nil, project, lang), ok: true})
	}
	return reports
}

// fileProblems adds to a configuration's diagnostics those of the project agents file
// (none when project.Path is ""), a warning when that file is not allowed, and the
// warnings about the agents of both: secrets other users can read, missing workspaces.
func fileProblems(diags config.Diagnostics, agents []config.Agent, project config.Project, lang i18n.Lang) config.Diagnostics {
	diags = append(diags, project.Diags...)
	// A file the user has not allowed is a warning: its agents would not be added.
	if !project.Diags.HasErrors() && len(project.Agents) > 0 && !project.Trusted {
		diags = append(diags, config.Diagnostic{File: project.Path, Message: config.NotAllowedText(lang, len(project.Agents)), Warning: true})
	}
	// An agent whose workspace is missing would fail at its first message (the
	// configuration's are warned about by config.LoadChecked, whatever its errors).
	diags = append(diags, config.MissingWorkspaces(project.Agents, lang)...)
	agents = append(agents[:len(agents):len(agents)], project.Agents...)
	// A file whose agents' env values other users can read is warned about.
	return append(diags, config.ReadableSecrets(agents, lang)...)
}

// writeProblemsText prints, file by file in the order of the arguments, each problem on
// its line then the file's summary: the summary alone for one file, "FILE: summary" for
// each file when there are several.
func writeProblemsText(w io.Writer, reports []checkReport) {
	for _, r := range reports {
		for _, d := range r.diags {
			fmt.Fprintln(w, d.Text(r.lang))
		}
		if !r.ok {
			continue // stderr said why
		}
		if len(reports) == 1 {
			fmt.Fprintln(w, config.Summary(r.lang, r.diags))
		} else {
			fmt.Fprintf(w, "%s: %s\n", config.DisplayPath(r.file), config.Summary(r.lang, r.diags))
		}
	}
}

// A jsonProblem is one problem as `check --json` prints it.
type jsonProblem struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Key      string `json:"key"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
}

// writeProblemsJSON prints every problem of every file as one JSON array (`[]` when there
// is none), one object a line: file (as the text output shows it), line and column
// (1-based, 0 when unknown), key (the key path, "" for the whole file), severity ("error"
// or "warning") and message (without the line and key the other fields already give).
func writeProblemsJSON(w io.Writer, reports []checkReport) error {
	problems := []jsonProblem{}
	for _, r := range reports {
		for _, d := range r.diags {
			severity := "error"
			if d.Warning {
				severity = "warning"
			}
			problems = append(problems, jsonProblem{
				File: config.DisplayPath(d.File), Line: d.Line, Column: d.Column,
				Key: d.Key, Severity: severity, Message: d.Detail(),
			})
		}
	}
	if len(problems) == 0 {
		_, err := io.WriteString(w, "[]\n")
		return err
	}
	var b strings.Builder
	b.WriteString("[")
	for i, p := range problems {
		line, err := json.Marshal(p)
		if err != nil {
			return err
		}
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n  ")
		b.Write(line)
	}
	b.WriteString("\n]\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// runSchema prints the JSON Schema of the configuration file.
func runSchema(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("schema", schemaSynopsis, stderr)
	if code, ok := parseNoArgs(fs, args, stderr); !ok {
		return code
	}
	if _, err := stdout.Write(schema.ConfigSchema()); err != nil {
		fmt.Fprintf(stderr, "sidekicks schema: writing the schema: %v\n", err)
		return 1
	}
	return 0
}

// loadConfig finds the configuration as --config (flagValue) says, creating the default
// file when there is none, and loads it. It returns the configuration (nil when it has
// errors), its diagnostics and the language to speak; ok is false when no file could be
// found, which it says on stderr for the sub-command cmd. It says on stderr when it
// created the default file.
func loadConfig(cmd, flagValue string, stderr io.Writer) (cfg *config.Config, diags config.Diagnostics, lang i18n.Lang, ok bool) {
	cfg, diags, lang, _, ok = loadConfigFile(cmd, flagValue, stderr)
	return cfg, diags, lang, ok
}

// loadConfigFile is loadConfig, also returning the file's absolute path ("" when ok is false).
func loadConfigFile(cmd, flagValue string, stderr io.Writer) (cfg *config.Config, diags config.Diagnostics, lang i18n.Lang, path string, ok bool) {
	path, created, err := config.Locate(flagValue)
	if err != nil {
		lang := config.LanguageOf(nil)
		fmt.Fprintf(stderr, "sidekicks %s: %s\n", cmd, config.NotFoundText(lang, err))
		return nil, nil, lang, "", false
	}
	// The file is read once, bounded (see config.LoadChecked): its language comes with it.
	cfg, diags, lang = config.LoadChecked(context.Background(), path)
	if created {
		fmt.Fprintf(stderr, "sidekicks %s: %s\n", cmd, config.CreatedText(lang, path))
	}
	return cfg, diags, lang, path, true
}
