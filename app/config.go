package app

import (
	"context"
	"time"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// loaded is one load of the configuration file and of the project agents file of the
// folder Sidekicks was started in: what the application runs on, or the errors that stop
// it from doing so.
type loaded struct {
	// cfg is the configuration with the project's agents merged in; nil when diags hold
	// an error (of either file).
	cfg *config.Config
	// usable is the configuration file's own when it loaded, even if the project file
	// was refused (then without the project's agents): what a start runs on.
	usable *config.Config
	// diags are the problems of both files, the configuration's first; problems are
	// their lines as `sidekicks check` prints them.
	diags    config.Diagnostics
	problems []string
	// project is the project agents file when the folder has one, "" otherwise.
	project string
	// pending is the project agents file when it defines agents the user has not allowed
	// (its Path is "" otherwise): they are not in cfg until the user allows them.
	pending config.Project
	// refused are the problems of the project agents file when it was refused (it has
	// errors): none of its agents is added, while the configuration file's run. Agent
	// status shows them under the file, and the errors window names it.
	refused []string
	// lang is the language of the messages: the file's ui.language, or LANG's.
	lang i18n.Lang
	// at is when the files were read.
	at time.Time
}

// loadConfiguration reads the configuration at path and the project agents file of dir,
// each once, as config reads its files: a regular file, bounded in size, given up after
// config.ReadTimeout or once ctx is done. It does I/O: never call it on the screen's
// goroutine.
func loadConfiguration(ctx context.Context, path, dir string) loaded {
	cfg, diags, lang := config.LoadChecked(ctx, path)
	l := loaded{at: time.Now(), lang: lang, diags: diags}
	var refusedPath string
	if dir != "" {
		project := config.ReadProjectContext(ctx, dir, l.lang)
		l.diags = append(l.diags, project.Diags...)
		// The folder has a file, whether it could be read or not.
		l.project = project.Path
		switch {
		case project.Diags.HasErrors():
			// Refused whole (the spec: better an error that says why than half the
			// agents); the configuration's own agents are not held up by it.
			refusedPath = project.Path
			for _, d := range project.Diags {
				l.refused = append(l.refused, safetext.Line(problemLine(l.lang, path, d)))
			}
		case len(project.Agents) > 0 && !project.Trusted:
			// Not allowed yet: its agents are not added, and the problems say so.
			l.pending = project
			l.diags = append(l.diags, config.Diagnostic{File: project.Path, Message: config.NotAllowedText(l.lang, len(project.Agents)), Warning: true})
		case cfg != nil:
			l.diags = append(l.diags, config.MergeProject(cfg, project.Agents)...)
		}
	}
	for _, d := range l.diags {
		l.problems = append(l.problems, safetext.Line(problemLine(l.lang, path, d)))
	}
	l.usable = cfg
	if !l.diags.HasErrors() || l.refused != nil && !othersThan(l.diags, refusedPath).HasErrors() {
		l.cfg = cfg
	}
	return l
}

// othersThan are the diagnostics that are not about the file at path.
func othersThan(d config.Diagnostics, path string) config.Diagnostics {
	var out config.Diagnostics
	for _, x := range d {
		if x.File != path {
			out = append(out, x)
		}
	}
	return out
}

// emptyConfig is what the application runs on when the configuration it starts with has
// errors: no agent, no channel, the defaults, in lang.
func emptyConfig(path string, lang i18n.Lang) *config.Config {
	return &config.Config{
		Path:    path,
		Version: 1,
		UI:      config.UI{Theme: config.DefaultTheme, Language: lang},
		Limits: config.Limits{
			MaxRunningAgents:    config.DefaultMaxRunningAgents,
			StopIdleAgentsAfter: config.DefaultStopIdleAgentsAfter,
		},
	}
}

// errorsOnly returns the diagnostics that are errors.
func errorsOnly(d config.Diagnostics) config.Diagnostics {
	var out config.Diagnostics
	for _, x := range d {
		if !x.Warning {
			out = append(out, x)
		}
	}
	return out
}

// warningCount counts the warnings.
func warningCount(d config.Diagnostics) int {
	n := 0
	for _, x := range d {
		if x.Warning {
			n++
		}
	}
	return n
}

// problemLine is a diagnostic as the errors window shows it: like `sidekicks check`, but
// without the configuration file's name, which the window says once.
func problemLine(lang i18n.Lang, path string, d config.Diagnostic) string {
	if d.File != path {
		return d.Text(lang)
	}
	if d.Warning {
		return config.WarningMark(lang) + d.Message
	}
	return d.Message
}
