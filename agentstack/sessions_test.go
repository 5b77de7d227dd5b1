package agentstack

import (
	"context"
	"strings"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// waitTraced waits until the trace has n lines that contain s.
func (r *rig) waitTraced(s string, n int) {
	r.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for len(r.traced(s)) < n {
		if time.Now().After(deadline) {
			r.t.Fatalf("the trace has %d lines with %s, want %d", len(r.traced(s)), s, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// gemRig is a rig whose agent gem is a session test agent in mode, with gem's
// conversation open.
func gemRig(t *testing.T, mode string) (*rig, chat.Key) {
	t.Helper()
	cfg := loadConfig(t, testagents.WriteConfig(t, t.TempDir(), 2, testagents.ModeEntry(t, "gem", mode, t.TempDir())))
	r := newRig(t, cfg, rigOptions{})
	k := chat.AgentKey("gem")
	if _, err := r.svc.Open(k); err != nil {
		t.Fatal(err)
	}
	return r, k
}

// allText is the text of every entry of the conversation.
func allText(conv *chat.Conversation) string {
	var b strings.Builder
	for _, e := range conv.Snapshot() {
		b.WriteString(e.Text + "\n")
	}
	return b.String()
}

// A conversation continues one of the agent's listed sessions through session/resume: the
// session's title comes with it, the previous session is closed with session/close, and
// the conversation's own session is closed too when it closes.
func TestAConversationContinuesAListedSession(t *testing.T) {
	r, k := gemRig(t, "sessions")
	r.turn(k, "title First steps")
	conv, _ := r.svc.Conversation(k)
	if got := conv.SessionTitle("gem"); got != "First steps" {
		t.Fatalf("session title %q after session_info_update", got)
	}
	if u, ok := conv.Usage("gem"); !ok || u.Used != 4321 || u.Cost == nil {
		t.Fatalf("usage %+v %v", u, ok)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := r.svc.ContinueSession(ctx, k, "gem", "past-2", "Write the docs"); err != nil {
		t.Fatal(err)
	}
	if got := conv.SessionTitle("gem"); got != "Write the docs" {
		t.Errorf("session title %q after resuming", got)
	}
	if u, _ := conv.Usage("gem"); u.Used != 1200 {
		t.Errorf("the usage shown is not the resumed session's: %+v", u)
	}
	if text := allText(conv); !strings.Contains(text, "gem continues its session “Write the docs” (resumed") {
		t.Errorf("no notice of the session continued:\n%s", text)
	}
	r.waitTraced(`"method":"session/close","params":{"sessionId":"sessions-1"}`, 1)
	r.turn(k, "heard")
	if text := allText(conv); !strings.Contains(text, "heard: resumed past-2, closed sessions-1") {
		t.Errorf("the agent did not continue past-2:\n%s", text)
	}
	r.svc.Close(k)
	r.waitTraced(`"method":"session/close","params":{"sessionId":"past-2"}`, 1)
}

// An agent that cannot resume loads the session, and its replay shows.
func TestAConversationLoadsAListedSession(t *testing.T) {
	r, k := gemRig(t, "sessions-load")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := r.svc.ContinueSession(ctx, k, "gem", "past-1", "Fix the parser"); err != nil {
		t.Fatal(err)
	}
	conv, _ := r.svc.Conversation(k)
	text := allText(conv)
	if !strings.Contains(text, "an old answer") || !strings.Contains(text, "(loaded") {
		t.Errorf("the loaded session's messages are not shown:\n%s", text)
	}
	if len(r.traced(`"method":"session/close"`)) != 0 {
		t.Error("session/close sent to an agent that does not offer it")
	}
}

// A message sent while a session is being continued waits for it, and goes to it.
func TestAMessageWaitsForTheSessionBeingContinued(t *testing.T) {
	r, k := gemRig(t, "sessions")
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		done <- r.svc.ContinueSession(ctx, k, "gem", "past-3", "Release 2.0") // a second to reopen
	}()
	deadline := time.Now().Add(30 * time.Second)
	for ts := r.svc.Turns(k); len(ts) == 0 || ts[0].Phase != chat.PhaseOpening; ts = r.svc.Turns(k) {
		if time.Now().After(deadline) {
			t.Fatal("the session being continued does not show as opening")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := r.svc.Send(k, "heard"); err != nil {
		t.Fatal(err)
	}
	r.next(k)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	prompts := r.traced(`"method":"session/prompt"`)
	if len(prompts) != 1 || !strings.Contains(prompts[0], `"sessionId":"past-3"`) {
		t.Errorf("the message sent meanwhile was prompted as %q, want to the continued session", prompts)
	}
	if n := len(r.traced(`"method":"session/new"`)); n != 0 {
		t.Errorf("a new session was made meanwhile (%d)", n)
	}
}
