package acp_test

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/anthropicstub"
	"git.rickub.com/bots-garden/sidekicks/runtime"
)

// geminiCLI is the Gemini CLI the tests install from npm (run with --acp).
const geminiCLI = "@google/gemini-cli@0.61.0"

// startReal starts a real agent program in a workspace of its own, traced, and
// initializes it; it returns the connection, the workspace and the trace's path.
func startReal(t *testing.T, program string, args []string, env ...string) (*acp.Conn, string, string) {
	t.Helper()
	ws := workspaceDir(t)
	cmd := exec.Command(program, args...)
	cmd.Dir = ws
	trace := filepath.Join(t.TempDir(), "trace.log")
	tr := acp.OpenTrace(trace)
	t.Cleanup(func() { tr.Close() })
	c := connect(t, startCommand(t, cmd, append([]string{"HOME=" + t.TempDir()}, env...)...), acp.Options{
		Workspace: runtime.NewLocalWorkspace(ws, nil), Trace: tr, InitTimeout: testDeadline,
	})
	if _, err := c.Initialize(testContext(t)); err != nil {
		t.Fatal(err)
	}
	return c, ws, trace
}

// TestGeminiTraceIsValid: gemini-cli without a key refuses the session with its own
// message (an *AuthRequiredError); given GEMINI_API_KEY it opens one and takes a mode.
// Every message Sidekicks sent it is valid against the official schema.
func TestGeminiTraceIsValid(t *testing.T) {
	program := anthropicstub.Install(t, geminiCLI, "gemini")
	noKeys := []string{"GEMINI_API_KEY=", "GOOGLE_API_KEY=", "GOOGLE_GENAI_USE_VERTEXAI=", "GOOGLE_CLOUD_PROJECT="}

	c, ws, trace := startReal(t, program, []string{"--acp"}, noKeys...)
	_, err := c.NewSession(testContext(t), ws, newRecorder())
	var auth *acp.AuthRequiredError
	if !errors.As(err, &auth) {
		t.Fatalf("without a key, session/new: %v, want an *AuthRequiredError", err)
	}
	checkTraceValid(t, trace)

	c, ws, trace = startReal(t, program, []string{"--acp"}, append(noKeys, "GEMINI_API_KEY=AIzaSy-not-a-real-key")...)
	s, err := c.NewSession(testContext(t), ws, newRecorder())
	if err != nil {
		t.Fatalf("with a key, session/new: %v", err)
	}
	if st := s.State(); len(st.Modes) > 0 {
		if err := s.SetMode(testContext(t), st.Modes[len(st.Modes)-1].ID); err != nil {
			t.Errorf("set_mode: %v", err)
		}
	}
	checkTraceValid(t, trace)
}

// TestClaudeAgentTraceIsValid: claude-agent-acp on the local stand-in API opens a
// session, takes an option of its own and answers a prompt; every message Sidekicks sent
// it is valid against the official schema.
func TestClaudeAgentTraceIsValid(t *testing.T) {
	program := anthropicstub.Install(t, anthropicstub.ClaudeAgentACP, "claude-agent-acp")
	stub := anthropicstub.Start(t, anthropicstub.Script{Default: anthropicstub.Turn{anthropicstub.Text("Hello from the stand-in.")}})
	var env []string
	for k, v := range stub.Env() {
		env = append(env, k+"="+v)
	}
	c, ws, trace := startReal(t, program, nil, env...)
	s, err := c.NewSession(testContext(t), ws, newRecorder())
	if err != nil {
		t.Fatal(err)
	}
	set := false
	for _, o := range s.State().Options {
		if o.ID == "effort" {
			if err := s.SetOption(testContext(t), "effort", "high"); err != nil {
				t.Errorf("set_config_option effort=high: %v", err)
			}
			set = true
		}
	}
	if !set {
		t.Errorf("claude-agent-acp offered no effort option: %+v", s.State().Options)
	}
	if stop, err := s.Prompt(testContext(t), []sdk.ContentBlock{sdk.TextBlock("hi")}); err != nil || stop != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %v %v", stop, err)
	}
	sent := strings.Join(checkTraceValid(t, trace), "\n")
	for _, m := range []string{"session/new", "session/set_config_option", "session/prompt"} {
		if !strings.Contains(sent, `"method":"`+m+`"`) {
			t.Errorf("the trace holds no %s sent", m)
		}
	}
}
