package acp_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	sdk "github.com/coder/acp-go-sdk"
)

// session starts a test agent and one session on it.
func session(t *testing.T, behaviour string, opts acp.Options, env ...string) (*acp.Conn, *acp.Session, *recorder) {
	t.Helper()
	c, _ := startAgent(t, behaviour, opts, env...)
	rec := newRecorder()
	s, err := c.NewSession(testContext(t), "/work", rec)
	if err != nil {
		t.Fatalf("session/new: %v", err)
	}
	return c, s, rec
}

// prompt runs one turn and fails the test on an error.
func prompt(t *testing.T, s *acp.Session, msg string) sdk.StopReason {
	t.Helper()
	stop, err := s.Prompt(testContext(t), text(msg))
	if err != nil {
		t.Fatalf("prompt %.40q: %v", msg, err)
	}
	return stop
}

func TestInitializeReadsTheAgentsAnswer(t *testing.T) {
	_, info := startAgent(t, "basic", acp.Options{})
	if info.ProtocolVersion != 1 || info.LoadSession || !info.EmbeddedContext {
		t.Errorf("info = %+v, want version 1, no loadSession, embeddedContext", info)
	}
	if info.Implementation == nil || info.Implementation.Name != "test-agent" {
		t.Errorf("implementation = %+v, want test-agent", info.Implementation)
	}
	if len(info.AuthMethods) != 0 {
		t.Errorf("auth methods = %v, want none", info.AuthMethods)
	}
}

func TestInitializeTimesOut(t *testing.T) {
	c := connect(t, startProcess(t, "silent"), acp.Options{InitTimeout: 300 * time.Millisecond})
	_, err := c.Initialize(testContext(t))
	var timeout *acp.InitTimeoutError
	if !errors.As(err, &timeout) {
		t.Fatalf("err = %v, want an *InitTimeoutError", err)
	}
	if want := "did not answer initialize within 300ms"; !strings.Contains(err.Error(), want) {
		t.Errorf("err = %q, want it to say %q", err, want)
	}
	if fr := acp.Describe(err, i18n.French); !strings.Contains(fr, "n'a pas répondu à initialize") {
		t.Errorf("French message = %q", fr)
	}
}

func TestInitializeRefusesAnotherVersion(t *testing.T) {
	for _, tc := range []struct{ behaviour, want string }{
		{"version2", `speaks ACP protocol version 2; Sidekicks speaks version 1`},
		{"versionstring", `speaks ACP protocol version "2025-[31m01"; Sidekicks speaks version 1`},
	} {
		t.Run(tc.behaviour, func(t *testing.T) {
			c := connect(t, startProcess(t, tc.behaviour), acp.Options{})
			_, err := c.Initialize(testContext(t))
			var version *acp.VersionError
			if !errors.As(err, &version) {
				t.Fatalf("err = %v, want a *VersionError", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %q, want it to say %q", err, tc.want)
			}
			if hasControl(err.Error()) {
				t.Errorf("err = %q holds a control character", err)
			}
			if _, err := c.NewSession(testContext(t), "/work", newRecorder()); !errors.Is(err, acp.ErrNotInitialized) {
				t.Errorf("NewSession after a failed initialize: %v, want ErrNotInitialized", err)
			}
		})
	}
}

func TestAgentRequiringALogin(t *testing.T) {
	check := func(t *testing.T, err error, method string) {
		t.Helper()
		var auth *acp.AuthRequiredError
		if !errors.As(err, &auth) {
			t.Fatalf("err = %v, want an *AuthRequiredError", err)
		}
		if auth.Method != method || len(auth.Methods) != 2 {
			t.Errorf("auth = %+v, want method %s and 2 login methods", auth, method)
		}
		msg := err.Error()
		for _, want := range []string{`agent "tester" needs you to sign in`, "with a browser", "API key", "Agent ▸ Sign in…"} {
			if !strings.Contains(msg, want) {
				t.Errorf("err = %q, want it to say %q", msg, want)
			}
		}
		if hasControl(msg) || hasControl(acp.Describe(err, i18n.French)) {
			t.Errorf("err = %q holds a control character", msg)
		}
	}
	t.Run("session", func(t *testing.T) {
		c, info := startAgent(t, "auth", acp.Options{})
		if len(info.AuthMethods) != 2 || info.AuthMethods[1].ID != "key" {
			t.Errorf("auth methods = %+v", info.AuthMethods)
		}
		_, err := c.NewSession(testContext(t), "/work", newRecorder())
		check(t, err, "session/new")
	})
	t.Run("prompt", func(t *testing.T) {
		_, s, _ := session(t, "authprompt", acp.Options{})
		_, err := s.Prompt(testContext(t), text("echo hi"))
		check(t, err, "session/prompt")
	})
}

func TestEveryUpdateKindReachesTheHandler(t *testing.T) {
	c, s, rec := session(t, "basic", acp.Options{})
	if stop := prompt(t, s, "kinds"); stop != sdk.StopReasonEndTurn {
		t.Errorf("stop = %q", stop)
	}
	for kind, want := range map[string]string{
		acp.UserMessageChunk: "user says", acp.AgentMessageChunk: "agent says", acp.AgentThoughtChunk: "thinking",
	} {
		if got := rec.textOf(kind); got != want {
			t.Errorf("%s = %q, want %q", kind, got, want)
		}
	}
	for _, kind := range []string{"agent_message_chunk", "tool_call", "tool_call_update", "plan", "available_commands_update",
		"current_mode_update", "config_option_update", "session_info_update", "usage_update"} {
		if rec.kindCount(kind) != 1 {
			t.Errorf("Update got %d %s, want 1", rec.kindCount(kind), kind)
		}
	}
	st := c.Stats()
	if st.UnknownUpdates != 3 || st.LastUnknownKind != "tool_call" || st.LastUnknownError == "" {
		t.Errorf("stats = %+v, want 3 unknown updates, the last a tool_call with its error", st)
	}
	if st.Malformed != 0 || st.Ignored != 0 || st.Oversize != 0 {
		t.Errorf("stats = %+v, want nothing malformed, ignored or skipped", st)
	}
}

func TestMalformedMessagesAreCountedNotFatal(t *testing.T) {
	c, s, rec := session(t, "basic", acp.Options{})
	prompt(t, s, "malformed")
	if got := rec.textOf(acp.AgentMessageChunk); got != "after" {
		t.Errorf("agent text = %q, want only %q", got, "after")
	}
	st := c.Stats()
	if st.Malformed != 4 || st.Ignored != 10 {
		t.Errorf("stats = %+v, want 4 malformed and 10 ignored", st)
	}
	// The connection still works.
	prompt(t, s, "echo still here")
	if got := rec.textOf(acp.AgentMessageChunk); got != "afterstill here" {
		t.Errorf("agent text = %q", got)
	}
}

func TestWrongAndRepeatedIDs(t *testing.T) {
	c, s, _ := session(t, "basic", acp.Options{})
	if stop := prompt(t, s, "ids"); stop != sdk.StopReasonEndTurn {
		t.Errorf("stop = %q, want end_turn (the answer with the right id)", stop)
	}
	prompt(t, s, "echo sync")
	if st := c.Stats(); st.Ignored != 4 {
		t.Errorf("stats = %+v, want 4 ignored responses", st)
	}
}

func TestUnknownMethodsAreAnsweredMethodNotFound(t *testing.T) {
	_, s, rec := session(t, "basic", acp.Options{})
	prompt(t, s, "unknownmethod")
	if got := rec.textOf(acp.AgentMessageChunk); got != "codes=-32601,-32601" {
		t.Errorf("agent says %q", got)
	}
}

func TestLoadSession(t *testing.T) {
	c, info := startAgent(t, "load", acp.Options{})
	if !info.LoadSession {
		t.Fatal("the agent announced loadSession")
	}
	rec := newRecorder()
	s, err := c.LoadSession(testContext(t), "old-1", "/work", rec)
	if err != nil {
		t.Fatal(err)
	}
	if s.ID() != "old-1" || rec.textOf(acp.UserMessageChunk) != "earlier question" || rec.textOf(acp.AgentMessageChunk) != "earlier answer" {
		t.Errorf("session %q replayed %q / %q", s.ID(), rec.textOf(acp.UserMessageChunk), rec.textOf(acp.AgentMessageChunk))
	}
	if _, err := c.LoadSession(testContext(t), "old-1", "/work", rec); err == nil {
		t.Error("loading an open session twice succeeded")
	}

	plain, _ := startAgent(t, "basic", acp.Options{})
	if _, err := plain.LoadSession(testContext(t), "old-1", "/work", rec); !errors.Is(err, acp.ErrNoLoadSession) {
		t.Errorf("LoadSession without loadSession: %v", err)
	}
}

func TestClosedSessionIsIgnored(t *testing.T) {
	c, s, rec := session(t, "basic", acp.Options{})
	s2, err := c.NewSession(testContext(t), "/work", newRecorder())
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	// The agent's answer still arrives; the chunk for the closed session is ignored.
	if _, err := s.Prompt(testContext(t), text("echo gone")); err != nil {
		t.Fatal(err)
	}
	prompt(t, s2, "echo sync")
	if rec.textOf(acp.AgentMessageChunk) != "" || c.Stats().Ignored != 1 {
		t.Errorf("closed session got %q; stats %+v", rec.textOf(acp.AgentMessageChunk), c.Stats())
	}
}

func TestCloseUnblocksEveryCall(t *testing.T) {
	c := connect(t, startProcess(t, "silent"), acp.Options{InitTimeout: time.Hour})
	errc := make(chan error, 1)
	go func() {
		_, err := c.Initialize(context.Background())
		errc <- err
	}()
	// Wait until the request is on the wire: the agent then reads it and says nothing.
	deadline := time.Now().Add(testDeadline)
	for c.Stats().Sent == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	c.Close()
	select {
	case err := <-errc:
		if !errors.Is(err, acp.ErrClosed) {
			t.Errorf("err = %v, want ErrClosed", err)
		}
	case <-time.After(testDeadline):
		t.Fatal("Close did not unblock Initialize")
	}
	waitFor(t, c.Done(), "Done")
	if !errors.Is(c.Err(), acp.ErrClosed) {
		t.Errorf("Err() = %v", c.Err())
	}
}

func TestAgentExitMidTurn(t *testing.T) {
	c, s, rec := session(t, "basic", acp.Options{})
	_, err := s.Prompt(testContext(t), text("exit"))
	if !errors.Is(err, acp.ErrAgentExited) {
		t.Fatalf("err = %v, want ErrAgentExited", err)
	}
	if !strings.Contains(err.Error(), "the agent exited") || !strings.Contains(acp.Describe(err, i18n.French), "l'agent s'est arrêté") {
		t.Errorf("err = %q", err)
	}
	if rec.textOf(acp.AgentMessageChunk) != "bye" {
		t.Errorf("the chunk before the exit was lost: %q", rec.textOf(acp.AgentMessageChunk))
	}
	waitFor(t, c.Done(), "Done")
	if _, err := s.Prompt(testContext(t), text("echo again")); !errors.Is(err, acp.ErrAgentExited) {
		t.Errorf("prompt after the exit: %v", err)
	}
}

func TestGrandchildHoldingStdout(t *testing.T) {
	p := startProcess(t, "basic")
	c := connect(t, p, acp.Options{})
	if _, err := c.Initialize(testContext(t)); err != nil {
		t.Fatal(err)
	}
	rec := newRecorder()
	s, err := c.NewSession(testContext(t), "/work", rec)
	if err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() {
		_, err := s.Prompt(context.Background(), text("grandchild"))
		errc <- err
	}()
	waitFor(t, p.exited, "the agent's exit")
	// The grandchild keeps stdout open: the connection cannot see the end. The process
	// owner, who saw the exit, closes it (and kills the process group).
	select {
	case <-c.Done():
		t.Fatal("the connection ended although a grandchild holds the agent's stdout")
	default:
	}
	c.Close()
	select {
	case err := <-errc:
		if !errors.Is(err, acp.ErrClosed) {
			t.Errorf("err = %v, want ErrClosed", err)
		}
	case <-time.After(testDeadline):
		t.Fatal("Close did not unblock Prompt")
	}
}

func TestStderrFloodDoesNotMatter(t *testing.T) {
	_, s, rec := session(t, "basic", acp.Options{})
	if stop := prompt(t, s, "stderr 104857600"); stop != sdk.StopReasonEndTurn || rec.textOf(acp.AgentMessageChunk) != "done" {
		t.Errorf("stop %q, text %q", stop, rec.textOf(acp.AgentMessageChunk))
	}
}
