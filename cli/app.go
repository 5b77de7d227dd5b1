package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"

	"git.rickub.com/bots-garden/sidekicks/app"
)

// runApp starts the application on the screen: `sidekicks [--config FILE]`. It returns once
// the user has quit (0), when the application cannot start or stopped on an internal error
// (1; the message is on stderr, the details in Sidekicks' log), when history entries could
// not be written before it quit (app.ExitUnsaved, 3; stderr says how many and why), or
// after a quitting signal (128 + its number).
func (p program) runApp(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sidekicks", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {} // which stream the help goes to depends on why (below)
	cfgPath := fs.String("config", "", "the configuration `FILE`")
	showVersion := fs.Bool("version", false, "print the version")
	fs.BoolVar(showVersion, "v", false, "print the version")
	if err := fs.Parse(args); err != nil {
		// Asked for (`sidekicks --config F --help`): the help is the output. A mistake:
		// the flag package said which; the help follows it on stderr.
		if errors.Is(err, flag.ErrHelp) {
			usage(stdout)
			return 0
		}
		usage(stderr)
		return 2
	}
	// `sidekicks --config F version` and `… help` are what they would be without the option.
	if *showVersion {
		return p.runVersion(fs.Args(), stdout, stderr)
	}
	if fs.NArg() > 0 {
		switch fs.Arg(0) {
		case "help":
			return runHelp(fs.Args()[1:], stdout, stderr)
		case "version":
			return p.runVersion(fs.Args()[1:], stdout, stderr)
		}
		fmt.Fprintf(stderr, "sidekicks: unknown command %q\n", fs.Arg(0))
		usage(stderr)
		return 2
	}
	dir, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "sidekicks: finding the current folder: %v\n", err)
		return 1
	}
	runtime.GOMAXPROCS(uiProcs(runtime.GOMAXPROCS(0), os.Getenv("GOMAXPROCS")))
	return app.Run(app.Options{ConfigFlag: *cfgPath, Dir: dir, Stderr: stderr, Version: p.version})
}

// uiProcs is how many goroutines the application runs at once: two more than the CPUs it
// may use (procs, Go's default), unless the user set GOMAXPROCS (env). With as many as the
// CPUs, the goroutines that read a flooding agent and the garbage collector's worker could
// hold them all, and the screen's goroutine, woken by a key, waited for one of them to be
// preempted (up to 10 ms, the worst keys during a flood); with two more, it gets a thread
// of its own at once, which the system runs as soon as it wakes.
func uiProcs(procs int, env string) int {
	if env != "" {
		return procs
	}
	return procs + 2
}
