package acp_test

import (
	"slices"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/guard/guardtest"
)

// explodingHandler is a recorder whose Chunk panics on one text, as a bug in a handler
// hit by an agent's output would.
type explodingHandler struct {
	*recorder
	on string
}

func (h explodingHandler) Chunk(kind, text string) {
	if text == h.on {
		panic("handler exploded on " + text)
	}
	h.recorder.Chunk(kind, text)
}

func TestAPanicOnTheReadingGoroutineReachesTheGuard(t *testing.T) {
	rec := guardtest.New()
	c, _ := startAgent(t, "load", acp.Options{Go: rec.Go})
	// The agent replays the session before answering session/load: the second chunk
	// makes the handler panic on the reading goroutine.
	h := explodingHandler{recorder: newRecorder(), on: "earlier answer"}
	_, err := c.LoadSession(testContext(t), "s1", "/work", h)

	p := rec.WaitPanic(t, "acp reader")
	if p.Name != "acp reader tester" {
		t.Errorf("the panic came from %q, want the reader", p.Name)
	}
	if p.Value != "handler exploded on earlier answer" {
		t.Errorf("value %v, want the handler's", p.Value)
	}
	for _, frame := range []string{"explodingHandler.Chunk", "(*Conn).readLoop"} {
		if !strings.Contains(p.Stack, frame) {
			t.Errorf("the stack lacks %s:\n%s", frame, p.Stack)
		}
	}
	// With nothing reading the agent any more, the connection has ended: the call that
	// waited for an answer fails instead of waiting for ever.
	waitFor(t, c.Done(), "the end of the connection")
	if err == nil || !strings.Contains(err.Error(), "reading from the agent stopped on an internal error") {
		t.Errorf("session/load: %v, want the reader's stop", err)
	}
	if h.textOf(acp.UserMessageChunk) != "earlier question" {
		t.Errorf("the chunk before the panic was not delivered: %q", h.textOf(acp.UserMessageChunk))
	}
}

func TestConnStartsItsGoroutinesThroughTheGivenStarter(t *testing.T) {
	rec := guardtest.New()
	_, s, perms := session(t, "basic", acp.Options{Go: rec.Go, MaxLine: 1 << 20})
	rec.WaitStarted(t, "acp reader tester")
	rec.WaitStarted(t, "acp writer tester")
	perms.setPerm(allow)
	prompt(t, s, "perm") // the permission is asked on a goroutine of its own
	rec.WaitStarted(t, "acp request tester")
	prompt(t, s, "bigrequest 2000000") // refused unread, on a goroutine of its own
	rec.WaitStarted(t, "acp answer tester")
	want := []string{"acp reader tester", "acp writer tester", "acp request tester", "acp answer tester"}
	for _, name := range rec.Started() {
		if !slices.Contains(want, name) {
			t.Errorf("started %q, not one of the connection's goroutines %q", name, want)
		}
	}
	if got := rec.Panics(); len(got) != 0 {
		t.Errorf("panics: %+v", got)
	}
}
