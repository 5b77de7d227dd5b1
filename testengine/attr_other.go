//go:build !linux

package testengine

import "syscall"

// engineAttr starts an engine in a process group of its own.
func engineAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
