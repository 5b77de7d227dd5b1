// Package cli is Sidekicks' command line: it parses the arguments and runs the application
// (package app) or one of the sub-commands it owns — check, schema, ask, allow, demo-agent
// version and help — each returning its exit status.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/store"
)

// A command is one sub-command of sidekicks.
type command struct {
	name     string
	synopsis string // its usage line, as `COMMAND --help` and the man page show it
	summary  helpMsg
	args     argKind // what its arguments (after the options) are, for the completion
	run      func(args []string, stdout, stderr io.Writer) int
}

// program is the command line of one build of Sidekicks.
type program struct {
	version string    // the build's version, announced to agents and printed by `version`
	build   buildInfo // where the build comes from, printed by `version`
}

func (p program) commands() []command {
	return []command{
		{"check", checkSynopsis, helpCheck, argFiles, runCheck},
		{"schema", schemaSynopsis, helpSchema, argNone, runSchema},
		{"ask", askSynopsis, helpAsk, argAgent, p.runAsk},
		{"allow", allowSynopsis, helpAllow, argNone, runAllow},
		{"demo-agent", demoAgentSynopsis, helpDemoAgent, argNone, runDemoAgent},
		{"completion", completionSynopsis, helpCompletion, argShell, p.runCompletion},
		{"man", manSynopsis, helpMan, argNone, p.runMan},
		{"version", versionSynopsis, helpVersion, argNone, p.runVersion},
		{"help", helpSynopsis, helpHelp, argNone, runHelp},
	}
}

// Run runs the command line args (without the program's name) of the build named
// version (the -ldflags version; "dev" when none was given, and then the module version
// of a `go install …@vX` build is used), writing to stdout and stderr, and returns the
// exit status.
func Run(args []string, stdout, stderr io.Writer, version string) int {
	b := currentBuild(version)
	return program{version: b.version, build: b}.run(args, stdout, stderr)
}

// run dispatches to a sub-command and returns the exit status.
func (p program) run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "-h", "-help", "--help":
			return runHelp(args[1:], stdout, stderr)
		case "-v", "-version", "--version":
			return p.runVersion(args[1:], stdout, stderr)
		}
	}
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		for _, c := range p.commands() {
			if c.name != args[0] {
				continue
			}
			// Asked for, a command's usage is its output: on stdout, as the help's is.
			if c.asksHelp(args[1:]) {
				return c.run([]string{"-h"}, io.Discard, stdout)
			}
			return c.run(args[1:], stdout, stderr)
		}
		fmt.Fprintf(stderr, "sidekicks: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	return p.runApp(args, stdout, stderr)
}

// usage writes the help, in the language of the environment (LC_ALL, LC_MESSAGES, LANG): the
// synopsis, the sub-commands, the environment variables and where Sidekicks keeps its files
// on this machine.
func usage(w io.Writer) {
	lang := config.LanguageOf(nil)
	text := func(k helpMsg, args ...any) string { return helpCatalogue.Text(lang, k, args...) }
	fmt.Fprintln(w, "usage: "+appSynopsis)
	fmt.Fprintln(w, "       sidekicks COMMAND [options]")
	fmt.Fprintf(w, "\n%s\n\n%s\n", text(helpWithoutCommand), text(helpCommands))
	for _, c := range (program{}).commands() {
		fmt.Fprintf(w, "  %-11s %s\n", c.name, text(c.summary))
	}
	fmt.Fprintf(w, "\n%s\n%s\n\n%s\n", text(helpCommandOptions), text(helpVersionAliases), text(helpEnvironment))
	for _, e := range environment {
		fmt.Fprintf(w, "  %-20s %s\n", e.name, text(e.text))
	}
	fmt.Fprintf(w, "\n%s\n", text(helpFiles))
	for _, f := range files() {
		path := f.path
		if f.err != nil {
			path = text(helpUnknown, f.err)
		}
		fmt.Fprintf(w, "  %-20s %s\n", text(f.label), path)
	}
}

// environment lists the variables Sidekicks reads, for the help and the man page.
var environment = []struct {
	name string
	text helpMsg
}{
	{config.EnvConfig, helpEnvConfig},
	{store.DataDirEnv, helpEnvDataDir},
	{"SIDEKICKS_STATE_DIR", helpEnvStateDir},
	{"SIDEKICKS_ACP_TRACE", helpEnvTrace},
}

// A file is where Sidekicks keeps one kind of file, or why it cannot be found.
type file struct {
	label helpMsg
	path  string
	err   error
}

// files returns where Sidekicks keeps its files, with the environment as it is now.
func files() []file {
	cfg, cfgErr := config.DefaultPath()
	prefs, prefsErr := config.PreferencesPath()
	history, historyErr := "", cfgErr
	if cfgErr == nil {
		if db, err := store.DefaultPath(cfg); err == nil {
			history = filepath.Dir(db)
		} else {
			historyErr = err
		}
	}
	logs, logsErr := runtime.LogsDir()
	return []file{
		{helpFileConfig, cfg, cfgErr},
		{helpFilePreferences, prefs, prefsErr},
		{helpFileHistory, history, historyErr},
		{helpFileLogs, logs, logsErr},
	}
}

// Usage lines of the commands (ask's is in ask.go).
const (
	appSynopsis        = "sidekicks [--config FILE]"
	schemaSynopsis     = "sidekicks schema"
	allowSynopsis      = "sidekicks allow [--yes] [--config FILE]"
	demoAgentSynopsis  = "sidekicks demo-agent [--name NAME] [--delay DURATION]"
	completionSynopsis = "sidekicks completion bash|zsh|fish"
	manSynopsis        = "sidekicks man"
	versionSynopsis    = "sidekicks version"
	helpSynopsis       = "sidekicks help"
)

// runHelp prints the help on stdout: `sidekicks help`, `-h`, `--help`.
func runHelp(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "sidekicks help: unexpected argument %q\n", args[0])
		usage(stderr)
		return 2
	}
	usage(stdout)
	return 0
}

// newFlags returns a flag set that prints its usage to stderr and reports errors instead
// of exiting, so that run can return status 2.
func newFlags(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s\n", synopsis)
		if hasFlags(fs) {
			fmt.Fprintln(stderr, "\noptions:")
			fs.PrintDefaults()
		}
	}
	return fs
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// parseFlags parses args; it returns the exit status to use and false when the command
// must stop (help was asked: 0; a bad flag: 2).
func parseFlags(fs *flag.FlagSet, args []string) (int, bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0, false
		}
		return 2, false
	}
	return 0, true
}

// parseInterspersed is parseFlags for a command whose arguments are files: options may
// come after them, as users type them (`check a.yaml --json`), except after "--", which
// makes the rest arguments whatever they look like. It returns the arguments in order.
func parseInterspersed(fs *flag.FlagSet, args []string) (positional []string, code int, ok bool) {
	for {
		if code, ok := parseFlags(fs, args); !ok {
			return nil, code, false
		}
		rest := fs.Args()
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(positional, rest...), 0, true
		}
		if len(rest) == 0 {
			return positional, 0, true
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// parseNoArgs is parseFlags for a command that takes no argument after its options: one
// is a usage mistake (2), said on stderr with the usage.
func parseNoArgs(fs *flag.FlagSet, args []string, stderr io.Writer) (int, bool) {
	if code, ok := parseFlags(fs, args); !ok {
		return code, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "sidekicks %s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		fs.Usage()
		return 2, false
	}
	return 0, true
}

func (p program) runVersion(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("version", versionSynopsis, stderr)
	if code, ok := parseNoArgs(fs, args, stderr); !ok {
		return code
	}
	p.build.print(stdout)
	return 0
}
