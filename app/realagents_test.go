package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/agentstack"
	"git.rickub.com/bots-garden/sidekicks/anthropicstub"
	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/store"
)

// The npm package of Gemini CLI, at the version the tests know.
const geminiCLI = "@google/gemini-cli@0.61.0"

// realAgentStart bounds the start of a real agent (node loading its packages).
const realAgentStart = 2 * time.Minute

// realAgentApp starts the application on one real agent, name, run as program with args
// and env, in a workspace of its own, traced; the agent is started before it returns.
func realAgentApp(t *testing.T, name, program string, args []string, env map[string]string) (*appHarness, string) {
	t.Helper()
	dir := appEnv(t)
	trace := filepath.Join(dir, "acp.trace")
	t.Setenv(acp.TraceEnv, trace)
	var yaml strings.Builder
	fmt.Fprintf(&yaml, "version: 1\nagents:\n  - name: %s\n    command: %q\n    workspace: %q\n", name, program, t.TempDir())
	if len(args) > 0 {
		yaml.WriteString("    args:\n")
		for _, a := range args {
			fmt.Fprintf(&yaml, "      - %q\n", a)
		}
	}
	if len(env) > 0 {
		yaml.WriteString("    env:\n")
		for k, v := range env {
			fmt.Fprintf(&yaml, "      %s: %q\n", k, v)
		}
	}
	path := filepath.Join(dir, "real.yaml")
	writeFile(t, path, yaml.String())
	// node loads thousands of files before it answers: on a busy machine, more than the
	// default 15 seconds.
	h := startApp(t, path, dir, func(_ *appHarness, o *appOptions) {
		o.agents = func(cfg *config.Config, ao agentstack.Options, st *store.Store) (Agents, error) {
			ao.InitTimeout = realAgentStart
			return newAgents(cfg, ao, st)
		}
	})
	h.onUI(func() { h.ap.openAgent(name) })
	h.waitTitles(name)
	h.startReal(name)
	return h, trace
}

// startReal starts a real agent, with the time node takes.
func (h *appHarness) startReal(name string) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), realAgentStart)
	defer cancel()
	if err := h.ap.agents.StartAgent(ctx, name); err != nil {
		h.t.Fatalf("starting %s: %v", name, err)
	}
}

// Gemini CLI without a key refuses the session with its own message, and the window
// shows its login methods; given GEMINI_API_KEY as the agent's secret (Agent ▸ Secrets…),
// its next start opens a session (its modes show on the window's rule).
func TestAppGeminiSignsInWithASecret(t *testing.T) {
	program := anthropicstub.Install(t, geminiCLI, "gemini")
	for _, v := range []string{"GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_CLOUD_PROJECT"} {
		t.Setenv(v, "")
		os.Unsetenv(v)
	}
	h, trace := realAgentApp(t, "gemini", program, []string{"--acp"}, nil)
	h.sendGemini("hello")
	h.waitText("Gemini API key is missing or not configured.", "(methods: Log in with Google, Gemini API key, Vertex AI, AI API", "Gateway): Agent ▸ Sign in…",
		"Sign in to gemini", "Log in with Google — Log in with your Google account", "Gemini API key — Use an API key with Gemini", "key: Secrets…")

	const key = "AIzaSy-auth18-not-a-real-key"
	h.pick(func() {}, "Sign in to gemini", "Set a key")
	h.waitText("Secrets of gemini")
	h.typeText("GEMINI_API_KEY")
	h.press(tcell.KeyEnter)
	h.waitText("Value of GEMINI_API_KEY")
	h.typeText(key)
	h.press(tcell.KeyEnter)
	h.waitText("Secret GEMINI_API_KEY of gemini saved")
	h.waitScreen("gemini stopped", func(string) bool { return h.ap.agents.Supervisor().State("gemini").Pid == 0 })
	h.startReal("gemini")
	h.sendGemini("hello again")
	h.waitText("─ Default ─") // its mode: the session is open
	h.ap.agents.Cancel(chat.AgentKey("gemini"))
	h.quit()
	data, err := os.ReadFile(trace)
	if err != nil || !strings.Contains(string(data), `"result":{"sessionId":`) || strings.Contains(string(data), key) {
		t.Errorf("the trace shows no session opened, or holds the key (%v):\n%.3000s", err, data)
	}
}

func (h *appHarness) sendGemini(text string) {
	h.t.Helper()
	if err := h.ap.agents.Service().Send(chat.AgentKey("gemini"), text); err != nil {
		h.t.Fatal(err)
	}
}

// claude-agent-acp's session options (mode, model, effort…) show in Agent ▸ Session
// options…, and a value chosen there is sent with session/set_config_option and taken.
func TestAppClaudeAgentSessionOptions(t *testing.T) {
	program := anthropicstub.Install(t, anthropicstub.ClaudeAgentACP, "claude-agent-acp")
	stub := anthropicstub.Start(t, anthropicstub.Script{Default: anthropicstub.Turn{anthropicstub.Text("Hello from the stand-in.")}})
	h, trace := realAgentApp(t, "claude", program, nil, stub.Env())
	if err := h.ap.agents.Service().Send(chat.AgentKey("claude"), "hi"); err != nil {
		t.Fatal(err)
	}
	h.waitText("Hello from the stand-in.", "─ Default (recommended) · Auto ─")
	h.onUI(h.ap.sessionOptions)
	// Its option of category mode stands for its modes: Mode is listed once.
	screen := h.waitText("Session options of claude", "Model", "Default (recommended)", "Effort", "Fast mode")
	if n := strings.Count(screen, "║  Mode "); n != 1 {
		t.Errorf("Mode is listed %d times:\n%s", n, screen)
	}
	h.typeText("Effort")
	h.press(tcell.KeyEnter)
	h.waitText("Effort", "Default", "current", "High")
	h.typeText("High")
	h.press(tcell.KeyEnter)
	h.waitText("claude: Effort is now High")
	h.quit()
	data, _ := os.ReadFile(trace)
	if !strings.Contains(string(data), `"method":"session/set_config_option","params":{"sessionId":`) ||
		!strings.Contains(string(data), `"configId":"effort","value":"high"}`) {
		t.Errorf("the trace lacks set_config_option effort=high:\n%.4000s", data)
	}
}
