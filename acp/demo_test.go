package acp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	sdk "github.com/coder/acp-go-sdk"
)

// demo is a demo agent process with a workspace and one session.
type demo struct {
	ws, outside, state string
	conn               *acp.Conn
	info               *acp.AgentInfo
	session            *acp.Session
	rec                *recorder
}

func startDemo(t *testing.T, opts acp.Options) *demo {
	t.Helper()
	d := &demo{ws: workspaceDir(t), state: t.TempDir()}
	d.outside = filepath.Join(filepath.Dir(d.ws), "outside")
	writeFiles(t, d.ws, map[string]string{"notes.txt": "alpha\nbeta\n", "AGENTS.md": "rules"})
	writeFiles(t, d.outside, map[string]string{"target.txt": "outside secret"})
	agent := config.Agent{Name: "demo", Workspace: d.ws}
	opts.Workspace = runtime.NewLocalWorkspace(d.ws, runtime.Protections(agent))
	d.conn, d.info = startAgent(t, "demo", opts, "ACP_TEST_STATE="+d.state, "ACP_TEST_NAME=Robin")
	d.rec = newRecorder()
	var err error
	d.session, err = d.conn.NewSession(testContext(t), d.ws, d.rec)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// turn runs one prompt and returns the agent's reply in it.
func (d *demo) turn(t *testing.T, msg string) (sdk.StopReason, string) {
	t.Helper()
	before := len(d.rec.textOf(acp.AgentMessageChunk))
	stop := prompt(t, d.session, msg)
	return stop, d.rec.textOf(acp.AgentMessageChunk)[before:]
}

// lastToolUpdate returns the last tool_call_update the handler got.
func (d *demo) lastToolUpdate() *sdk.SessionToolCallUpdate {
	var last *sdk.SessionToolCallUpdate
	for _, u := range d.rec.allUpdates() {
		if u.ToolCallUpdate != nil {
			last = u.ToolCallUpdate
		}
	}
	return last
}

func TestDemoAgentSession(t *testing.T) {
	d := startDemo(t, acp.Options{})
	if !d.info.LoadSession || d.info.Implementation == nil {
		t.Errorf("info = %+v, want loadSession and agentInfo", d.info)
	}

	stop, reply := d.turn(t, "Show me a small example in python")
	if stop != sdk.StopReasonEndTurn || !strings.Contains(reply, "```python") {
		t.Errorf("stop %q, reply %q", stop, reply)
	}
	if d.rec.textOf(acp.AgentThoughtChunk) == "" {
		t.Error("no thought arrived")
	}

	_, reply = d.turn(t, "/read notes.txt")
	if !strings.Contains(reply, "alpha") {
		t.Errorf("reply to /read: %q", reply)
	}
	if u := d.lastToolUpdate(); u == nil || u.Status == nil || *u.Status != sdk.ToolCallStatusCompleted {
		t.Errorf("last tool update = %+v, want completed", u)
	}

	_, reply = d.turn(t, "/read ../outside/target.txt")
	if !strings.Contains(reply, "outside the agent's workspace") || strings.Contains(reply, "outside secret") {
		t.Errorf("reply to /read outside: %q", reply)
	}
	if u := d.lastToolUpdate(); u == nil || u.Status == nil || *u.Status != sdk.ToolCallStatusFailed {
		t.Errorf("last tool update = %+v, want failed", u)
	}

	// Writes: granted, refused, outside, protected.
	d.rec.setPerm(allow)
	_, reply = d.turn(t, "/write new.txt hello there")
	if b, err := os.ReadFile(filepath.Join(d.ws, "new.txt")); err != nil || string(b) != "hello there" {
		t.Errorf("new.txt = %q, %v; reply %q", b, err, reply)
	}
	_, reply = d.turn(t, "/write ../outside/evil.txt x")
	if _, err := os.Stat(filepath.Join(d.outside, "evil.txt")); err == nil || !strings.Contains(reply, "outside the agent's workspace") {
		t.Errorf("a write outside: reply %q, stat error %v", reply, err)
	}
	_, reply = d.turn(t, "/write AGENTS.md x")
	if b, _ := os.ReadFile(filepath.Join(d.ws, "AGENTS.md")); string(b) != "rules" || !strings.Contains(reply, "protected") {
		t.Errorf("AGENTS.md = %q; reply %q", b, reply)
	}
	d.rec.setPerm(nil) // refuses
	_, reply = d.turn(t, "/write refused.txt x")
	if _, err := os.Stat(filepath.Join(d.ws, "refused.txt")); err == nil || !strings.Contains(reply, "refused") {
		t.Errorf("a refused write: reply %q, stat error %v", reply, err)
	}

	for _, kind := range []string{"tool_call", "tool_call_update", "plan", "available_commands_update", "usage_update"} {
		if d.rec.kindCount(kind) == 0 {
			t.Errorf("no %s arrived", kind)
		}
	}
	if st := d.conn.Stats(); st.UnknownUpdates != 0 || st.Malformed != 0 || st.Ignored != 0 {
		t.Errorf("stats = %+v", st)
	}

	// Load the session in a new process of the agent.
	id := d.session.ID()
	d.conn.Close()
	c2, _ := startAgent(t, "demo", acp.Options{}, "ACP_TEST_STATE="+d.state)
	rec := newRecorder()
	s, err := c2.LoadSession(testContext(t), id, d.ws, rec)
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.textOf(acp.UserMessageChunk); !strings.Contains(got, "Show me a small example in python") {
		t.Errorf("replayed user messages: %q", got)
	}
	if got := rec.textOf(acp.AgentMessageChunk); !strings.Contains(got, "```python") {
		t.Errorf("replayed agent messages: %.200q", got)
	}
	if _, err := s.Prompt(testContext(t), text("/echo back again")); err != nil {
		t.Fatal(err)
	}
	if got := rec.textOf(acp.AgentMessageChunk); !strings.HasSuffix(got, "back again") {
		t.Errorf("after load: %.200q", got)
	}
}

func TestDemoAgentCancel(t *testing.T) {
	d := startDemo(t, acp.Options{})
	type result struct {
		stop sdk.StopReason
		err  error
	}
	done := make(chan result, 1)
	go func() {
		stop, err := d.session.Prompt(testContext(t), text("/slow"))
		done <- result{stop, err}
	}()
	d.rec.waitUntil(t, "the first words of /slow", func() bool { return d.rec.bytesOf(acp.AgentMessageChunk) > 0 })
	if err := d.session.Cancel(); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err != nil || r.stop != sdk.StopReasonCancelled {
		t.Errorf("prompt = %q, %v; want cancelled", r.stop, r.err)
	}
}
