package main

import (
	"fmt"
	"io"
)

// runApp starts the application on the screen. The screen is built by a later issue; until
// then it validates the configuration like 'sidekicks check' and says so.
func runApp(args []string, stdout, stderr io.Writer) int {
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
	fmt.Fprintln(stderr, "sidekicks: the screen is not built yet; checking the configuration instead.")
	if *cfgPath != "" {
		return runCheck([]string{"--config", *cfgPath}, stdout, stderr)
	}
	return runCheck(nil, stdout, stderr)
}
