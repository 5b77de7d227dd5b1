package acp_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/demoagent"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// agentEnv selects, in a re-executed test binary, which agent to be.
const agentEnv = "ACP_TEST_AGENT"

// testDeadline bounds every wait of a test.
const testDeadline = 60 * time.Second

func TestMain(m *testing.M) {
	// The misbehaving agents shared with the other packages (testagents.ModeEntry).
	testagents.RunIfAgent()
	switch os.Getenv(agentEnv) {
	case "":
		os.Exit(m.Run())
	case "demo":
		err := demoagent.Run(context.Background(), os.Stdin, os.Stdout, demoagent.Options{
			Name:     os.Getenv("ACP_TEST_NAME"),
			StateDir: os.Getenv("ACP_TEST_STATE"),
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	case "sleeper":
		// A grandchild that keeps the agent's stdout open.
		time.Sleep(time.Hour)
		os.Exit(0)
	default:
		runChild(os.Getenv(agentEnv))
		os.Exit(0)
	}
}

// agentProc is an agent process started for a test.
type agentProc struct {
	cmd    *exec.Cmd
	stdin  *os.File // our end of the agent's stdin
	stdout *os.File // our end of the agent's stdout
	exited chan struct{}
	err    error
}

// startProcess starts the test binary as the agent behaviour, in its own process group.
// Its stderr is drained to io.Discard, as a process owner would.
func startProcess(t testing.TB, behaviour string, env ...string) *agentProc {
	t.Helper()
	return startCommand(t, exec.Command(os.Args[0]), append([]string{agentEnv + "=" + behaviour}, env...)...)
}

func startCommand(t testing.TB, cmd *exec.Cmd, env ...string) *agentProc {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	inR.Close()
	outW.Close()
	errW.Close()
	go func() {
		io.Copy(io.Discard, errR)
		errR.Close()
	}()
	p := &agentProc{cmd: cmd, stdin: inW, stdout: outR, exited: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		select {
		case <-p.exited:
		case <-time.After(testDeadline):
			t.Errorf("agent process %d did not exit after SIGKILL", cmd.Process.Pid)
		}
		inW.Close()
		outR.Close()
	})
	return p
}

// connect starts a connection to the process.
func connect(t testing.TB, p *agentProc, opts acp.Options) *acp.Conn {
	t.Helper()
	c := acp.NewConn("tester", p.stdout, p.stdin, opts)
	t.Cleanup(func() { c.Close() })
	return c
}

// startAgent starts a test agent, connects and initializes.
func startAgent(t testing.TB, behaviour string, opts acp.Options, env ...string) (*acp.Conn, *acp.AgentInfo) {
	t.Helper()
	c := connect(t, startProcess(t, behaviour, env...), opts)
	ctx, cancel := context.WithTimeout(context.Background(), testDeadline)
	defer cancel()
	info, err := c.Initialize(ctx)
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	return c, info
}

// testContext is a context with the test deadline.
func testContext(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), testDeadline)
	t.Cleanup(cancel)
	return ctx
}

// workspaceDir makes a workspace folder (symbolic links resolved, so that paths compare).
func workspaceDir(t testing.TB) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(dir, "ws")
	if err := os.Mkdir(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	return ws
}

// readLines reads a text file's lines.
func readLines(t testing.TB, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// hasControl reports whether s holds an escape or other control byte, or a C1 or
// bidirectional control.
func hasControl(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			return true
		}
	}
	return strings.ContainsRune(s, 0x1b)
}

// waitFor waits for ch to close, failing the test after the deadline.
func waitFor(t testing.TB, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(testDeadline):
		t.Fatalf("timed out waiting for %s", what)
	}
}
