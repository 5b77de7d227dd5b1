package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/anthropicstub"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// TestAskModeAndOptions: --mode and --option are sent to the session before the prompt,
// in that order (the agent replies with what it received); a mode or value the agent
// does not list fails before the prompt, saying what it lists.
func TestAskModeAndOptions(t *testing.T) {
	dir := testagents.Env(t)
	cfg := testagents.WriteConfig(t, dir, 2, testagents.ModeEntry(t, "m", "modes", dir))
	trace := filepath.Join(dir, "trace.log")
	code, out, errOut := askCmd(t, "--config", cfg, "--trace", trace, "--mode", "plan", "--option", "model=opus", "--option", "think=true", "m", "go")
	want := "session/new\nsession/set_mode plan\nsession/set_config_option model=opus\nsession/set_config_option think=true\nsession/prompt\nnow: plan opus\n"
	if code != 0 || out != want {
		t.Errorf("exit %d, stdout:\n%s\nwant:\n%s\nstderr: %s", code, out, want, errOut)
	}
	data, _ := os.ReadFile(trace)
	if !strings.Contains(string(data), `"method":"session/set_mode","params":{"modeId":"plan","sessionId":"modes-1"}`) {
		t.Errorf("the trace lacks set_mode:\n%s", data)
	}

	code, out, errOut = askCmd(t, "--config", cfg, "--mode", "yolo", "m", "go")
	if code != 1 || out != "" || !strings.Contains(errOut, `agent "m" has no mode "yolo" in this session (modes: ask, code, plan)`) {
		t.Errorf("unknown mode: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = askCmd(t, "--config", cfg, "--option", "model=gpt", "m", "go")
	if code != 1 || out != "" || !strings.Contains(errOut, `cannot set model to "gpt" in this session (it takes: sonnet, opus)`) {
		t.Errorf("unknown value: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if code, _, errOut := askCmd(t, "--config", cfg, "--option", "model", "m", "go"); code != 2 || !strings.Contains(errOut, "expected ID=VALUE") {
		t.Errorf("--option without =: exit %d, stderr %q", code, errOut)
	}
}

// claude-code-acp, on the local stand-in for the Anthropic API: ask --mode plan sets the
// mode (the agent accepts it) before the prompt.
func TestAskModeWithClaudeCodeACP(t *testing.T) {
	program := anthropicstub.Install(t, anthropicstub.ClaudeCodeACP, "claude-code-acp")
	stub := anthropicstub.Start(t, anthropicstub.Script{Default: anthropicstub.Turn{anthropicstub.Text("Planned.")}})
	dir := testagents.Env(t)
	t.Setenv("HOME", t.TempDir())
	var env strings.Builder
	for k, v := range stub.Env() {
		fmt.Fprintf(&env, "      %s: %q\n", k, v)
	}
	cfg := testagents.WriteConfig(t, dir, 1, fmt.Sprintf("  - name: claude\n    command: %q\n    workspace: %q\n    env:\n%s", program, dir, env.String()))
	trace := filepath.Join(t.TempDir(), "trace.log")
	code, out, errOut := askCmd(t, "--config", cfg, "--trace", trace, "--mode", "plan", "claude", "make a plan")
	if code != 0 || !strings.Contains(out, "Planned.") {
		t.Fatalf("exit %d, stdout %q, stderr:\n%s", code, out, errOut)
	}
	data, _ := os.ReadFile(trace)
	// The messages in order: set_mode plan, its answer (a result), then the prompt.
	var steps []string
	for _, l := range strings.Split(string(data), "\n") {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ModeID string `json:"modeId"`
			} `json:"params"`
			Result json.RawMessage `json:"result"`
		}
		if _, msg, ok := strings.Cut(l, " claude "); !ok || json.Unmarshal([]byte(msg[3:]), &m) != nil {
			continue
		}
		switch {
		case m.Method == "session/set_mode":
			steps = append(steps, "set_mode "+m.Params.ModeID+" "+string(m.ID))
		case m.Method == "session/prompt":
			steps = append(steps, "prompt")
		case m.Method == "" && m.Result != nil && len(steps) > 0 && strings.HasSuffix(steps[len(steps)-1], " "+string(m.ID)):
			steps = append(steps, "accepted")
		}
	}
	if got := strings.Join(steps, ", "); !regexp.MustCompile(`^set_mode plan \d+, accepted, prompt$`).MatchString(got) {
		t.Errorf("the trace says %q:\n%.3000s", got, data)
	}
}

// ask starts its agent with the secrets set in the application (the state folder's
// agent-secrets.json), and the trace does not hold them.
func TestAskUsesTheAgentsSecrets(t *testing.T) {
	dir := testagents.Env(t)
	cfg := testagents.WriteConfig(t, dir, 1, testagents.ModeEntry(t, "gate", "signin", dir))
	code, _, errOut := askCmd(t, "--config", cfg, "gate", "hi")
	if code != 1 || !strings.Contains(errOut, testagents.SignInMessage) {
		t.Fatalf("without a secret: exit %d, stderr %q", code, errOut)
	}
	secrets, _ := json.Marshal(map[string]map[string]string{"gate": {testagents.SignInKeyEnv: testagents.SignInKey}})
	if err := os.WriteFile(filepath.Join(os.Getenv("SIDEKICKS_STATE_DIR"), "agent-secrets.json"), secrets, 0o600); err != nil {
		t.Fatal(err)
	}
	trace := filepath.Join(t.TempDir(), "trace.log")
	code, out, errOut := askCmd(t, "--config", cfg, "--trace", trace, "gate", "hi")
	if code != 0 || out != "signed in by key\n" {
		t.Fatalf("with the secret: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if data, _ := os.ReadFile(trace); len(data) == 0 || strings.Contains(string(data), testagents.SignInKey) {
		t.Errorf("the trace is empty or holds the key:\n%s", data)
	}
}

// An agent that gives its modes only as an option of category mode gets --mode as that
// option.
func TestAskModeAsAnOption(t *testing.T) {
	dir := testagents.Env(t)
	entry := strings.Replace(testagents.ModeEntry(t, "m", "modes", dir), "    env:\n", "    env:\n      "+testagents.ModesAsOptionEnv+": \"1\"\n", 1)
	cfg := testagents.WriteConfig(t, dir, 1, entry)
	code, out, errOut := askCmd(t, "--config", cfg, "--mode", "plan", "m", "go")
	if want := "session/new\nsession/set_config_option mode=plan\nsession/prompt\nnow: plan sonnet\n"; code != 0 || out != want {
		t.Errorf("exit %d, stdout:\n%s\nwant:\n%s\nstderr: %s", code, out, want, errOut)
	}
}
