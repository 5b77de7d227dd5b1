package config

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/guard/guardtest"
)

func TestWatcherRunsThroughTheGivenStarter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sidekicks.yaml")
	saveText(t, path, "version: 1\n")
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	rec := guardtest.New()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w, err := WatchConfigWith(ctx, path, WatchOptions{Go: rec.Go, Debounce: testDebounce}, func(*Config, Diagnostics) {
		panic("reload exploded")
	})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	rec.WaitStarted(t, "config watcher "+abs)
	saveText(t, path, "version: 1\n# saved again\n")
	p := rec.WaitPanic(t, "config watcher")
	if p.Name != "config watcher "+abs || p.Value != "reload exploded" {
		t.Errorf("panic %q: %v, want the watcher's", p.Name, p.Value)
	}
	if !strings.Contains(p.Stack, "(*Watcher).run") {
		t.Errorf("the stack lacks the watcher's goroutine:\n%s", p.Stack)
	}
	// The watcher's goroutine ended on the panic: Close does not wait for it for ever.
	closed := make(chan error, 1)
	go func() { closed <- w.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(reportDeadline):
		t.Fatal("Close still waits for the watcher's goroutine after its panic")
	}
}
