package cli

import (
	"context"
	"fmt"
	"io"
	"os"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/schema"
)

// runCheck validates the configuration and prints each error and warning, one per line:
// the file, ": ", "warning: " for a warning, then the message with its line and key in
// the file's language; then a summary line. Exit status 1 when there is an error. A
// file whose agents have env values and that its group or others can read is a warning.
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
	cfg, diags, lang, ok := loadConfig("check", *cfgPath, stderr)
	if !ok {
		return 1
	}
	var agents []config.Agent
	if cfg != nil {
		agents = cfg.Agents
	}
	// The project's agents file, when the current folder has one, is checked with the
	// configuration: its problems are printed and counted with the configuration's.
	// A file the user has not allowed is a warning: its agents would not be added.
	if wd, err := os.Getwd(); err == nil {
		project := config.ReadProject(wd, lang)
		diags = append(diags, project.Diags...)
		if !project.Diags.HasErrors() && len(project.Agents) > 0 && !project.Trusted {
			diags = append(diags, config.Diagnostic{File: project.Path, Message: config.NotAllowedText(lang, len(project.Agents)), Warning: true})
		}
		agents = append(agents, project.Agents...)
	}
	// A file whose agents' env values other users can read is warned about.
	diags = append(diags, config.ReadableSecrets(agents, lang)...)
	// An agent whose workspace is missing would fail at its first message.
	diags = append(diags, config.MissingWorkspaces(agents, lang)...)
	for _, d := range diags {
		fmt.Fprintln(stdout, d.Text(lang))
	}
	fmt.Fprintln(stdout, config.Summary(lang, diags))
	if diags.HasErrors() {
		return 1
	}
	return 0
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

// loadConfig finds the configuration as --config (flagValue) says, creating the default
// file when there is none, and loads it. It returns the configuration (nil when it has
// errors), its diagnostics and the language to speak; ok is false when no file could be
// found, which it says on stderr for the sub-command cmd. It says on stderr when it
// created the default file.
func loadConfig(cmd, flagValue string, stderr io.Writer) (cfg *config.Config, diags config.Diagnostics, lang i18n.Lang, ok bool) {
	path, created, err := config.Locate(flagValue)
	if err != nil {
		lang := config.LanguageOf(nil)
		fmt.Fprintf(stderr, "sidekicks %s: %s\n", cmd, config.NotFoundText(lang, err))
		return nil, nil, lang, false
	}
	// The file is read once, bounded (see config.LoadContext): its language comes with it.
	cfg, diags, lang = config.LoadContext(context.Background(), path)
	if created {
		fmt.Fprintf(stderr, "sidekicks %s: %s\n", cmd, config.CreatedText(lang, path))
	}
	return cfg, diags, lang, true
}
