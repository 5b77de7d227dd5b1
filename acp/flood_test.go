package acp_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/acp"
	sdk "github.com/coder/acp-go-sdk"
)

func TestLongLines(t *testing.T) {
	c, s, rec := session(t, "basic", acp.Options{})
	peak := sampleMemory()

	// 10 MiB: under the 16 MiB limit, read whole.
	prompt(t, s, fmt.Sprintf("line %d", 10<<20))
	if got := rec.bytesOf(acp.AgentMessageChunk); got != int64(10<<20+len("after")) {
		t.Errorf("received %d bytes of text, want %d", got, 10<<20+len("after"))
	}
	// 20 MiB: skipped while read, counted; what follows arrives.
	prompt(t, s, fmt.Sprintf("line %d", 20<<20))
	if got := rec.bytesOf(acp.AgentMessageChunk); got != int64(10<<20+2*len("after")) {
		t.Errorf("received %d bytes of text, want the 20 MiB line skipped", got)
	}
	if st := c.Stats(); st.Oversize != 1 {
		t.Errorf("stats = %+v, want 1 line skipped", st)
	}
	assertPeak(t, peak())
}

func TestOversizeAnswerFailsItsRequest(t *testing.T) {
	c, s, _ := session(t, "basic", acp.Options{})
	_, err := s.Prompt(testContext(t), text(fmt.Sprintf("bigresponse %d", 20<<20)))
	var over *acp.OversizeError
	if !errors.As(err, &over) {
		t.Fatalf("err = %v, want an *OversizeError", err)
	}
	if over.Method != "session/prompt" || over.Size != 20<<20 || !strings.Contains(err.Error(), "over the 16 MiB limit") {
		t.Errorf("err = %q (%+v)", err, over)
	}
	// The connection goes on.
	prompt(t, s, "echo ok")
	if st := c.Stats(); st.Oversize != 1 {
		t.Errorf("stats = %+v", st)
	}
}

func TestOversizeRequestIsAnsweredWithAnError(t *testing.T) {
	_, s, rec := session(t, "basic", acp.Options{MaxLine: 1 << 20})
	prompt(t, s, fmt.Sprintf("bigrequest %d", 2<<20))
	if got := rec.textOf(acp.AgentMessageChunk); got != "code=-32600" {
		t.Errorf("agent says %q, want the request refused with -32600", got)
	}
}

func TestPermissionGrantedAndRefused(t *testing.T) {
	_, s, rec := session(t, "basic", acp.Options{})
	rec.setPerm(allow)
	prompt(t, s, "perm")
	if got := rec.textOf(acp.AgentMessageChunk); got != "outcome=allow" {
		t.Errorf("agent says %q", got)
	}

	_, s, rec = session(t, "basic", acp.Options{})
	prompt(t, s, "perm") // the recorder refuses by default
	if got := rec.textOf(acp.AgentMessageChunk); got != "outcome=reject" {
		t.Errorf("agent says %q", got)
	}
	if reqs := rec.permRequests(); len(reqs) != 1 || len(reqs[0].Options) != 2 || reqs[0].ToolCall.ToolCallId != "p1" {
		t.Errorf("handler got %+v", reqs)
	}
}

func TestCancelAnswersPendingPermissionsCancelled(t *testing.T) {
	_, s, rec := session(t, "basic", acp.Options{})
	asked := make(chan struct{})
	rec.setPerm(func(ctx context.Context, req sdk.RequestPermissionRequest) sdk.RequestPermissionResponse {
		close(asked)
		<-ctx.Done() // the user never answers
		return choose(req, sdk.PermissionOptionKindAllowOnce)
	})
	type result struct {
		stop sdk.StopReason
		err  error
	}
	done := make(chan result, 1)
	go func() {
		stop, err := s.Prompt(testContext(t), text("perm"))
		done <- result{stop, err}
	}()
	waitFor(t, asked, "the permission request")
	if err := s.Cancel(); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err != nil || r.stop != sdk.StopReasonCancelled {
		t.Fatalf("prompt = %q, %v; want cancelled", r.stop, r.err)
	}
	// The first request was cancelled; the second, asked after the cancel, was answered
	// "cancelled" without asking the user.
	if got := rec.textOf(acp.AgentMessageChunk); got != "outcome=cancelled second=cancelled" {
		t.Errorf("agent says %q", got)
	}
	if n := rec.permCalls.Load(); n != 1 {
		t.Errorf("the handler was asked %d times, want 1", n)
	}
	// The next turn asks again.
	rec.setPerm(allow)
	prompt(t, s, "perm")
	if got := rec.textOf(acp.AgentMessageChunk); !strings.HasSuffix(got, "outcome=allow") {
		t.Errorf("agent says %q", got)
	}
}

func TestPermissionFlood(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"", " nostdin"} {
		t.Run("flood"+mode, func(t *testing.T) {
			_, s, rec := session(t, "basic", acp.Options{})
			rec.setPerm(allow)
			peak := sampleMemory()
			prompt(t, s, "permflood 10000"+mode)
			if got := rec.textOf(acp.AgentMessageChunk); got != "selected=10000 cancelled=0 errors=0" {
				t.Errorf("agent says %q", got)
			}
			assertPeak(t, peak())
		})
	}
}

func TestToolCallUpdateFlood(t *testing.T) {
	t.Parallel()
	c, s, rec := session(t, "basic", acp.Options{})
	peak := sampleMemory()
	prompt(t, s, "toolflood 100000")
	if n := rec.kindCount("tool_call_update"); n != 100000 {
		t.Errorf("handler got %d tool_call_updates, want 100000", n)
	}
	if st := c.Stats(); st.Received != 100000+3 || st.Ignored != 0 {
		t.Errorf("stats = %+v", st)
	}
	assertPeak(t, peak())
}

func TestChunkFlood(t *testing.T) {
	t.Parallel()
	// 50 MB on the wire: 80,000 chunks of 512 bytes of text (about 640 bytes a line).
	const n, size = 80000, 512
	c, s, rec := session(t, "basic", acp.Options{})
	peak := sampleMemory()
	prompt(t, s, fmt.Sprintf("chunkflood %d %d", n, size))
	if got := rec.bytesOf(acp.AgentMessageChunk); got != n*size {
		t.Errorf("received %d bytes of text, want %d", got, n*size)
	}
	if st := c.Stats(); st.Received != n+3 {
		t.Errorf("stats = %+v", st)
	}
	assertPeak(t, peak())
}
