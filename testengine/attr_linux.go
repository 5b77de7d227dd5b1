package testengine

import "syscall"

// engineAttr starts an engine in a process group of its own, which dies with the test
// binary, should that be killed before its cleanup.
func engineAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}
