package agentstack

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// kindPerms answers every permission request with the first option of one kind; with
// kind "", it gives no answer.
type kindPerms struct {
	mu   sync.Mutex
	kind string
}

func (p *kindPerms) set(kind string) {
	p.mu.Lock()
	p.kind = kind
	p.mu.Unlock()
}

func (p *kindPerms) Ask(_ context.Context, _ string, req chat.PermissionRequest) (string, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, o := range req.Options {
		if p.kind != "" && o.Kind == p.kind {
			return o.ID, true
		}
	}
	return "", false
}

// lastReply returns the text of the conversation's last agent entry.
func lastReply(t *testing.T, r *rig, k chat.Key) string {
	t.Helper()
	conv, err := r.svc.Open(k)
	if err != nil {
		t.Fatal(err)
	}
	es := conv.Snapshot()
	for i := len(es) - 1; i >= 0; i-- {
		if es[i].Kind == chat.KindAgent {
			return es[i].Text
		}
	}
	return ""
}

// TestPermissionAnswersBind runs an agent that writes the file it asked about whatever
// the answer: a write the user did not allow is refused for the rest of the turn, and
// only to the files the tool call named.
func TestPermissionAnswersBind(t *testing.T) {
	dir := testagents.Env(t)
	ws := filepath.Join(dir, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := loadConfig(t, testagents.WriteConfig(t, dir, 2, testagents.ModeEntry(t, "pushy", "pushy", ws)))
	perms := &kindPerms{}
	r := newRig(t, cfg, rigOptions{perms: perms})
	k := chat.AgentKey("pushy")
	asked, other := filepath.Join(ws, "asked.txt"), filepath.Join(ws, "other.txt")
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			return "(" + err.Error() + ")"
		}
		return string(b)
	}

	for _, answer := range []string{"reject_once", ""} {
		if err := os.WriteFile(asked, []byte("original"), 0o644); err != nil {
			t.Fatal(err)
		}
		_ = os.Remove(other)
		perms.set(answer)
		if res := r.turn(k, "write"); res.Err != nil || res.StopReason != chat.StopEndTurn {
			t.Fatalf("answer %q: result %+v", answer, res)
		}
		reply := lastReply(t, r, k)
		if got := read(asked); got != "original" {
			t.Errorf("answer %q: asked.txt holds %q, want it unchanged; the agent said %q", answer, got, reply)
		}
		if !strings.Contains(reply, `asked.txt: refused: writing `+asked+`: permission was not given for "Write asked.txt"`) {
			t.Errorf("answer %q: the agent was not told why: %q", answer, reply)
		}
		// A file the tool call did not name is not covered by the answer.
		if got := read(other); got != "pushed other.txt" || !strings.Contains(reply, "other.txt: written") {
			t.Errorf("answer %q: other.txt holds %q; the agent said %q", answer, got, reply)
		}
	}

	// The refusal lasts for its turn: the next one may write what the user allows.
	perms.set("allow_once")
	if res := r.turn(k, "write"); res.Err != nil || res.StopReason != chat.StopEndTurn {
		t.Fatalf("allowed: result %+v", res)
	}
	if got := read(asked); got != "pushed asked.txt" {
		t.Errorf("allowed: asked.txt holds %q; the agent said %q", got, lastReply(t, r, k))
	}
}
