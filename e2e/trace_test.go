package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// traceConfig writes a configuration with three demo agents (this build of sidekicks,
// run as demo-agent, streaming without pauses): carol, first in the Agent menu and in no
// channel, and alice and bob, the members of the declared channel #général.
func traceConfig(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("version: 1\nagents:\n")
	for _, a := range []struct{ name, title, icon string }{{"carol", "Carol", "C"}, {"alice", "Alice", "A"}, {"bob", "Bob", "B"}} {
		fmt.Fprintf(&b, "  - name: %s\n    title: %s\n    icon: %s\n    command: %q\n    args: [demo-agent, --name, %s, --delay, \"0\"]\n",
			a.name, a.title, a.icon, binary, a.title)
	}
	b.WriteString("channels:\n  - name: général\n    description: Two demo agents\n    agents: [alice, bob]\n")
	path := filepath.Join(dir, "sidekicks.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// talkToCarol opens carol's window from the Agent menu and has one turn with her.
func talkToCarol(t *testing.T, term *terminal) {
	t.Helper()
	term.keys("M-a")
	term.waitFor("Agent status", appWait)
	term.keys("Enter")
	waitFocus(t, term, "C Carol")
	term.typeText("hello carol")
	term.keys("Enter")
	term.waitFor("I am Carol, a demo agent", appWait)
	waitUntil(t, term, "carol's turn over", turnOver)
}

// traceLineRE is one line of the trace: a timestamp, the agent, the direction, the line.
var traceLineRE = regexp.MustCompile(`^(\S+) (\S+) (->|<-) (.*)$`)

// tracedMessage is one line of the trace, its JSON decoded.
type tracedMessage struct {
	when   time.Time
	agent  string
	sent   bool
	method string
	id     string
	raw    string
	result json.RawMessage
}

// readTrace reads the trace file and checks every line's form: an RFC 3339 timestamp with
// microseconds, in time order, an agent, an arrow, and a JSON-RPC message (the demo agent
// writes nothing else).
func readTrace(t *testing.T, path string) []tracedMessage {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the trace file: %v", err)
	}
	if len(data) == 0 || data[len(data)-1] != '\n' {
		t.Fatalf("the trace does not end with a whole line (%d bytes)", len(data))
	}
	var out []tracedMessage
	var last time.Time
	for i, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		m := traceLineRE.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("line %d is not TIMESTAMP AGENT ARROW MESSAGE: %.120q", i+1, l)
		}
		when, err := time.Parse(time.RFC3339Nano, m[1])
		if err != nil || !regexp.MustCompile(`T\d\d:\d\d:\d\d\.\d{6}(Z|[+-])`).MatchString(m[1]) {
			t.Fatalf("line %d: timestamp %q is not RFC 3339 with microseconds", i+1, m[1])
		}
		if when.Before(last) {
			t.Errorf("line %d: time goes back (%s after %s)", i+1, m[1], last.Format(time.RFC3339Nano))
		}
		last = when
		var msg struct {
			JSONRPC string          `json:"jsonrpc"`
			Method  string          `json:"method"`
			ID      json.RawMessage `json:"id"`
			Result  json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal([]byte(m[4]), &msg); err != nil {
			t.Fatalf("line %d: not a JSON message: %v\n%.200s", i+1, err, m[4])
		}
		if msg.JSONRPC != "2.0" {
			t.Errorf("line %d: not JSON-RPC 2.0: %.200s", i+1, m[4])
		}
		out = append(out, tracedMessage{when: when, agent: m[2], sent: m[3] == "->", method: msg.Method,
			id: string(msg.ID), raw: m[4], result: msg.Result})
	}
	return out
}

// TestTraceInTerminal runs the application with SIDEKICKS_ACP_TRACE, talks to an agent
// window and to a channel of two agents, and checks the trace line by line: every
// connection appends to the one file, both directions, each agent named.
func TestTraceInTerminal(t *testing.T) {
	env := append(isolate(t), "SIDEKICKS_DEMO_STATE="+t.TempDir())
	dir := t.TempDir()
	cfg := traceConfig(t, dir)
	tracePath := filepath.Join(t.TempDir(), "acp.trace")
	// An earlier run's line stays: the trace is appended to.
	earlier := "2026-01-01T00:00:00.000000Z earlier -> {\"jsonrpc\":\"2.0\",\"method\":\"before\"}\n"
	if err := os.WriteFile(tracePath, []byte(earlier), 0o600); err != nil {
		t.Fatal(err)
	}
	env = append(env, "SIDEKICKS_ACP_TRACE="+tracePath)

	term := startTerminal(t, env, dir, 140, 60, binary, "--config", cfg)
	waitFocus(t, term, "#général")
	term.waitFor("Two demo agents", appWait)

	// The channel: both members answer.
	term.typeText("@alice @bob hello channel")
	term.keys("Enter")
	term.waitFor("I am Alice, a demo agent", appWait)
	term.waitFor("I am Bob, a demo agent", appWait)
	waitUntil(t, term, "both turns over", func(s string) bool {
		return strings.Count(s, "to see my commands.") == 2 && idle(s)
	})
	// An agent window.
	talkToCarol(t, term)

	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Fatalf("exit status %d; the screen shows:\n%s", code, term.screen())
	}

	msgs := readTrace(t, tracePath)
	if len(msgs) == 0 || msgs[0].agent != "earlier" {
		t.Fatalf("the earlier run's line is gone: the trace was not appended to")
	}
	msgs = msgs[1:]
	type seen struct {
		sent, received                  int
		initialize, sessionNew, prompt  string // the prompt's text, for session/prompt
		initialized, updates, promptEnd bool
	}
	agents := map[string]*seen{}
	ids := map[string]string{} // agent + id of Sidekicks' requests → method
	for i, m := range msgs {
		a := agents[m.agent]
		if a == nil {
			if m.agent != "alice" && m.agent != "bob" && m.agent != "carol" {
				t.Fatalf("line %d names the agent %q", i+2, m.agent)
			}
			a = &seen{}
			agents[m.agent] = a
		}
		if m.sent {
			a.sent++
			if m.method != "" && m.id != "" {
				ids[m.agent+" "+m.id] = m.method
			}
			switch m.method {
			case "initialize":
				a.initialize = m.raw
			case "session/new":
				a.sessionNew = m.raw
			case "session/prompt":
				a.prompt += m.raw
			}
			continue
		}
		a.received++
		switch {
		case m.method == "session/update":
			a.updates = true
		case m.method == "" && m.result != nil:
			switch ids[m.agent+" "+m.id] {
			case "initialize":
				a.initialized = strings.Contains(string(m.result), `"protocolVersion":1`)
			case "session/prompt":
				a.promptEnd = strings.Contains(string(m.result), `"stopReason":"end_turn"`)
			}
		}
	}
	for _, want := range []struct{ agent, said string }{{"alice", "hello channel"}, {"bob", "hello channel"}, {"carol", "hello carol"}} {
		a := agents[want.agent]
		switch {
		case a == nil:
			t.Errorf("%s: no line in the trace", want.agent)
		case a.initialize == "" || !a.initialized:
			t.Errorf("%s: initialize and its answer are not both traced", want.agent)
		case a.sessionNew == "":
			t.Errorf("%s: session/new not traced", want.agent)
		case !strings.Contains(a.prompt, want.said):
			t.Errorf("%s: no session/prompt saying %q traced", want.agent, want.said)
		case !a.updates || !a.promptEnd:
			t.Errorf("%s: the agent's session/update (%v) and the turn's end (%v) not traced", want.agent, a.updates, a.promptEnd)
		}
		if a != nil {
			t.Logf("%s: %d lines sent, %d received", want.agent, a.sent, a.received)
		}
	}
	if c, a := agents["carol"], agents["alice"]; c != nil && a != nil &&
		(strings.Contains(c.prompt, "hello channel") || strings.Contains(a.prompt, "hello carol")) {
		t.Error("a prompt is traced under another agent's name")
	}
}

// TestTraceUnwritableInTerminal runs the application with a trace file that cannot be
// written: the status bar and the log say so, and the application works as without a
// trace.
func TestTraceUnwritableInTerminal(t *testing.T) {
	env := append(isolate(t), "SIDEKICKS_DEMO_STATE="+t.TempDir(), "SIDEKICKS_ACP_TRACE=missing/acp.trace")
	dir := t.TempDir()
	cfg := traceConfig(t, dir)

	term := startTerminal(t, env, dir, 140, 40, binary, "--config", cfg)
	want := "No ACP trace: cannot write missing/acp.trace (no such file or directory)"
	term.waitFor(want, appWait)
	talkToCarol(t, term)
	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Fatalf("exit status %d; the screen shows:\n%s", code, term.screen())
	}
	logData, err := os.ReadFile(filepath.Join(envValue(env, "XDG_STATE_HOME"), "sidekicks", "logs", "sidekicks.log"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(logData), want) {
		t.Errorf("the log does not say %q:\n%s", want, logData)
	}
	if _, err := os.Stat(filepath.Join(dir, "missing")); !os.IsNotExist(err) {
		t.Errorf("the trace's folder was made, or is there: %v", err)
	}
}
