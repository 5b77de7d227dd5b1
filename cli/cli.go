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
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

// program is the command line of one build of Sidekicks.
type program struct {
	version string    // the build's version, announced to agents and printed by `version`
	build   buildInfo // where the build comes from, printed by `version`
}

func (p program) commands() []command {
	return []command{
		{"check", "validate the configuration and print its errors and warnings", runCheck},
		{"schema", "print the configuration's JSON Schema", runSchema},
		{"ask", "run one turn with an agent, without the screen", p.runAsk},
		{"allow", "review the folder's .sidekicks/acp.toml and allow its agents to run", runAllow},
		{"demo-agent", "run the built-in ACP demo agent on stdin and stdout", runDemoAgent},
		{"version", "print the version, commit, commit date and Go version", p.runVersion},
		{"help", "print this help", runHelp},
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
			if c.name == args[0] {
				return c.run(args[1:], stdout, stderr)
			}
		}
		fmt.Fprintf(stderr, "sidekicks: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	return p.runApp(args, stdout, stderr)
}

// usage writes the help: the synopsis, the sub-commands, the environment variables and
// where Sidekicks keeps its files on this machine.
func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: sidekicks [--config FILE]")
	fmt.Fprintln(w, "       sidekicks COMMAND [options]")
	fmt.Fprintln(w, "\nWithout a command, sidekicks opens the application on the screen.")
	fmt.Fprintln(w, "\ncommands:")
	for _, c := range (program{}).commands() {
		fmt.Fprintf(w, "  %-11s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\n'sidekicks COMMAND --help' describes a command's options;")
	fmt.Fprintln(w, "'sidekicks --version' and 'sidekicks -v' are 'sidekicks version'.")
	fmt.Fprintln(w, "\nenvironment:")
	for _, e := range [][2]string{
		{config.EnvConfig, "the configuration file, when --config is not given"},
		{store.DataDirEnv, "the folder of the history, instead of the one below"},
		{"SIDEKICKS_STATE_DIR", "the folder of the logs and of the allowed project agents files"},
		{"SIDEKICKS_ACP_TRACE", "a file where every ACP message is written"},
	} {
		fmt.Fprintf(w, "  %-20s %s\n", e[0], e[1])
	}
	fmt.Fprintln(w, "\nfiles:")
	for _, f := range files() {
		fmt.Fprintf(w, "  %-20s %s\n", f[0], f[1])
	}
}

// files returns where Sidekicks keeps its files, with the environment as it is now.
func files() [][2]string {
	show := func(p string, err error) string {
		if err != nil {
			return "unknown (" + err.Error() + ")"
		}
		return p
	}
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
	return [][2]string{
		{"configuration", show(cfg, cfgErr)},
		{"preferences", show(prefs, prefsErr)},
		{"history", show(history, historyErr)},
		{"logs", show(logs, logsErr)},
	}
}

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

func (p program) runVersion(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("version", "sidekicks version", stderr)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "sidekicks version: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	p.build.print(stdout)
	return 0
}
