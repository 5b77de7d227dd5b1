//go:build linux

package runtime

import (
	"fmt"
	"os/exec"
	goruntime "runtime"
	"sync"
	"syscall"
)

// On Linux an agent dies with Sidekicks, even a Sidekicks killed by SIGKILL: the kernel
// sends it SIGKILL when its parent dies (Pdeathsig). "Parent" is the thread that forked
// it, not the process, so every agent is forked by one thread that lives as long as
// Sidekicks: the spawner goroutine, locked to its thread and never returning.

// spawnRequest is one start handed to the spawner.
type spawnRequest struct {
	cmd  *exec.Cmd
	done chan error
}

var spawner struct {
	once sync.Once
	reqs chan spawnRequest
}

// startCmd starts cmd from the spawner's thread, with Pdeathsig.
func startCmd(cmd *exec.Cmd) error {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	spawner.once.Do(func() {
		spawner.reqs = make(chan spawnRequest)
		// Not started through a guard: it never returns (its thread must outlive every
		// child), and a panic of a start is recovered into that start's error.
		go spawnLoop(spawner.reqs)
	})
	req := spawnRequest{cmd: cmd, done: make(chan error, 1)}
	spawner.reqs <- req
	return <-req.done
}

// spawnLoop runs the starts, on a thread it never leaves: unlocking or returning would
// end the thread, and with it every child it started.
func spawnLoop(reqs <-chan spawnRequest) {
	goruntime.LockOSThread()
	for req := range reqs { // never closed
		req.done <- startRecovered(req.cmd)
	}
}

func startRecovered(cmd *exec.Cmd) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("starting %q: %v", cmd.Path, r)
		}
	}()
	return cmd.Start()
}
