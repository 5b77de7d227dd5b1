//go:build linux

package testagents

import (
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// ProcessWatch is a process a test expects to end: opened while it runs, so that its id
// reused by another process later is never mistaken for it.
type ProcessWatch struct {
	pid int
	fd  int // a pidfd, -1 when the process had ended already
}

// WatchProcess opens a watch on the running process pid (closed when the test ends).
func WatchProcess(t testing.TB, pid int) *ProcessWatch {
	t.Helper()
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return &ProcessWatch{pid: pid, fd: -1} // gone already
	}
	t.Cleanup(func() { unix.Close(fd) })
	return &ProcessWatch{pid: pid, fd: fd}
}

// WaitGone waits until the process has ended (a zombie counts), failing the test, and
// killing the process, when it still runs after within. A pidfd becomes readable when its
// process ends: the wait is on that event.
func (w *ProcessWatch) WaitGone(t testing.TB, within time.Duration) {
	t.Helper()
	if w.fd < 0 {
		return
	}
	fds := []unix.PollFd{{Fd: int32(w.fd), Events: unix.POLLIN}}
	n, err := unix.Poll(fds, int(within/time.Millisecond))
	for err == unix.EINTR { // a signal of the Go runtime's: wait again
		n, err = unix.Poll(fds, int(within/time.Millisecond))
	}
	if err != nil || n == 0 {
		_ = unix.PidfdSendSignal(w.fd, syscall.SIGKILL, nil, 0)
		t.Fatalf("process %d still runs after %s (%v)", w.pid, within, err)
	}
}
