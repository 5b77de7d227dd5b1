package window

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/guard"
)

// GoNamed is the starter the packages outside the screen take.
var _ guard.Go = (*App)(nil).GoNamed

// guardDeadline bounds the waits of these tests.
const guardDeadline = 10 * time.Second

// startApp runs a new App on a simulation screen; Run's result arrives on the channel.
func startApp(t *testing.T) (*App, tcell.SimulationScreen, chan error) {
	t.Helper()
	sim := tcell.NewSimulationScreen("UTF-8")
	app, err := New(Options{Screen: sim})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- app.Run() }()
	return app, sim, done
}

// runResult waits for Run's result.
func runResult(t *testing.T, done <-chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(guardDeadline):
		t.Fatal("Run did not return")
		return nil
	}
}

func TestPanicInANamedGoroutineStopsRunWithItsName(t *testing.T) {
	app, sim, done := startApp(t)
	<-app.ready
	app.GoNamed("acp reader alice", func() { panic("reader exploded") })
	err := runResult(t, done)
	if !errors.Is(err, ErrFailed) {
		t.Fatalf("Run returned %v, want ErrFailed", err)
	}
	for _, want := range []string{"window: panic in acp reader alice: reader exploded", "goroutine ", "guard_test.go"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Run's error lacks %q:\n%v", want, err)
		}
	}
	if w, h := sim.Size(); w != 0 || h != 0 {
		t.Errorf("the screen was not finalised (size %dx%d)", w, h)
	}
}

func TestPanicBeforeRunStopsRunOnceItHasStarted(t *testing.T) {
	sim := tcell.NewSimulationScreen("UTF-8")
	app, err := New(Options{Screen: sim})
	if err != nil {
		t.Fatal(err)
	}
	app.GoNamed("store writer", func() { panic("early") })
	select {
	case <-app.failed:
	case <-time.After(guardDeadline):
		t.Fatal("the panic was not reported")
	}
	err = app.Run()
	if !errors.Is(err, ErrFailed) || !strings.Contains(err.Error(), "window: panic in store writer: early") {
		t.Fatalf("Run returned %v, want the early panic", err)
	}
	// The screen was finalised after Run initialised it, not before.
	if w, h := sim.Size(); w != 0 || h != 0 {
		t.Errorf("the screen was not finalised (size %dx%d)", w, h)
	}
}

// latePanicEnv makes the test binary play the application whose goroutine panics after
// Run has returned.
const latePanicEnv = "WINDOW_TEST_LATE_PANIC"

func TestPanicAfterRunGoesOnAsAPanic(t *testing.T) {
	if os.Getenv(latePanicEnv) != "" {
		app, _, done := startApp(t)
		<-app.ready
		app.Quit()
		if err := runResult(t, done); err != nil {
			t.Fatal(err)
		}
		app.GoNamed("store writer", func() { panic("too late") })
		<-time.After(guardDeadline) // the panic ends the process before
		os.Exit(0)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*guardDeadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestPanicAfterRunGoesOnAsAPanic$", "-test.count=1")
	cmd.Env = append(os.Environ(), latePanicEnv+"=1")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 {
		t.Fatalf("the process ended with %v, want exit status 2 (a panic):\n%s", err, out)
	}
	for _, want := range []string{"panic: window: panic in store writer: too late", "guard_test.go"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
}
