package runtime

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/config"
)

// startTestProcess starts the test binary as an agent in a mode.
func startTestProcess(t *testing.T, a config.Agent, log *AgentLog, grace StopGrace) *Process {
	t.Helper()
	p, err := StartProcess(ProcessOptions{Path: a.CommandPath, Dir: a.Workspace, Env: envList(a.Env), Log: log, Grace: grace})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Stop() })
	return p
}

// stopWithin stops a process, failing the test if that hangs.
func stopWithin(t *testing.T, p *Process) ExitStatus {
	t.Helper()
	done := make(chan ExitStatus, 1)
	go func() { done <- p.Stop() }()
	select {
	case st := <-done:
		return st
	case <-time.After(deadline):
		t.Fatal("Stop hangs")
		return ExitStatus{}
	}
}

func readGrandchild(t *testing.T, r *bufio.Reader) int {
	t.Helper()
	line, err := r.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	if _, err := fmt.Sscanf(line, "grandchild %d", &pid); err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	return pid
}

func TestStopKillsTheProcessGroup(t *testing.T) {
	a := testAgentConfig(t, "alice", "grandchild")
	p := startTestProcess(t, a, nil, fastGrace)
	out := bufio.NewReader(p.Stdout)
	grandchild := readGrandchild(t, out)
	st := stopWithin(t, p)
	if st.Code != 0 || st.Signal != "" {
		t.Errorf("the agent ended with %s, want exit status 0 (it leaves at the end of stdin)", st)
	}
	processGone(t, grandchild)
	// Our end of stdout reaches its end instead of hanging.
	if _, err := io.ReadAll(out); err != nil {
		t.Errorf("reading the rest of stdout: %v", err)
	}
}

func TestStopEscalatesToSIGKILL(t *testing.T) {
	a := testAgentConfig(t, "alice", "stubborn")
	p := startTestProcess(t, a, nil, fastGrace)
	in := bufio.NewReader(p.Stdout)
	if _, err := io.WriteString(p.Stdin, "ping\n"); err != nil {
		t.Fatal(err)
	}
	if l, _ := in.ReadString('\n'); strings.TrimSpace(l) != "pong" { // SIGTERM is ignored from here
		t.Fatalf("answer %q", l)
	}
	if st := stopWithin(t, p); st.Signal != "killed" {
		t.Errorf("ended with %s, want killed", st)
	}
}

// A grandchild that left the process group still holds the pipes: Sidekicks closes its
// own ends so that readers see the end.
func TestStopDoesNotHangOnAnEscapedGrandchild(t *testing.T) {
	a := testAgentConfig(t, "alice", "escapee")
	p := startTestProcess(t, a, nil, fastGrace)
	out := bufio.NewReader(p.Stdout)
	grandchild := readGrandchild(t, out)
	defer syscall.Kill(grandchild, syscall.SIGKILL)
	stopWithin(t, p)
	read := make(chan error, 1)
	go func() {
		_, err := io.ReadAll(out)
		read <- err
	}()
	select {
	case err := <-read:
		if err != nil {
			t.Errorf("reading stdout: %v", err)
		}
	case <-time.After(deadline):
		t.Fatal("stdout reader still blocked")
	}
}

// 100 MB on stderr, 10 MB of it on one line: the agent is never blocked, memory stays
// small, and the log keeps bounded lines.
func TestStderrFloodNeitherBlocksNorGrowsMemory(t *testing.T) {
	a := testAgentConfig(t, "alice", "flood")
	dir := t.TempDir()
	logs := NewLogs(LogsOptions{Dir: dir, Lines: 500, FileSize: 1 << 20})
	log := logs.Agent("alice")
	goruntime.GC()
	var before goruntime.MemStats
	goruntime.ReadMemStats(&before)

	peak := make(chan uint64, 1)
	stop := make(chan struct{})
	go func() {
		var max uint64
		var ms goruntime.MemStats
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			goruntime.ReadMemStats(&ms)
			if ms.HeapInuse > max {
				max = ms.HeapInuse
			}
			select {
			case <-stop:
				peak <- max
				return
			case <-tick.C:
			}
		}
	}()
	p := startTestProcess(t, a, log, fastGrace)
	done := make(chan string, 1)
	go func() {
		l, _ := bufio.NewReader(p.Stdout).ReadString('\n')
		done <- strings.TrimSpace(l)
	}()
	select {
	case l := <-done:
		if l != "done" {
			t.Fatalf("stdout said %q", l)
		}
	case <-time.After(4 * deadline): // a hang detector: generous under -race on a loaded machine
		t.Fatal("the agent is blocked writing its stderr")
	}
	stopWithin(t, p)
	close(stop)
	grown := int64(<-peak) - int64(before.HeapInuse)
	if grown > 48<<20 {
		t.Errorf("heap grew by %d MB during the flood", grown>>20)
	}
	lines := log.Lines()
	if len(lines) != 500 {
		t.Errorf("%d lines kept, want 500", len(lines))
	}
	if last := lines[len(lines)-1].Text; last != "flood end" {
		t.Errorf("last line %q", last)
	}
	for _, l := range lines {
		if len(l.Text) > MaxLogLine+len("…") {
			t.Fatalf("a line of %d bytes was kept", len(l.Text))
		}
	}
	logs.Flush()
	assertLogFilesBounded(t, dir, "alice", 1<<20)
}

func TestMinimalEnvKeepsOnlyWhatAProgramNeeds(t *testing.T) {
	t.Setenv("SIDEKICKS_TEST_SECRET", "s3cret")
	t.Setenv("LC_TIME", "fr_FR.UTF-8")
	t.Setenv("TERM", "xterm")
	out := filepath.Join(t.TempDir(), "env")
	for _, minimal := range []bool{false, true} {
		p, err := StartProcess(ProcessOptions{Path: "/bin/sh", Args: []string{"-c", `env > "$0"`, out}, Env: []string{"OWN=mine"}, MinimalEnv: minimal})
		if err != nil {
			t.Fatal(err)
		}
		select {
		case <-p.Done():
		case <-time.After(deadline):
			t.Fatal("the process did not end")
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		env := "\n" + string(data)
		for _, want := range []string{"\nOWN=mine\n", "\nLC_TIME=fr_FR.UTF-8\n", "\nTERM=xterm\n", "\nPATH="} {
			if !strings.Contains(env, want) {
				t.Errorf("minimal %v: the environment lacks %q:%s", minimal, strings.TrimSpace(want), env)
			}
		}
		if got := strings.Contains(env, "\nSIDEKICKS_TEST_SECRET=s3cret\n"); got == minimal {
			t.Errorf("minimal %v: the user's own variable is passed: %v", minimal, got)
		}
	}
	if got := MinimalEnviron([]string{"PATH=/bin", "AWS_SECRET_ACCESS_KEY=k", "LC_ALL=C", "HOME=/h", "PATHX=1", "USER=u", "SHELL=/bin/sh", "TMPDIR=/t", "LANG=C"}); strings.Join(got, " ") != "PATH=/bin LC_ALL=C HOME=/h USER=u SHELL=/bin/sh TMPDIR=/t LANG=C" {
		t.Errorf("MinimalEnviron kept %q", got)
	}
}
