package acp_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/anthropicstub"
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/runtime"
)

// TestClaudeCodeTerminalTraceIsValid: claude-code-acp, offered terminals and pointed at the
// stand-in API, runs its Bash tool through terminal/create in the workspace; the watcher
// sees the output, and every message Sidekicks sent is valid against the official schema.
func TestClaudeCodeTerminalTraceIsValid(t *testing.T) {
	program := anthropicstub.Install(t, anthropicstub.ClaudeCodeACP, "claude-code-acp")
	stub := anthropicstub.Start(t, anthropicstub.Script{Conversations: []anthropicstub.Conversation{{
		Prompt: "where are we",
		Steps: []anthropicstub.Turn{
			{anthropicstub.Bash("pwd; echo done-$((1+1))", "Show the folder")},
			{anthropicstub.Text("Here.")},
		},
	}}})
	ws := workspaceDir(t)
	cmd := exec.Command(program)
	cmd.Dir = ws
	env := []string{"HOME=" + t.TempDir()}
	for k, v := range stub.Env() {
		env = append(env, k+"="+v)
	}
	trace := filepath.Join(t.TempDir(), "trace.log")
	tr := acp.OpenTrace(trace)
	c := connect(t, startCommand(t, cmd, env...), acp.Options{
		Workspace: runtime.NewLocalWorkspace(ws, nil),
		Terminals: localRunner{config.Agent{Name: "claude", Workspace: ws}},
		Trace:     tr, InitTimeout: testDeadline,
	})
	if _, err := c.Initialize(testContext(t)); err != nil {
		t.Fatal(err)
	}
	rec := &termRecorder{recorder: newRecorder(), snaps: map[string]acp.TerminalSnapshot{}}
	rec.setPerm(allow)
	s, err := c.NewSession(testContext(t), ws, rec)
	if err != nil {
		t.Fatal(err)
	}
	if stop, err := s.Prompt(testContext(t), []sdk.ContentBlock{sdk.TextBlock("where are we")}); err != nil || stop != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %v %v", stop, err)
	}
	if snap := rec.only(t); snap.Output != ws+"\ndone-2\n" || !snap.Exited || snap.ExitCode != 0 {
		t.Errorf("the terminal showed %+v", snap)
	}
	if res := stub.ToolResults(); len(res) != 1 || !strings.Contains(res[0], "done-2") {
		t.Errorf("the model got %q", res)
	}
	tr.Close()
	data, _ := os.ReadFile(trace)
	for _, m := range []string{"terminal/create", "terminal/wait_for_exit", "terminal/output", "terminal/release"} {
		if !strings.Contains(string(data), `"method":"`+m+`"`) {
			t.Errorf("claude-code-acp never called %s", m)
		}
	}
	checkTraceValid(t, trace)
}
