package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// runApp starts the application on the screen: `sidekicks [--config FILE]`. It returns once
// the user has quit (0) or when the application cannot start or stopped on an internal
// error (1; the message is on stderr, the details in Sidekicks' log).
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
	dir, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "sidekicks: finding the current folder: %v\n", err)
		return 1
	}
	return runApplication(appOptions{
		configFlag:       *cfgPath,
		dir:              dir,
		stderr:           stderr,
		detectBackground: true,
	}, true)
}

// runApplication runs the application on o's configuration, then on each configuration the
// user opens from it, until the user quits. With signals, SIGTERM, SIGHUP and SIGINT quit
// the way Alt-X does.
func runApplication(o appOptions, signals bool) int {
	for {
		ap, err := openApplication(o)
		if err != nil {
			var f *startFailure
			if errors.As(err, &f) {
				fmt.Fprintln(o.stderr, f.message)
				return f.code
			}
			fmt.Fprintf(o.stderr, "sidekicks: %v\n", err)
			return 1
		}
		var stop func()
		if signals {
			stop = ap.quitOnSignals()
		}
		code, next := ap.run()
		if stop != nil {
			stop()
		}
		if code != 0 || next == "" {
			return code
		}
		o.configFlag = next
	}
}

// quitOnSignals makes a termination signal quit like Alt-X: the windows are saved and the
// agents stopped. It returns the function that stops listening.
func (ap *application) quitOnSignals() func() {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-c:
			ap.log.Printf("received %v", s)
			ap.app.Post(ap.quit)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(c)
		close(done)
	}
}
