// Package guardtest owns a guard for tests: a Recorder starts goroutines the way a
// guard.Go does, records their names, and recovers their panics with their stacks, so
// that a test can check that a package starts its goroutines through the guard it was
// given, and that a panic there reaches that guard.
package guardtest

import (
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"
)

// Deadline bounds every wait of a Recorder.
const Deadline = 30 * time.Second

// Panic is a panic a Recorder recovered.
type Panic struct {
	// Name is the name the goroutine was started with.
	Name string
	// Value is what was given to panic.
	Value any
	// Stack is the stack of the goroutine, taken where the panic was recovered.
	Stack string
}

// Recorder is a guard for tests. Its Go method is a guard.Go; the zero Recorder is not
// usable: make one with New.
type Recorder struct {
	mu      sync.Mutex
	started []string
	panics  []Panic
	changed chan struct{} // closed and replaced at each change
}

// New returns a Recorder that has started nothing.
func New() *Recorder {
	return &Recorder{changed: make(chan struct{})}
}

// Go records name and starts fn on a new goroutine; a panic of fn is recovered and
// recorded with the stack, and the goroutine ends.
func (r *Recorder) Go(name string, fn func()) {
	r.change(func() { r.started = append(r.started, name) })
	go func() {
		defer func() {
			if v := recover(); v != nil {
				p := Panic{Name: name, Value: v, Stack: string(debug.Stack())}
				r.change(func() { r.panics = append(r.panics, p) })
			}
		}()
		fn()
	}()
}

// change applies f under the lock and wakes the waiters.
func (r *Recorder) change(f func()) {
	r.mu.Lock()
	f()
	close(r.changed)
	r.changed = make(chan struct{})
	r.mu.Unlock()
}

// Started returns the names of the goroutines started so far, in order.
func (r *Recorder) Started() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.started...)
}

// Panics returns the panics recovered so far, in order.
func (r *Recorder) Panics() []Panic {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Panic(nil), r.panics...)
}

// WaitStarted waits until a goroutine named name has been started, and fails the test
// after Deadline.
func (r *Recorder) WaitStarted(t testing.TB, name string) {
	t.Helper()
	r.wait(t, "a goroutine named "+name, func() bool {
		for _, n := range r.started {
			if n == name {
				return true
			}
		}
		return false
	})
}

// WaitPanic waits until a goroutine whose name starts with prefix has panicked, returns
// that panic, and fails the test after Deadline.
func (r *Recorder) WaitPanic(t testing.TB, prefix string) Panic {
	t.Helper()
	var found Panic
	r.wait(t, "a panic of a goroutine named "+prefix+"…", func() bool {
		for _, p := range r.panics {
			if strings.HasPrefix(p.Name, prefix) {
				found = p
				return true
			}
		}
		return false
	})
	return found
}

// wait waits until cond, called under the lock, holds; it fails the test after Deadline,
// saying what it waited for and which goroutines were started.
func (r *Recorder) wait(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.NewTimer(Deadline)
	defer deadline.Stop()
	for {
		r.mu.Lock()
		ok, changed := cond(), r.changed
		r.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-changed:
		case <-deadline.C:
			t.Fatalf("timed out waiting for %s; started: %q", what, r.Started())
		}
	}
}
