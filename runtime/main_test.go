package runtime

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	goruntime "runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// agentModeVar makes the test binary act as a small agent instead of running tests.
const agentModeVar = "RUNTIME_TEST_AGENT"

func TestMain(m *testing.M) {
	if mode := os.Getenv(agentModeVar); mode != "" {
		os.Exit(testAgent(mode))
	}
	os.Exit(m.Run())
}

// testAgent is a tiny line agent: it answers "init" with "ok", "ping" with "pong",
// "crash" by writing to stderr and exiting with status 3, and exits at the end of stdin.
// Modes change how it misbehaves.
func testAgent(mode string) int {
	out := bufio.NewWriter(os.Stdout)
	say := func(s string) {
		fmt.Fprintln(out, s)
		out.Flush()
	}
	switch mode {
	case "stubborn": // ignores SIGTERM and the end of stdin
		signal.Ignore(syscall.SIGTERM)
	case "grandchild": // leaves a grandchild that holds stdout and stderr open
		cmd := exec.Command("/bin/sh", "-c", "exec sleep 1000")
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Start(); err != nil {
			return 1
		}
		say(fmt.Sprintf("grandchild %d", cmd.Process.Pid))
	case "escapee": // leaves a process outside its group that holds stdout and stderr open
		cmd := exec.Command("/bin/sh", "-c", "exec sleep 1000")
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := cmd.Start(); err != nil {
			return 1
		}
		say(fmt.Sprintf("grandchild %d", cmd.Process.Pid))
	case "flood": // writes 100 MB on stderr, a part of it without any newline
		line := []byte(strings.Repeat("x", 99) + "\n")
		chunk := make([]byte, 0, 64<<10)
		for len(chunk)+len(line) <= cap(chunk) {
			chunk = append(chunk, line...)
		}
		long := make([]byte, 64<<10)
		for i := range long {
			long[i] = 'y'
		}
		written := 0
		for written < 100<<20 {
			c := chunk
			if written >= 40<<20 && written < 50<<20 {
				c = long // ten megabytes of one line
			}
			n, err := os.Stderr.Write(c)
			if err != nil {
				return 1
			}
			written += n
		}
		os.Stderr.WriteString("\nflood end\n")
		say("done")
	case "exit-at-once":
		fmt.Fprintln(os.Stderr, "cannot start: no model")
		return 7
	}
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		switch in.Text() {
		case "init":
			say("ok")
		case "ping":
			say("pong")
		case "env":
			say(os.Getenv("AGENT_TAG"))
		case "crash":
			for i := 1; i <= 15; i++ {
				fmt.Fprintf(os.Stderr, "panic line %d\n", i)
			}
			return 3
		}
	}
	if mode == "stubborn" {
		time.Sleep(time.Hour)
	}
	return 0
}

func goruntimeGOOS() string { return goruntime.GOOS }
