//go:build linux

package runtime

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A grandchild in a session of its own carries the agent's tag: a clean stop ends it.
func TestStopEndsAGrandchildInItsOwnSession(t *testing.T) {
	a := testAgentConfig(t, "alice", "escapee")
	p := startTestProcess(t, a, nil, fastGrace)
	grandchild := readGrandchild(t, bufio.NewReader(p.Stdout))
	t.Cleanup(func() { _ = syscall.Kill(grandchild, syscall.SIGKILL) })
	stopWithin(t, p)
	processGone(t, grandchild)
}

// The agent dies with Sidekicks, not with the thread that happened to start it: a
// goroutine locked to a thread that ends when it returns starts the agent, which must
// still answer once that thread is gone.
func TestAgentOutlivesTheThreadThatStartedIt(t *testing.T) {
	a := testAgentConfig(t, "alice", "plain")
	started := make(chan *Process, 1)
	tid := make(chan int, 1)
	// The main thread never ends (Go wedges it): the goroutine that lands on it holds it
	// for the test, and another tries.
	release := make(chan struct{})
	defer close(release)
	var start func()
	start = func() {
		goruntime.LockOSThread() // never unlocked: the thread ends with this goroutine
		if syscall.Gettid() == os.Getpid() {
			go start()
			<-release
			goruntime.UnlockOSThread()
			return
		}
		tid <- syscall.Gettid()
		p, err := StartProcess(ProcessOptions{Path: a.CommandPath, Dir: a.Workspace, Env: envList(a.Env), Grace: fastGrace})
		if err != nil {
			t.Error(err)
		}
		started <- p
	}
	go start()
	thread, p := <-tid, <-started
	if p == nil {
		t.FailNow()
	}
	t.Cleanup(func() { p.Stop() })
	task := "/proc/self/task/" + strconv.Itoa(thread)
	end := time.Now().Add(deadline)
	for {
		if _, err := os.Stat(task); errors.Is(err, os.ErrNotExist) {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("thread %d did not end", thread)
		}
		time.Sleep(10 * time.Millisecond) // no event tells that a thread ended
	}
	if _, err := io.WriteString(p.Stdin, "ping\n"); err != nil {
		t.Fatalf("the agent is gone with the thread that started it: %v", err)
	}
	answer := make(chan string, 1)
	go func() {
		l, _ := bufio.NewReader(p.Stdout).ReadString('\n')
		answer <- strings.TrimSpace(l)
	}()
	select {
	case l := <-answer:
		if l != "pong" {
			t.Fatalf("the agent answered %q (it died with the thread that started it: %s)", l, p.Wait())
		}
	case <-time.After(deadline):
		t.Fatal("no answer")
	}
}

// While its process runs, the record names it in a file this Sidekicks keeps locked; the
// file goes once no process runs.
func TestRecordHoldsTheRunningProcesses(t *testing.T) {
	dir := t.TempDir()
	RecordProcesses(dir, func(f string, args ...any) { t.Errorf("record: "+f, args...) })
	t.Cleanup(func() { RecordProcesses("", nil) })
	a := testAgentConfig(t, "alice", "plain")
	p, err := StartProcess(ProcessOptions{Path: a.CommandPath, Dir: a.Workspace, Env: envList(a.Env), Grace: fastGrace, Name: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	path := recordPath(dir, instanceToken())
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rf recordFile
	if err := json.Unmarshal(b, &rf); err != nil || len(rf.Processes) != 1 {
		t.Fatalf("the record holds %s (%v)", b, err)
	}
	got := rf.Processes[0]
	if got.Pid != p.Pid || got.Agent != "alice" || got.Tag != p.tag || !processRunning(got.Pid, got.Start) {
		t.Errorf("recorded %+v for pid %d tagged %s", got, p.Pid, p.tag)
	}
	// Another Sidekicks cannot take the lock: it knows this one runs.
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); !errors.Is(err, syscall.EWOULDBLOCK) {
		t.Errorf("locking the record of a running Sidekicks: %v, want EWOULDBLOCK", err)
	}
	f.Close()
	stopWithin(t, p)
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the record is still there once no process runs: %v", err)
	}
}

// startTagged starts the test binary as a stubborn agent (SIGTERM ignored) tagged tag
// ("" for none), reaped by the test.
func startTagged(t *testing.T, tag string) procInfo {
	t.Helper()
	a := testAgentConfig(t, "leftover", "stubborn")
	cmd := exec.Command(a.CommandPath)
	cmd.Env = append(os.Environ(), envList(a.Env)...)
	if tag != "" {
		cmd.Env = append(cmd.Env, ProcessTagEnv+"="+tag)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Reaped as soon as it ends.
	reaped := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(reaped)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-reaped
	})
	end := time.Now().Add(deadline)
	for {
		if p, ok := procStat(cmd.Process.Pid); ok && (tag == "" || processTag(p.pid) == tag) {
			return p
		}
		if time.Now().After(end) {
			t.Fatal("the process did not start")
		}
		time.Sleep(10 * time.Millisecond) // its environment is readable once it has exec'ed
	}
}

func writeTestRecord(t *testing.T, path string, procs ...recordedProcess) {
	t.Helper()
	b, _ := json.Marshal(recordFile{Owner: 1, Processes: procs})
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// A start stops what a dead Sidekicks left (by its tag, through SIGKILL when SIGTERM is
// ignored), and nothing else: not a process that a forged or stale record names without
// its tag, not the processes of a Sidekicks that still runs.
func TestStopLeftoversStopsOnlyWhatDeadSidekicksLeft(t *testing.T) {
	dir := t.TempDir()
	const dead, live = "0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210"
	left := startTagged(t, dead+"-1")
	child := startTagged(t, dead+"-1") // what the agent started, never recorded
	stranger := startTagged(t, "")
	other := startTagged(t, live+"-1")
	writeTestRecord(t, recordPath(dir, dead),
		recordedProcess{Pid: left.pid, Start: left.start, Tag: dead + "-1", Agent: "alice"},
		// An id the dead Sidekicks recorded, now another process's: not its tag.
		recordedProcess{Pid: stranger.pid, Start: stranger.start, Tag: dead + "-2", Agent: "bob"})
	livePath := recordPath(dir, live)
	writeTestRecord(t, livePath, recordedProcess{Pid: other.pid, Start: other.start, Tag: live + "-1", Agent: "carol"})
	lock, err := os.Open(livePath)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}

	stopped := StopLeftovers(dir, 100*time.Millisecond)
	got := map[int]string{}
	for _, l := range stopped {
		got[l.Pid] = l.Agent
	}
	if len(got) != 2 || got[left.pid] != "alice" || got[child.pid] != "alice" {
		t.Errorf("stopped %+v, want pids %d and %d of alice", stopped, left.pid, child.pid)
	}
	processGone(t, left.pid)
	processGone(t, child.pid)
	for _, p := range []procInfo{stranger, other} {
		if !processRunning(p.pid, p.start) {
			t.Errorf("process %d, not a leftover, was stopped", p.pid)
		}
	}
	if _, err := os.Stat(recordPath(dir, dead)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the dead Sidekicks' record is still there: %v", err)
	}
	if _, err := os.Stat(livePath); err != nil {
		t.Errorf("the running Sidekicks' record was removed: %v", err)
	}
}

// A record that is not a regular file, or is cut short, neither blocks nor stops a start;
// a cut record's token still finds what its Sidekicks left.
func TestStopLeftoversSurvivesBadRecords(t *testing.T) {
	dir := t.TempDir()
	const token = "00112233445566778899aabbccddeeff"
	if err := syscall.Mkfifo(filepath.Join(dir, "99999999999999999999999999999999.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	left := startTagged(t, token+"-3")
	if err := os.WriteFile(recordPath(dir, token), []byte(`{"owner":12,"processes":[{"pid":`), 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan []Leftover, 1)
	go func() { done <- StopLeftovers(dir, 100*time.Millisecond) }()
	select {
	case stopped := <-done:
		if len(stopped) != 1 || stopped[0].Pid != left.pid {
			t.Errorf("stopped %+v, want pid %d", stopped, left.pid)
		}
	case <-time.After(deadline):
		t.Fatal("StopLeftovers hangs on a named pipe")
	}
	processGone(t, left.pid)
}
