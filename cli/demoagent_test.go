package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestDemoAgentFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--help"}, 0, "sidekicks demo-agent [--name NAME] [--delay DURATION]"},
		{[]string{"--bogus"}, 2, "flag provided but not defined"},
		{[]string{"--delay", "soon"}, 2, "invalid value"},
		{[]string{"--delay", "-1s"}, 2, "must not be negative"},
		{[]string{"extra"}, 2, "unexpected argument"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(append([]string{"demo-agent"}, tc.args...), &stdout, &stderr); code != tc.code {
			t.Errorf("%v: exit %d, want %d (stderr %q)", tc.args, code, tc.code, stderr.String())
		}
		// The usage asked for is the output; a mistake is said on stderr.
		said := stderr.String()
		if tc.code == 0 {
			said = stdout.String()
		}
		if !strings.Contains(said, tc.want) {
			t.Errorf("%v: %q lacks %q", tc.args, said, tc.want)
		}
	}
}

// demoProcess is `sidekicks demo-agent` running as a real child process.
type demoProcess struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
}

func startDemoProcess(t *testing.T, args ...string) *demoProcess {
	t.Helper()
	a, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SIDEKICKS_TEST_DEMO_AGENT=1", "SIDEKICKS_TEST_DEMO_ARGS="+string(a), "SIDEKICKS_DEMO_STATE="+t.TempDir())
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting the demo agent: %v", err)
	}
	p := &demoProcess{cmd: cmd, in: in, lines: make(chan string, 1024)}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	t.Cleanup(func() {
		in.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return p
}

func (p *demoProcess) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		t.Fatalf("writing to the demo agent: %v", err)
	}
}

// waitFor reads lines until one contains want, and returns the lines read.
func (p *demoProcess) waitFor(t *testing.T, want string) []string {
	t.Helper()
	var seen []string
	deadline := time.After(10 * time.Second)
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				t.Fatalf("output ended before %q; read %q", want, seen)
			}
			seen = append(seen, l)
			if strings.Contains(l, want) {
				return seen
			}
		case <-deadline:
			t.Fatalf("no %q within 10s; read %q", want, seen)
		}
	}
}

// wait returns the process's exit status.
func (p *demoProcess) wait(t *testing.T) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatalf("waiting for the demo agent: %v", err)
		}
		return 0
	case <-time.After(10 * time.Second):
		t.Fatal("the demo agent did not exit")
		return -1
	}
}

const (
	demoInit       = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`
	demoNewSession = `{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/tmp","mcpServers":[]}}`
)

func (p *demoProcess) openSession(t *testing.T) string {
	t.Helper()
	p.send(t, demoInit)
	p.waitFor(t, `"id":1`)
	p.send(t, demoNewSession)
	lines := p.waitFor(t, `"id":2`)
	var resp struct {
		Result struct {
			SessionID string `json:"sessionId"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &resp); err != nil || resp.Result.SessionID == "" {
		t.Fatalf("session/new answered %q (%v)", lines[len(lines)-1], err)
	}
	return resp.Result.SessionID
}

func promptLine(id int, session, text string) string {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "session/prompt",
		"params": map[string]any{"sessionId": session, "prompt": []any{map[string]any{"type": "text", "text": text}}}})
	return string(b)
}

func TestDemoAgentProcessAnswersAndExitsOnEOF(t *testing.T) {
	p := startDemoProcess(t, "--name", "Zed", "--delay", "0")
	sid := p.openSession(t)
	p.send(t, promptLine(3, sid, "hello in toml"))
	lines := p.waitFor(t, `"id":3`)
	all := strings.Join(lines, "\n")
	for _, want := range []string{`"text":"Zed, "`, "toml", `"stopReason":"end_turn"`} {
		if !strings.Contains(all, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	p.in.Close()
	if code := p.wait(t); code != 0 {
		t.Errorf("exit status %d after end of input, want 0", code)
	}
}

func TestDemoAgentProcessCrash(t *testing.T) {
	p := startDemoProcess(t, "--delay", "0")
	sid := p.openSession(t)
	p.send(t, promptLine(3, sid, "/crash"))
	p.waitFor(t, "Crashing")
	if code := p.wait(t); code != 3 {
		t.Errorf("exit status %d after /crash, want 3", code)
	}
}
