package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/anthropicstub"
)

// claudeWait bounds the waits on claude-code-acp, a Node program that starts the Claude
// CLI for each session: slower to start than the test agents.
const claudeWait = 90 * time.Second

// The scripted model's answers: "list the workspace" runs a command that prints a marker,
// the file of the workspace and the folder it runs in; "wait for ever" runs a command that
// says "started" and sleeps until it is killed.
var claudeScript = anthropicstub.Script{Conversations: []anthropicstub.Conversation{
	{
		Prompt: "list the workspace",
		Steps: []anthropicstub.Turn{
			{anthropicstub.Thinking("I will list it."), anthropicstub.Bash("echo marker-$((6*7)); ls; pwd", "List the workspace")},
			{anthropicstub.Text("The workspace holds notes.txt.")},
		},
	},
	{
		Prompt: "wait for ever",
		Steps: []anthropicstub.Turn{
			{anthropicstub.Bash("echo started; sleep 300; echo never", "Wait")},
			{anthropicstub.Text("The command was stopped.")},
		},
	},
}}

// claudeSetup installs claude-code-acp (skipping without npm), starts the stand-in API and
// writes a configuration whose agent "claude" is claude-code-acp pointed at it, with a
// workspace holding notes.txt. It returns the environment, the configuration, the
// workspace and the stand-in.
func claudeSetup(t *testing.T) ([]string, string, string, *anthropicstub.Server) {
	t.Helper()
	program := anthropicstub.Install(t, anthropicstub.ClaudeCodeACP, "claude-code-acp")
	stub := anthropicstub.Start(t, claudeScript)
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	ws := filepath.Join(dir, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var env strings.Builder
	for k, v := range stub.Env() {
		fmt.Fprintf(&env, "      %s: %q\n", k, v)
	}
	cfg := filepath.Join(dir, "sidekicks.yaml")
	text := fmt.Sprintf("version: 1\nagents:\n  - name: claude\n    command: %q\n    workspace: %q\n    env:\n%s", program, ws, env.String())
	if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return isolate(t), cfg, ws, stub
}

// TestClaudeBashRunsInSidekicksTerminalInAsk: with claude-code-acp and the stand-in API, the
// model's Bash tool call runs through terminal/create in the agent's workspace; ask prints
// the command's output in the tool call, as it comes, and how it ended; the model gets
// the output back.
func TestClaudeBashRunsInSidekicksTerminalInAsk(t *testing.T) {
	env, cfg, ws, stub := claudeSetup(t)
	trace := filepath.Join(t.TempDir(), "trace.log")
	r := runBinary(t, env, filepath.Dir(cfg), claudeWait*2, "ask", "--yes", "--trace", trace, "--config", cfg, "claude", "please list the workspace")
	if r.code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"[terminal] marker-42", "[terminal] notes.txt", "[terminal] " + ws, "[terminal] exit 0"} {
		if !strings.Contains(r.stderr, want+"\n") {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if !strings.Contains(r.stdout, "The workspace holds notes.txt.") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
	data, _ := os.ReadFile(trace)
	if !strings.Contains(string(data), `"method":"terminal/create"`) || !strings.Contains(string(data), `"terminal":true`) {
		t.Errorf("the trace shows no terminal/create, or no terminal capability")
	}
	if res := stub.ToolResults(); len(res) != 1 || !strings.Contains(res[0], "marker-42") || !strings.Contains(res[0], ws) {
		t.Errorf("the model got %q", res)
	}
}

// TestClaudeBashInTheAgentWindow: in the application, the Bash tool call shows the
// command's output live in the tool call, and Alt-K kills a command that runs: the agent
// is told and ends its turn.
func TestClaudeBashInTheAgentWindow(t *testing.T) {
	env, cfg, ws, stub := claudeSetup(t)
	term := startTerminal(t, env, filepath.Dir(cfg), 160, 50, binary, "--config", cfg)
	term.waitFor("No window open", appWait)
	term.keys("M-a")
	term.waitFor("Agent status", appWait)
	term.keys("Enter")
	waitFocus(t, term, "claude")

	term.typeText("please list the workspace")
	term.keys("Enter")
	answerPermission(t, term)
	screen := term.waitFor("The workspace holds notes.txt.", claudeWait)
	for _, want := range []string{"terminal term-1 — exit 0", "marker-42", "notes.txt", ws} {
		if !strings.Contains(screen, want) {
			t.Errorf("the screen lacks %q:\n%s", want, screen)
		}
	}

	term.typeText("now wait for ever")
	term.keys("Enter")
	answerPermission(t, term)
	term.waitFor("running — Alt-K kills it", claudeWait)
	term.waitFor("started", claudeWait)
	term.keys("M-k")
	screen = term.waitFor("The command was stopped.", claudeWait)
	if !strings.Contains(screen, "terminal term-2 — killed (") || hasRow(screen, "never") {
		t.Errorf("the killed command is not shown as killed:\n%s", screen)
	}
	if res := stub.ToolResults(); len(res) != 2 || strings.Contains(res[1], "never") {
		t.Errorf("the model got %q", res)
	}
	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Fatalf("exit status %d; the screen shows:\n%s", code, term.screen())
	}
}

// answerPermission allows once the permission request claude-code-acp asks before running
// a command: from the conversation, where the keys answer.
func answerPermission(t *testing.T, term *terminal) {
	t.Helper()
	term.waitFor("asks permission", claudeWait)
	term.keys("Tab")
	term.waitFor("1…3: answer", appWait)
	term.keys("y")
	term.waitFor("answer: Allow", appWait)
}

// hasRow reports whether a row of the screen holds text alone, between the window's edges.
func hasRow(screen, text string) bool {
	for _, row := range strings.Split(screen, "\n") {
		if strings.Trim(row, "║ ") == text {
			return true
		}
	}
	return false
}
