package cli

import (
	"fmt"
	"io"
	"os"

	"git.rickub.com/bots-garden/sidekicks/app"
)

// runApp starts the application on the screen: `sidekicks [--config FILE]`. It returns once
// the user has quit (0), when the application cannot start or stopped on an internal error
// (1; the message is on stderr, the details in Sidekicks' log), when history entries could
// not be written before it quit (app.ExitUnsaved, 3; stderr says how many and why), or
// after a quitting signal (128 + its number).
func (p program) runApp(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("sidekicks", "sidekicks [--config FILE]", stderr)
	fs.Usage = func() { usage(stderr) }
	cfgPath := fs.String("config", "", "the configuration `FILE`")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "sidekicks: unknown command %q\n", fs.Arg(0))
		return 2
	}
	dir, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "sidekicks: finding the current folder: %v\n", err)
		return 1
	}
	return app.Run(app.Options{ConfigFlag: *cfgPath, Dir: dir, Stderr: stderr, Version: p.version})
}
