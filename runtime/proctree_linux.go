//go:build linux

package runtime

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// This file finds, through /proc, the processes that belong to an agent: those that
// descend from it (PPid links) and those that carry its tag in their environment, which a
// process keeps when it leaves the agent's session (setsid) or loses its parent.

// procInfo is what identifies a process: its id and its start time, which differ for
// a process that reuses the id.
type procInfo struct {
	pid   int
	ppid  int
	start uint64 // clock ticks after boot (field 22 of /proc/PID/stat)
}

// procStat reads a process's parent and start time; ok is false when it is gone or a zombie
// (which holds nothing but its exit status).
func procStat(pid int) (procInfo, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procInfo{}, false
	}
	// The command name, in parentheses, may hold anything: the fields follow its last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procInfo{}, false
	}
	f := bytes.Fields(b[i+1:])
	// f[0] is field 3 (state), f[1] field 4 (ppid), f[19] field 22 (starttime).
	if len(f) < 20 || f[0][0] == 'Z' || f[0][0] == 'X' {
		return procInfo{}, false
	}
	ppid, err1 := strconv.Atoi(string(f[1]))
	start, err2 := strconv.ParseUint(string(f[19]), 10, 64)
	if err1 != nil || err2 != nil {
		return procInfo{}, false
	}
	return procInfo{pid: pid, ppid: ppid, start: start}, true
}

// processRunning reports whether the process pid runs and started at start.
func processRunning(pid int, start uint64) bool {
	p, ok := procStat(pid)
	return ok && p.start == start
}

// processStart returns the start time of a running process (0 when it is gone).
func processStart(pid int) uint64 {
	p, _ := procStat(pid)
	return p.start
}

// allProcesses lists the running processes.
func allProcesses() []procInfo {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	var out []procInfo
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil || pid <= 0 {
			continue
		}
		if p, ok := procStat(pid); ok {
			out = append(out, p)
		}
	}
	return out
}

// processTag returns the value of the process's tag variable (ProcessTagEnv), "" when it
// has none or cannot be read (gone, or another user's). The environment is read one
// variable at a time: a huge one costs no memory.
func processTag(pid int) string {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return ""
	}
	defer f.Close()
	prefix := []byte(ProcessTagEnv + "=")
	r := bufio.NewReaderSize(f, 4<<10)
	for {
		kv, err := r.ReadSlice(0)
		if errors.Is(err, bufio.ErrBufferFull) {
			// Longer than any tag: skip to the end of this variable.
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice(0)
			}
			if err != nil {
				return ""
			}
			continue
		}
		if v, ok := bytes.CutPrefix(bytes.TrimSuffix(kv, []byte{0}), prefix); ok {
			return string(v)
		}
		if err != nil {
			return ""
		}
	}
}

// taggedProcess is a running process and its tag.
type taggedProcess struct {
	procInfo
	tag string
}

// taggedProcesses returns the running processes whose tag match accepts (never Sidekicks
// itself).
func taggedProcesses(all []procInfo, match func(tag string) bool) []taggedProcess {
	self := os.Getpid()
	var out []taggedProcess
	for _, p := range all {
		if p.pid == self {
			continue
		}
		if tag := processTag(p.pid); tag != "" && match(tag) {
			out = append(out, taggedProcess{p, tag})
		}
	}
	return out
}

// relatedProcesses returns the processes that belong to the process root, tagged tag: its
// descendants through PPid links (none when root is 0), and every process that carries
// the tag (never Sidekicks itself). The caller signals them all: collecting first finds a
// child before its parent's death hands it to another.
func relatedProcesses(root int, tag string) []procInfo {
	all := allProcesses()
	self := os.Getpid()
	children := map[int][]procInfo{}
	for _, p := range all {
		children[p.ppid] = append(children[p.ppid], p)
	}
	found := map[int]bool{root: true, self: true}
	var out []procInfo
	for queue := []int{root}; root > 0 && len(queue) > 0; queue = queue[1:] {
		for _, c := range children[queue[0]] {
			if !found[c.pid] {
				found[c.pid] = true
				out = append(out, c)
				queue = append(queue, c.pid)
			}
		}
	}
	for _, p := range taggedProcesses(all, func(t string) bool { return t == tag }) {
		if !found[p.pid] {
			found[p.pid] = true
			out = append(out, p.procInfo)
		}
	}
	return out
}

// signalProcess sends sig to p unless its id now names another process: the check and the
// signal go through a pidfd, which keeps naming the process it was opened on.
func signalProcess(p procInfo, sig syscall.Signal) {
	fd, err := unix.PidfdOpen(p.pid, 0)
	if err != nil {
		if errors.Is(err, unix.ENOSYS) && processRunning(p.pid, p.start) {
			_ = syscall.Kill(p.pid, sig) // a kernel before 5.3: the check, then the signal
		}
		return
	}
	defer unix.Close(fd)
	if processRunning(p.pid, p.start) {
		_ = unix.PidfdSendSignal(fd, sig, nil, 0)
	}
}
