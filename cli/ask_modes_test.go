package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

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
