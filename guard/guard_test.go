package guard_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/guard"
	"git.rickub.com/bots-garden/sidekicks/guard/guardtest"
)

// A plain starter type, as a package that does not import guard declares it, converts
// both ways.
var (
	_ guard.Go                     = func(name string, fn func()) {}
	_ func(string, func())         = guard.Go(nil)
	_ guard.Go                     = guard.Plain
	_ guard.Go                     = guardtest.New().Go
	_ func(name string, fn func()) = guard.Go(guard.Plain)
)

func TestNilStartsWithAPlainGoStatement(t *testing.T) {
	var g guard.Go
	done := make(chan struct{})
	g.Start("test", func() { close(done) })
	waitClosed(t, done, "the goroutine")
}

func TestStartGoesThroughTheStarter(t *testing.T) {
	rec := guardtest.New()
	ran := make(chan struct{})
	guard.Go(rec.Go).Start("store writer", func() { close(ran) })
	waitClosed(t, ran, "the goroutine")
	if got := rec.Started(); len(got) != 1 || got[0] != "store writer" {
		t.Fatalf("started %q, want [store writer]", got)
	}
}

func TestCallWaitsForTheEndOfItsWork(t *testing.T) {
	rec := guardtest.New()
	var mu sync.Mutex
	done := false
	guard.Go(rec.Go).Call("idle timer", func() {
		mu.Lock()
		done = true
		mu.Unlock()
	})
	mu.Lock()
	defer mu.Unlock()
	if !done {
		t.Fatal("Call returned before its work ended")
	}
	if got := rec.Started(); len(got) != 1 || got[0] != "idle timer" {
		t.Fatalf("started %q, want [idle timer]", got)
	}
}

func TestCallReturnsAfterAPanicTheGuardRecovered(t *testing.T) {
	rec := guardtest.New()
	guard.Go(rec.Go).Call("idle timer", func() { panic("timer exploded") })
	p := rec.WaitPanic(t, "idle timer")
	if p.Value != "timer exploded" {
		t.Errorf("value %v, want the panic's", p.Value)
	}
	if !strings.Contains(p.Stack, "goroutine ") || !strings.Contains(p.Stack, "guard_test.") {
		t.Errorf("the stack lacks the panicking function:\n%s", p.Stack)
	}
}

// waitClosed waits for ch to be closed, failing the test after guardtest.Deadline.
func waitClosed(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(guardtest.Deadline):
		t.Fatalf("timed out waiting for %s", what)
	}
}
