package app

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
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
// internal error (the message is on Stderr, the details in Sidekicks' log), ExitUnsaved
// (3) when history entries could not be written before it quit (Stderr says how many
// and why). SIGTERM, SIGHUP and SIGINT quit the way Alt-X does, and the status is then
// 128 + the signal's number (143, 129, 130), as a shell reports a command a signal
// ended, unless it is 1 or 3.
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
	// lost is set when a configuration opened before this one quit with history entries
	// it could not write: the program's status says so at the end.
	lost := false
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
		var stop func() int
		if signals {
			stop = ap.quitOnSignals()
		}
		code, next := ap.run()
		if code == ExitUnsaved {
			lost, code = true, 0
		}
		if code == 0 && lost {
			code = ExitUnsaved // said once every configuration has quit
		}
		if stop != nil {
			// A quit a signal asked for ends the program, whatever was opened meanwhile;
			// an internal error, or entries lost, keep their own status.
			if bySignal := stop(); bySignal != 0 && code == 0 {
				return bySignal
			}
		}
		if (code != 0 && code != ExitUnsaved) || next == "" {
			return code
		}
		o.configFlag, o.openedFrom = next, ap.path
	}
}

// quitOnSignals makes a termination signal quit like Alt-X: the windows are saved and the
// agents stopped. It returns the function that stops listening, which returns the exit
// status the signal calls for: 128 + its number, or 0 when none came.
func (ap *application) quitOnSignals() func() int {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
	done := make(chan struct{})
	var status atomic.Int32
	go func() {
		select {
		case s := <-c:
			ap.log.Printf("received %v", s)
			if n, ok := s.(syscall.Signal); ok {
				status.Store(128 + int32(n))
			}
			ap.app.Post(ap.quit)
		case <-done:
		}
	}()
	return func() int {
		signal.Stop(c)
		close(done)
		return int(status.Load())
	}
}
