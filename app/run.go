package app

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Options say how the command line starts the application.
type Options struct {
	// ConfigFlag is --config ("" to locate the file).
	ConfigFlag string
	// Dir is the folder Sidekicks was started in, where the project agents file is.
	Dir string
	// Stderr receives what cannot wait for the log: why the application could not start.
	Stderr io.Writer
	// Version is Sidekicks' version, announced to the agents.
	Version string
}

// Run runs the application on the terminal until the user quits, and returns the exit
// status: 0 once the user has quit, 1 when the application cannot start or stopped on an
// internal error (the message is on Stderr, the details in Sidekicks' log). SIGTERM,
// SIGHUP and SIGINT quit the way Alt-X does.
func Run(o Options) int {
	return runApplication(appOptions{
		configFlag:       o.ConfigFlag,
		dir:              o.Dir,
		stderr:           o.Stderr,
		version:          o.Version,
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
