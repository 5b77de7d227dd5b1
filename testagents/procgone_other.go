//go:build !linux

package testagents

import (
	"syscall"
	"testing"
	"time"
)

// ProcessWatch is a process a test expects to end.
type ProcessWatch struct{ pid int }

// WatchProcess watches the process pid. Without pidfds, its id is checked by signal 0:
// an id reused meanwhile would be taken for the process.
func WatchProcess(t testing.TB, pid int) *ProcessWatch { return &ProcessWatch{pid: pid} }

// WaitGone waits until the process has ended, failing the test (and killing it) when it
// still runs after within. Without an event to wait on, it looks every 10 ms.
func (w *ProcessWatch) WaitGone(t testing.TB, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for syscall.Kill(w.pid, 0) == nil {
		if time.Now().After(deadline) {
			_ = syscall.Kill(w.pid, syscall.SIGKILL)
			t.Fatalf("process %d still runs after %s", w.pid, within)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
