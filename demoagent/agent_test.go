package demoagent

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"
)

func TestInitialize(t *testing.T) {
	c := startAgent(t, Options{Name: "alice"})
	resp := c.initialize()
	if resp.ProtocolVersion != 1 {
		t.Errorf("protocolVersion = %d, want 1", resp.ProtocolVersion)
	}
	caps := resp.AgentCapabilities
	if !caps.LoadSession || !caps.PromptCapabilities.EmbeddedContext {
		t.Errorf("capabilities = %+v, want loadSession and embeddedContext", caps)
	}
	if caps.PromptCapabilities.Image || caps.PromptCapabilities.Audio {
		t.Errorf("image or audio announced: %+v", caps.PromptCapabilities)
	}
	if resp.AgentInfo == nil || resp.AgentInfo.Name != "sidekicks-demo" || resp.AgentInfo.Version == "" {
		t.Errorf("agentInfo = %+v", resp.AgentInfo)
	}
	if resp.AuthMethods == nil || len(resp.AuthMethods) != 0 {
		t.Errorf("authMethods = %v, want an empty list", resp.AuthMethods)
	}
}

func TestInitializeAnswersVersionOneToAnyVersion(t *testing.T) {
	c := startAgent(t, Options{})
	id := c.request(sdk.AgentMethodInitialize, sdk.InitializeRequest{ProtocolVersion: 7})
	var resp sdk.InitializeResponse
	c.result(c.until(id).resp, &resp)
	if resp.ProtocolVersion != 1 {
		t.Errorf("protocolVersion = %d, want 1", resp.ProtocolVersion)
	}
}

func TestNewSessionAnnouncesCommands(t *testing.T) {
	c := startAgent(t, Options{})
	c.initialize()
	id1, updates := c.newSession(t.TempDir())
	id2, _ := c.newSession(t.TempDir())
	if id1 == "" || id1 == id2 {
		t.Errorf("session ids %q and %q, want two distinct ids", id1, id2)
	}
	if len(updates) != 1 || updates[0].AvailableCommandsUpdate == nil {
		t.Fatalf("updates after session/new = %+v, want one available_commands_update", updates)
	}
	got := map[string]string{}
	for _, cmd := range updates[0].AvailableCommandsUpdate.AvailableCommands {
		hint := ""
		if cmd.Input != nil && cmd.Input.Unstructured != nil {
			hint = cmd.Input.Unstructured.Hint
		}
		if cmd.Description == "" {
			t.Errorf("command %q has no description", cmd.Name)
		}
		got[cmd.Name] = hint
	}
	want := map[string]bool{"help": false, "echo": true, "slow": false, "read": true, "write": true, "heard": false, "flood": true, "floodlines": true, "word": true, "fail": false, "crash": false}
	for name, takesInput := range want {
		hint, ok := got[name]
		if !ok {
			t.Errorf("command %q not announced", name)
		} else if takesInput != (hint != "") {
			t.Errorf("command %q: hint %q, takes input: %v", name, hint, takesInput)
		}
	}
}

func TestPromptUnknownSession(t *testing.T) {
	c := startAgent(t, Options{})
	c.initialize()
	log := c.prompt("demo-nope", sdk.TextBlock("hello"))
	if log.resp.Error == nil || log.resp.Error.Code != codeInvalidParams {
		t.Errorf("prompt on an unknown session answered %s, want an invalid params error", log.resp.raw)
	}
}

func TestUnknownMethodAndNotification(t *testing.T) {
	var logBuf syncBuffer
	c := startAgent(t, Options{Log: &logBuf})
	c.notify("something/unknown", map[string]any{"x": 1})
	c.writeRaw(`{"jsonrpc":"2.0","id":`) // malformed: ignored, logged
	c.writeRaw(`this is not json`)
	id := c.request("session/teleport", map[string]any{})
	log := c.until(id)
	if log.resp.Error == nil || log.resp.Error.Code != codeMethodNotFound {
		t.Errorf("unknown method answered %s, want method not found", log.resp.raw)
	}
	if !strings.Contains(logBuf.String(), "malformed") {
		t.Errorf("malformed lines not reported; log: %q", logBuf.String())
	}
	// The connection still works.
	if resp := c.initialize(); resp.ProtocolVersion != 1 {
		t.Errorf("initialize after bad input: %+v", resp)
	}
}

func TestRunReturnsOnEOFAndOnCancel(t *testing.T) {
	err := Run(context.Background(), strings.NewReader(""), io.Discard, Options{StateDir: "-"})
	if err != nil {
		t.Errorf("Run on an empty input = %v, want nil", err)
	}
	inR, inW := io.Pipe()
	defer inW.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Run(ctx, inR, io.Discard, Options{StateDir: "-"}) }()
	cancel()
	select {
	case <-done:
	case <-time.After(wait):
		t.Fatal("Run did not return after its context ended")
	}
}

func TestFail(t *testing.T) {
	c := startAgent(t, Options{})
	c.initialize()
	sid, _ := c.newSession(t.TempDir())
	log := c.prompt(sid, sdk.TextBlock("/fail"))
	if log.resp.Error == nil || log.resp.Error.Code != codeInternalError || !strings.Contains(log.resp.Error.Message, "on purpose") {
		t.Errorf("/fail answered %s, want an internal error", log.resp.raw)
	}
	// The session is free again.
	if got := c.prompt(sid, sdk.TextBlock("/echo still here")).replyText(); got != "still here" {
		t.Errorf("echo after /fail = %q", got)
	}
}

func TestCrash(t *testing.T) {
	exited := make(chan int, 1)
	c := startAgent(t, Options{Exit: func(code int) { exited <- code }})
	c.initialize()
	sid, _ := c.newSession(t.TempDir())
	c.sendPrompt(sid, sdk.TextBlock("/crash"))
	select {
	case code := <-exited:
		if code != 3 {
			t.Errorf("exit status %d, want 3", code)
		}
	case <-time.After(wait):
		t.Fatal("/crash did not exit")
	}
	select {
	case err := <-c.done:
		c.done <- err
		if !errors.Is(err, ErrCrashed) {
			t.Errorf("Run returned %v, want ErrCrashed", err)
		}
	case <-time.After(wait):
		t.Fatal("Run did not return after /crash")
	}
	for r := range c.msgs {
		if r.isResponse() {
			t.Errorf("the crashed turn was answered: %s", r.raw)
		}
	}
}

func TestSecondPromptWhileBusyIsRefused(t *testing.T) {
	c := startAgent(t, Options{})
	c.initialize()
	sid, _ := c.newSession(t.TempDir())
	slow := c.sendPrompt(sid, sdk.TextBlock("/slow"))
	second := c.sendPrompt(sid, sdk.TextBlock("hello"))
	for {
		r := c.next()
		if r.isResponse() {
			if string(r.ID) != second || r.Error == nil || r.Error.Code != codeInvalidRequest {
				t.Fatalf("expected the second prompt refused first, got %s", r.raw)
			}
			break
		}
	}
	c.notify(sdk.AgentMethodSessionCancel, sdk.CancelNotification{SessionId: sdk.SessionId(sid)})
	if got := c.stopReason(c.until(slow)); got != sdk.StopReasonCancelled {
		t.Errorf("stop reason %q, want cancelled", got)
	}
}

// syncBuffer is a bytes.Buffer safe for the agent's log and the test to share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
