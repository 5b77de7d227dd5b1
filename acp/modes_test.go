package acp_test

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// startMode starts a misbehaving agent of package testagents, traced to a new file, and
// initializes it; it returns the connection and the trace's path.
func startMode(t *testing.T, mode string, env ...string) (*acp.Conn, *acp.AgentInfo, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "trace.log")
	tr := acp.OpenTrace(path)
	if tr == nil {
		t.Fatal("OpenTrace failed")
	}
	t.Cleanup(func() { tr.Close() })
	c := connect(t, startCommand(t, exec.Command(os.Args[0]), append([]string{testagents.ModeEnv(mode)}, env...)...), acp.Options{Trace: tr})
	info, err := c.Initialize(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	return c, info, path
}

// checkTraceValid validates every message the client sent in a trace against the
// official schema, and returns the sent lines.
func checkTraceValid(t *testing.T, path string) []string {
	t.Helper()
	schema := loadSchema(t)
	requests := map[string]string{}
	var sent []string
	for i, l := range readLines(t, path) {
		tl, err := parseTraceLine(l)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(tl.msg), &m); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		var method, id string
		json.Unmarshal(m["method"], &method)
		if raw, ok := m["id"]; ok {
			id = string(raw)
		}
		if !tl.sent {
			if method != "" && id != "" {
				requests[id] = method
			}
			continue
		}
		sent = append(sent, tl.msg)
		if err := checkSent(schema, tl.msg, m, method, id, requests); err != nil {
			t.Errorf("line %d: %v\n%.300s", i+1, err, tl.msg)
		}
	}
	return sent
}

// TestSessionModesAndOptions reads a session's modes and options from session/new, sets
// a mode and options (the agent tells what it received, in order), follows the agent's
// updates, refuses what the session does not list without asking the agent, and sends
// only messages the official schema accepts.
func TestSessionModesAndOptions(t *testing.T) {
	c, _, trace := startMode(t, "modes")
	rec := newRecorder()
	s, err := c.NewSession(testContext(t), "/work", rec)
	if err != nil {
		t.Fatal(err)
	}
	st := s.State()
	if st.CurrentMode != "ask" || len(st.Modes) != 3 || st.Modes[1] != (acp.Mode{ID: "code", Name: "Code", Description: "writes code"}) || st.ModeName() != "Ask" {
		t.Errorf("modes after session/new: %+v", st)
	}
	model, ok := st.Option("model")
	if !ok || model.Type != acp.OptionSelect || model.Category != acp.CategoryModel || model.Current != "sonnet" || model.CurrentName() != "Sonnet" ||
		len(model.Values) != 2 || model.Values[1] != (acp.ConfigValue{ID: "opus", Name: "Opus", Description: "the largest", Group: "Claude"}) {
		t.Errorf("model option: %+v (%v)", model, ok)
	}
	if think, ok := st.Option("think"); !ok || think.Type != acp.OptionBoolean || think.On || think.Category != acp.CategoryThoughtLevel {
		t.Errorf("think option: %+v (%v)", think, ok)
	}
	var mu sync.Mutex
	var seen []string
	s.OnState(func(st acp.SessionState) {
		mu.Lock()
		seen = append(seen, st.CurrentMode)
		mu.Unlock()
	})

	ctx := testContext(t)
	var choice *acp.ChoiceError
	if err := s.SetMode(ctx, "yolo"); !errors.As(err, &choice) || acp.Describe(err, i18n.English) != `agent "tester" has no mode "yolo" in this session (modes: ask, code, plan)` {
		t.Errorf("unknown mode: %v", err)
	}
	if err := s.SetOption(ctx, "model", "gpt"); !errors.As(err, &choice) || acp.Describe(err, i18n.French) != `l'agent "tester" ne peut pas mettre model à "gpt" dans cette session (il accepte : sonnet, opus)` {
		t.Errorf("unknown value: %v", err)
	}
	if err := s.SetOption(ctx, "speed", "1"); !errors.As(err, &choice) || !strings.Contains(err.Error(), "(options: model, think)") {
		t.Errorf("unknown option: %v", err)
	}
	for _, step := range []func() error{
		func() error { return s.SetMode(ctx, "plan") },
		func() error { return s.SetOption(ctx, "model", "opus") },
		func() error { return s.SetOption(ctx, "think", "true") },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	st = s.State()
	if model, _ := st.Option("model"); st.CurrentMode != "plan" || model.Current != "opus" {
		t.Errorf("state after the changes: %+v", st)
	}
	if think, _ := st.Option("think"); !think.On {
		t.Errorf("think after set_config_option: %+v", think)
	}
	prompt(t, s, "go")
	want := "session/new\nsession/set_mode plan\nsession/set_config_option model=opus\nsession/set_config_option think=true\nsession/prompt\nnow: plan opus\n"
	if got := rec.textOf(acp.AgentMessageChunk); got != want {
		t.Errorf("the agent received:\n%s\nwant:\n%s", got, want)
	}
	mu.Lock()
	if !slices.Contains(seen, "plan") {
		t.Errorf("OnState was told %q", seen)
	}
	mu.Unlock()
	sent := checkTraceValid(t, trace)
	if !strings.Contains(sent[0], `"auth":{"terminal":true}`) {
		t.Errorf("initialize does not announce terminal logins: %s", sent[0])
	}
}

// The agent's own current_mode_update and config_option_update change the session's state.
func TestSessionStateFollowsTheAgent(t *testing.T) {
	c, _, _ := startMode(t, "modes")
	s, err := c.NewSession(testContext(t), "/work", newRecorder())
	if err != nil {
		t.Fatal(err)
	}
	changes := make(chan acp.SessionState, 4)
	s.OnState(func(st acp.SessionState) { changes <- st })
	prompt(t, s, "switch")
	st := s.State()
	if model, _ := st.Option("model"); st.CurrentMode != "code" || st.ModeName() != "Code" || model.Current != "opus" {
		t.Errorf("state after the agent's updates: %+v", st)
	}
	if len(changes) != 2 {
		t.Errorf("OnState was called %d times, want 2", len(changes))
	}
}
