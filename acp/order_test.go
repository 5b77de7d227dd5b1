package acp_test

import (
	"context"
	"errors"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/acp"
	sdk "github.com/coder/acp-go-sdk"
)

// These tests check the order in which a session's messages reach a real agent process:
// the test agent's "order" and "permorder" scenarios say what it read, in order.

func TestCancelBetweenBeginTurnAndPromptFollowsThePrompt(t *testing.T) {
	_, s, rec := session(t, "basic", acp.Options{})
	// The turn is decided, its prompt not sent yet: the cancel must wait for it.
	s.BeginTurn()
	if err := s.Cancel(); err != nil {
		t.Fatal(err)
	}
	if stop := prompt(t, s, "order wait"); stop != sdk.StopReasonCancelled {
		t.Errorf("stop reason %q, want cancelled", stop)
	}
	if got := rec.textOf(acp.AgentMessageChunk); got != "prompt cancel" {
		t.Errorf("the agent read %q, want the prompt, then the cancel", got)
	}
}

func TestCancelWhilePromptIsBeingQueuedFollowsThePrompt(t *testing.T) {
	_, s, rec := session(t, "basic", acp.Options{})
	ran := false
	var cancelErr error
	// Cancel runs inside Prompt, after the turn began and before its request is queued.
	acp.SetBeforeQueue(s, func() {
		ran = true
		cancelErr = s.Cancel()
	})
	stop := prompt(t, s, "order wait")
	if !ran || cancelErr != nil {
		t.Fatalf("the hook ran: %v, Cancel: %v", ran, cancelErr)
	}
	if stop != sdk.StopReasonCancelled {
		t.Errorf("stop reason %q, want cancelled", stop)
	}
	if got := rec.textOf(acp.AgentMessageChunk); got != "prompt cancel" {
		t.Errorf("the agent read %q, want the prompt, then the cancel", got)
	}
}

func TestCancelWithNoTurnStartingCancelsNoLaterTurn(t *testing.T) {
	_, s, rec := session(t, "basic", acp.Options{})
	// turn runs a turn that must end normally and returns what the agent had read.
	turn := func(what string) string {
		t.Helper()
		before := len(rec.textOf(acp.AgentMessageChunk))
		if stop := prompt(t, s, "order"); stop != sdk.StopReasonEndTurn {
			t.Errorf("%s: stop reason %q, want end_turn", what, stop)
		}
		return rec.textOf(acp.AgentMessageChunk)[before:]
	}
	mustCancel := func(what string) {
		t.Helper()
		if err := s.Cancel(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}

	mustCancel("a cancel on an idle session")
	if got := turn("the first turn"); got != "cancel prompt" {
		t.Errorf("first turn: the agent read %q", got)
	}
	mustCancel("a cancel after the turn ended")
	s.BeginTurn()
	mustCancel("a cancel of a turn begun, then abandoned")
	s.BeginTurn()
	// The idle cancels were sent at once (an agent ignores them); the abandoned turn's
	// cancel was dropped with it; no cancel followed a prompt.
	if got := turn("the turn begun next"); got != "cancel prompt cancel prompt" {
		t.Errorf("second turn: the agent read %q", got)
	}
	if got := turn("one more turn"); got != "cancel prompt cancel prompt prompt" {
		t.Errorf("third turn: the agent read %q", got)
	}
}

func TestCancelIsSentBeforeThePermissionAnswers(t *testing.T) {
	_, s, rec := session(t, "basic", acp.Options{})
	asked := make(chan struct{})
	rec.setPerm(func(ctx context.Context, req sdk.RequestPermissionRequest) sdk.RequestPermissionResponse {
		close(asked)
		<-ctx.Done()
		return choose(req, sdk.PermissionOptionKindAllowOnce)
	})
	type result struct {
		stop sdk.StopReason
		err  error
	}
	done := make(chan result, 1)
	go func() {
		stop, err := s.Prompt(testContext(t), text("permorder"))
		done <- result{stop, err}
	}()
	waitFor(t, asked, "the permission request")
	if err := s.Cancel(); err != nil {
		t.Fatal(err)
	}
	if r := <-done; r.err != nil || r.stop != sdk.StopReasonCancelled {
		t.Fatalf("prompt = %q, %v; want cancelled", r.stop, r.err)
	}
	if got := rec.textOf(acp.AgentMessageChunk); got != "prompt cancel answer" {
		t.Errorf("the agent read %q, want the cancel before the answer", got)
	}
}

func TestDemoAgentCancelBeforeThePromptIsSent(t *testing.T) {
	d := startDemo(t, acp.Options{})
	d.session.BeginTurn()
	if err := d.session.Cancel(); err != nil {
		t.Fatal(err)
	}
	if stop, _ := d.turn(t, "/slow"); stop != sdk.StopReasonCancelled {
		t.Errorf("stop reason %q, want cancelled", stop)
	}
	// The next turn is not cancelled.
	if stop, reply := d.turn(t, "/echo still here"); stop != sdk.StopReasonEndTurn || reply == "" {
		t.Errorf("next turn: %q, %q", stop, reply)
	}
}

func TestCancelAfterTheConnectionEnded(t *testing.T) {
	c, s, _ := session(t, "basic", acp.Options{})
	c.Close()
	if err := s.Cancel(); !errors.Is(err, acp.ErrClosed) {
		t.Errorf("Cancel = %v, want ErrClosed", err)
	}
	s.BeginTurn()
	if err := s.Cancel(); err != nil {
		t.Errorf("a cancel held for the turn: %v", err)
	}
	if _, err := s.Prompt(testContext(t), text("echo x")); !errors.Is(err, acp.ErrClosed) {
		t.Errorf("Prompt = %v, want ErrClosed", err)
	}
}
