//go:build !linux

package runtime

import "syscall"

// Outside Linux there is no /proc to find an agent's processes in: only its process group
// is signalled, and what a killed Sidekicks left is not found.

type procInfo struct {
	pid   int
	start uint64
}

type taggedProcess struct {
	procInfo
	tag string
}

func processRunning(pid int, start uint64) bool                                   { return false }
func processStart(pid int) uint64                                                 { return 0 }
func allProcesses() []procInfo                                                    { return nil }
func taggedProcesses(all []procInfo, match func(tag string) bool) []taggedProcess { return nil }
func relatedProcesses(root int, tag string) []procInfo                            { return nil }
func signalProcess(p procInfo, sig syscall.Signal)                                {}
