package anthropicstub_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/anthropicstub"
)

// recorder is a session handler that keeps what the agent sent.
type recorder struct {
	mu      sync.Mutex
	text    strings.Builder
	thought strings.Builder
	updates []sdk.SessionUpdate
}

func (r *recorder) Chunk(kind, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch kind {
	case acp.AgentMessageChunk:
		r.text.WriteString(text)
	case acp.AgentThoughtChunk:
		r.thought.WriteString(text)
	}
}

func (r *recorder) Update(u sdk.SessionUpdate) {
	r.mu.Lock()
	r.updates = append(r.updates, u)
	r.mu.Unlock()
}

// RequestPermission allows once.
func (r *recorder) RequestPermission(_ context.Context, req sdk.RequestPermissionRequest) sdk.RequestPermissionResponse {
	for _, o := range req.Options {
		if o.Kind == sdk.PermissionOptionKindAllowOnce {
			return sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{Selected: &sdk.RequestPermissionOutcomeSelected{OptionId: o.OptionId}}}
		}
	}
	return sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{Cancelled: &sdk.RequestPermissionOutcomeCancelled{}}}
}

// startClaude starts claude-code-acp pointed at stub, in a fresh HOME, and connects to it.
func startClaude(t *testing.T, stub *anthropicstub.Server, ws string) *acp.Conn {
	t.Helper()
	program := anthropicstub.Install(t, anthropicstub.ClaudeCodeACP, "claude-code-acp")
	cmd := exec.Command(program)
	cmd.Dir = ws
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	for k, v := range stub.Env() {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	conn := acp.NewConn("claude", stdout, stdin, acp.Options{InitTimeout: time.Minute})
	t.Cleanup(func() {
		conn.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("claude-code-acp's stderr:\n%s", stderr.String())
		}
	})
	return conn
}

// runTurn starts claude-code-acp on stub in a new workspace, opens a session and sends
// prompt; it returns what the agent sent and the turn's stop reason.
func runTurn(t *testing.T, stub *anthropicstub.Server, prompt string) (*recorder, sdk.StopReason) {
	t.Helper()
	ws, _ := filepath.EvalSymlinks(t.TempDir())
	conn := startClaude(t, stub, ws)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := conn.Initialize(ctx); err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	sess, err := conn.NewSession(ctx, ws, rec)
	if err != nil {
		t.Fatal(err)
	}
	stop, err := sess.Prompt(ctx, []sdk.ContentBlock{sdk.TextBlock(prompt)})
	if err != nil {
		t.Fatal(err)
	}
	return rec, stop
}

// TestClaudeCodeACPTurnThroughStandIn: claude-code-acp, pointed at the stand-in, streams
// the scripted thinking and text of a whole turn back over ACP.
func TestClaudeCodeACPTurnThroughStandIn(t *testing.T) {
	stub := anthropicstub.Start(t, anthropicstub.Script{Conversations: []anthropicstub.Conversation{{
		Prompt: "say hello",
		Steps: []anthropicstub.Turn{{
			anthropicstub.Thinking("The user wants a greeting."),
			anthropicstub.Text("Hello from the stand-in, ünïcode included."),
		}},
	}}})
	rec, stop := runTurn(t, stub, "please say hello")
	if stop != sdk.StopReasonEndTurn {
		t.Errorf("stop reason %q, want end_turn", stop)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if got := rec.text.String(); !strings.Contains(got, "Hello from the stand-in, ünïcode included.") {
		t.Errorf("agent text %q lacks the scripted answer", got)
	}
	if got := rec.thought.String(); !strings.Contains(got, "The user wants a greeting.") {
		t.Errorf("agent thought %q lacks the scripted thinking", got)
	}
}

// TestClaudeCodeACPToolUseThroughStandIn: a scripted tool_use makes claude-code-acp run the
// command and send its output back to the model in the next request, then end the turn
// with the scripted text.
func TestClaudeCodeACPToolUseThroughStandIn(t *testing.T) {
	stub := anthropicstub.Start(t, anthropicstub.Script{Conversations: []anthropicstub.Conversation{{
		Prompt: "run the command",
		Steps: []anthropicstub.Turn{
			{anthropicstub.Text("Running it."), anthropicstub.Bash("echo stub-$((40+2))", "Print a number")},
			{anthropicstub.Text("It printed the number.")},
		},
	}}})
	rec, _ := runTurn(t, stub, "please run the command")
	results := stub.ToolResults()
	if len(results) != 1 || !strings.Contains(results[0], "stub-42") {
		t.Errorf("tool results sent to the model: %q, want one with stub-42", results)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if got := rec.text.String(); !strings.Contains(got, "It printed the number.") {
		t.Errorf("agent text %q lacks the answer that follows the tool result", got)
	}
}
