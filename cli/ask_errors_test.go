package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// askTraceHint is the line ask prints after an agent's error when it has no trace.
const askTraceHint = "sidekicks ask: to see every message exchanged with the agent, run again with --trace FILE\n"

// ask prints why an agent failed: the JSON-RPC error's data and a login refusal's message
// under the description, a protocol version it does not speak rather than the exit that
// followed; then where to look next.
func TestAskSaysWhyTheAgentFailed(t *testing.T) {
	dir := testagents.Env(t)
	cfg := testagents.WriteConfig(t, dir, 4, testagents.ModeEntry(t, "up", "rpcerror", dir),
		testagents.ModeEntry(t, "key", "nokey", dir), testagents.ModeEntry(t, "v2", "version2", dir))
	for _, c := range []struct{ agent, want string }{
		{"up", "sidekicks ask: the agent refused session/prompt: Internal error (error -32603)\n    details: " + testagents.RPCErrorDetails + "\n    hint: retry later\n" + askTraceHint},
		{"key", `sidekicks ask: agent "key" needs you to sign in (methods: Use Gemini API key): Agent ▸ Sign in…, or set the key it reads with Agent ▸ Secrets…` + "\n    " + testagents.NoKeyMessage + "\n" + askTraceHint},
		{"v2", `sidekicks ask: agent "v2" speaks ACP protocol version 2; Sidekicks speaks version 1` + "\n" + askTraceHint},
	} {
		code, out, errOut := askCmd(t, "--config", cfg, c.agent, "hi")
		if code != 1 || out != "" || errOut != c.want {
			t.Errorf("%s: exit %d, stdout %q, stderr %q, want stderr %q", c.agent, code, out, errOut, c.want)
		}
	}
	// With a trace, the hint names it; in French, all of it is French.
	trace := filepath.Join(dir, "trace.log")
	writeFile(t, filepath.Join(dir, "fr.yaml"), "version: 1\nui:\n  language: fr\nagents:\n"+testagents.ModeEntry(t, "v2", "version2", dir))
	code, _, errOut := askCmd(t, "--config", "fr.yaml", "--trace", trace, "v2", "hi")
	want := `sidekicks ask: l'agent "v2" parle la version 2 du protocole ACP ; Sidekicks parle la version 1` + "\n" +
		"sidekicks ask: chaque message échangé avec l'agent est dans " + trace + "\n"
	if code != 1 || errOut != want {
		t.Errorf("French, traced: exit %d, stderr %q, want %q", code, errOut, want)
	}
}

// A tool call says what it does — its kind, its files and lines, an execute call's
// command, made safe — and a call the turn left behind reads "not finished".
func TestAskSaysWhatAToolCallDoes(t *testing.T) {
	dir := testagents.Env(t)
	isolateHome(t)
	cfg := testagents.WriteConfig(t, dir, 2, testagents.ModeEntry(t, "tools", "tools", dir))
	code, _, errOut := askCmd(t, "--config", cfg, "tools", "go")
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, errOut)
	}
	for _, want := range []string{
		"[tool]   execute\n[tool]   $ echo red rm -rf build && xxx",
		"[tool] Modifying critical configuration file (", // in_progress or completed: ask looks now and then
		"[tool]   edit → " + filepath.Join(dir, testagents.ToolsFile) + ":12\n",
		"[tool] Ghost call (not finished)\n",
		"[tool] Run the build (not finished)\n",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(errOut, "\x1b") || strings.Contains(errOut, "THE-END") {
		t.Errorf("stderr holds an escape or the whole long command:\n%.400q", errOut)
	}
}
