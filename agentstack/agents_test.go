package agentstack

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/store"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// The tests of this file run chat's Service over the real pieces: the supervisor starting
// real agent processes (this test binary run again as `sidekicks demo-agent`, or as a small
// misbehaving agent), the ACP client, and a real SQLite history.

func TestServiceKeepsHistoryAndContinuesTheSession(t *testing.T) {
	cfg, st, w := demoWithHistory(t)
	k := chat.AgentKey("demo")

	first := newRig(t, cfg, rigOptions{history: newStoreHistory(st, w)})
	if r := first.turn(k, "show me some go"); r.StopReason != chat.StopEndTurn || r.Err != nil {
		t.Fatalf("first turn: %+v", r)
	}
	conv, _ := first.svc.Open(k)
	entries := conv.Snapshot()
	for _, want := range []chat.EntryKind{chat.KindUser, chat.KindPlan, chat.KindThought, chat.KindAgent} {
		if !slices.Contains(kinds(entries), want) {
			t.Errorf("no %s entry in %v", want, kinds(entries))
		}
	}
	if reply := entries[len(entries)-1]; reply.Kind != chat.KindAgent || !strings.Contains(reply.Text, "```go") {
		t.Errorf("last entry %+v, want the reply with a Go code block", reply)
	}
	first.close()

	convID, _ := st.AgentConversation("demo")
	sid, _ := st.Session(convID, "demo")
	if !strings.HasPrefix(sid, "demo-") {
		t.Fatalf("stored session id %q", sid)
	}
	stored, err := st.LastPage(convID, 100)
	if err != nil || len(stored) != len(entries) {
		t.Fatalf("the store holds %d entries (%v), the conversation had %d", len(stored), err, len(entries))
	}
	if got := stored[len(stored)-1].Text; got != entries[len(entries)-1].Text {
		t.Errorf("stored reply %q, want %q", got, entries[len(entries)-1].Text)
	}

	// Sidekicks again, on the same history: the history shows, and the agent's new process
	// continues the same ACP session.
	second := newRig(t, cfg, rigOptions{history: newStoreHistory(st, w)})
	conv2, err := second.svc.Open(k)
	if err != nil {
		t.Fatal(err)
	}
	if conv2.Len() != len(entries) {
		t.Errorf("reopened with %d entries, want %d", conv2.Len(), len(entries))
	}
	if r := second.turn(k, "/echo again"); r.StopReason != chat.StopEndTurn {
		t.Fatalf("second turn: %+v", r)
	}
	if loads := second.traced(`"method":"session/load"`); len(loads) != 1 || !strings.Contains(loads[0], sid) {
		t.Errorf("session/load calls %q, want one of %s", loads, sid)
	}
	if news := second.traced(`"method":"session/new"`); len(news) != 0 {
		t.Errorf("a new session was made: %q", news)
	}
	after := conv2.Snapshot()
	if len(after) != len(entries)+2 {
		t.Errorf("%d entries after the reloaded turn, want %d: the replay must not show twice: %v", len(after), len(entries)+2, kinds(after))
	}
	if last := after[len(after)-1]; last.Text != "again" {
		t.Errorf("reply %q", last.Text)
	}
	second.close()
	if n, _ := st.Count(convID); n != len(entries)+2 {
		t.Errorf("the store holds %d entries, want %d", n, len(entries)+2)
	}
}

func TestServiceReloadsTheSessionWhenTheAgentRestarts(t *testing.T) {
	dir := testagents.Env(t)
	cfg := loadConfig(t, testagents.WriteConfig(t, dir, 2, testagents.DemoEntry(t, "demo", dir, filepath.Join(dir, "state"), "")))
	r := newRig(t, cfg, rigOptions{})
	k := chat.AgentKey("demo")
	r.turn(k, "/echo one")
	c := r.conns.Get("demo")
	if c == nil || !c.Info().LoadSession || c.Stats().Received == 0 {
		t.Fatalf("the running agent's connection: %v", c)
	}
	if err := r.sup.Stop("demo"); err != nil {
		t.Fatal(err)
	}
	if r.conns.Get("demo") != nil {
		t.Error("a stopped agent still has a connection")
	}
	if res := r.turn(k, "/echo two"); res.StopReason != chat.StopEndTurn {
		t.Fatalf("turn after the restart: %+v", res)
	}
	if n := len(r.traced(`"method":"session/load"`)); n != 1 {
		t.Errorf("%d session/load, want 1", n)
	}
	conv, _ := r.svc.Open(k)
	var got []string
	for _, e := range conv.Snapshot() {
		got = append(got, string(e.Kind)+":"+e.Text)
	}
	if want := []string{"user:/echo one", "agent:one", "user:/echo two", "agent:two"}; !slices.Equal(got, want) {
		t.Errorf("conversation %q, want %q", got, want)
	}
}

func TestServiceSaysTheAgentForgot(t *testing.T) {
	dir := testagents.Env(t)
	cfg := loadConfig(t, testagents.WriteConfig(t, dir, 2, testagents.ModeEntry(t, "plain", "noload", dir)))
	r := newRig(t, cfg, rigOptions{lang: i18n.French})
	k := chat.AgentKey("plain")
	r.turn(k, "one")
	if err := r.sup.Stop("plain"); err != nil {
		t.Fatal(err)
	}
	r.turn(k, "two")
	conv, _ := r.svc.Open(k)
	es := conv.Snapshot()
	want := "plain : une nouvelle session a commencé ; l'agent ne se souvient pas des messages précédents"
	if len(es) != 5 || es[3].Kind != chat.KindNotice || es[3].Text != want {
		t.Errorf("conversation %+v, want the notice before the second reply", es)
	}
	if n := len(r.traced(`"method":"session/new"`)); n != 2 {
		t.Errorf("%d session/new, want 2", n)
	}
}

// waitingPerms holds every permission request until it is cancelled.
type waitingPerms struct {
	asked chan string
	ended chan error
}

func (p *waitingPerms) Ask(ctx context.Context, agent string, req chat.PermissionRequest) (string, bool) {
	p.asked <- req.Title
	<-ctx.Done()
	p.ended <- ctx.Err()
	return req.Options[0].ID, true
}

func TestServiceCancelWithdrawsThePermissionRequest(t *testing.T) {
	dir := testagents.Env(t)
	cfg := loadConfig(t, testagents.WriteConfig(t, dir, 2, testagents.DemoEntry(t, "demo", dir, filepath.Join(dir, "state"), "")))
	perms := &waitingPerms{asked: make(chan string, 1), ended: make(chan error, 1)}
	r := newRig(t, cfg, rigOptions{perms: perms})
	k := chat.AgentKey("demo")
	if err := r.svc.Send(k, "/write f.txt secret"); err != nil {
		t.Fatal(err)
	}
	select {
	case title := <-perms.asked:
		if !strings.Contains(title, "f.txt") {
			t.Errorf("asked about %q", title)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no permission request")
	}
	r.svc.Cancel(k)
	select {
	case <-perms.ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the permission request was not withdrawn")
	}
	// The demo agent takes the withdrawn request as a refusal: depending on whether it reads
	// the answer or session/cancel first, it ends the turn normally or cancelled.
	if res := r.next(k); res.Err != nil || !res.Cancelled || (res.StopReason != chat.StopCancelled && res.StopReason != chat.StopEndTurn) {
		t.Errorf("result %+v", res)
	}
	if _, err := os.Stat(filepath.Join(dir, "f.txt")); !os.IsNotExist(err) {
		t.Errorf("f.txt was written (%v)", err)
	}
	if n := len(r.traced(`"method":"session/cancel"`)); n < 1 {
		t.Error("no session/cancel was sent")
	}
}

func TestServiceMentionsCarryWorkspaceFiles(t *testing.T) {
	dir := testagents.Env(t)
	ws := filepath.Join(dir, "ws")
	if err := os.MkdirAll(filepath.Join(ws, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "docs", "notes.md"), []byte("alpha\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := loadConfig(t, testagents.WriteConfig(t, dir, 2, testagents.DemoEntry(t, "demo", ws, filepath.Join(dir, "state"), "")))
	r := newRig(t, cfg, rigOptions{})
	k := chat.AgentKey("demo")
	r.turn(k, "explain @docs/notes.md and @docs please")
	uri := "file://" + filepath.ToSlash(filepath.Join(ws, "docs", "notes.md"))
	prompts := r.traced(`"method":"session/prompt"`)
	if len(prompts) != 1 {
		t.Fatalf("%d prompts traced", len(prompts))
	}
	var msg struct {
		Params struct {
			Prompt []json.RawMessage `json:"prompt"`
		} `json:"params"`
	}
	if err := json.Unmarshal([]byte(prompts[0][strings.Index(prompts[0], "{"):]), &msg); err != nil {
		t.Fatal(err)
	}
	var blocks []string
	for _, b := range msg.Params.Prompt {
		blocks = append(blocks, string(b))
	}
	want := []string{
		`{"text":"explain ","type":"text"}`,
		`{"resource":{"mimeType":"text/markdown","text":"alpha\n","uri":"` + uri + `"},"type":"resource"}`,
		`{"text":" and @docs please","type":"text"}`,
	}
	if !slices.Equal(blocks, want) {
		t.Errorf("prompt blocks:\n%s\nwant:\n%s", strings.Join(blocks, "\n"), strings.Join(want, "\n"))
	}
	conv, _ := r.svc.Open(k)
	if reply := conv.Snapshot()[conv.Len()-1].Text; !strings.Contains(reply, "notes.md") {
		t.Errorf("the reply does not list the file:\n%s", reply)
	}
}

func TestWorkspaceFilesKnowsOnlyFilesInside(t *testing.T) {
	ws := t.TempDir()
	for p, body := range map[string]string{"a.txt": "a", "sub/b.go": "package b", ".git/config": "x", "big.txt": strings.Repeat("x", maxEmbedded+1)} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(ws, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(ws, p), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(ws, "out")); err != nil {
		t.Fatal(err)
	}
	f := newWorkspaceFiles(runtime.NewLocalWorkspace(ws, nil))
	for p, want := range map[string]bool{
		"a.txt": true, "sub/b.go": true, "sub": false, "missing": false, "../a.txt": false,
		"/etc/passwd": false, ".git/config": false, "./a.txt": false, "sub/../a.txt": false,
	} {
		if got := f.Known(p); got != want {
			t.Errorf("Known(%q) = %v, want %v", p, got, want)
		}
	}
	if text, err := f.Read("sub/b.go"); err != nil || text != "package b" {
		t.Errorf("Read = %q, %v", text, err)
	}
	if _, err := f.Read("out"); err == nil {
		t.Error("a link that leads out was read")
	}
	if _, err := f.Read("big.txt"); err == nil {
		t.Error("a file over the limit was read whole")
	}
	if got, want := f.URI("sub/b.go"), "file://"+filepath.ToSlash(ws)+"/sub/b.go"; got != want {
		t.Errorf("URI = %q, want %q", got, want)
	}
}

func TestServiceWaitsForASlotVisibly(t *testing.T) {
	dir := testagents.Env(t)
	cfg := loadConfig(t, testagents.WriteConfig(t, dir, 1,
		testagents.DemoEntry(t, "alice", dir, filepath.Join(dir, "state"), ""),
		testagents.DemoEntry(t, "bob", dir, filepath.Join(dir, "state"), "")))
	r := newRig(t, cfg, rigOptions{})
	ka, kb := chat.AgentKey("alice"), chat.AgentKey("bob")
	events, stop := r.sup.Subscribe()
	defer stop()
	waitState := func(name string, want runtime.State) {
		t.Helper()
		deadline := time.After(30 * time.Second)
		for {
			select {
			case ev := <-events:
				for _, s := range ev.States {
					if s.Name == name && s.State == want {
						return
					}
				}
			case <-deadline:
				t.Fatalf("%s never became %s (now %s)", name, want, r.sup.State(name).State)
			}
		}
	}
	if err := r.svc.Send(ka, "/slow"); err != nil {
		t.Fatal(err)
	}
	waitState("alice", runtime.Busy)
	if err := r.svc.Send(kb, "hello"); err != nil {
		t.Fatal(err)
	}
	waitState("bob", runtime.Waiting)
	if ts := r.svc.Turns(kb); len(ts) != 1 || ts[0].Phase != chat.PhaseWaiting || !r.svc.Busy(kb) {
		t.Errorf("bob's turns %+v", ts)
	}
	r.svc.Cancel(kb)
	if res := r.next(kb); res.StopReason != chat.StopCancelled {
		t.Errorf("bob: %+v", res)
	}
	r.svc.Cancel(ka)
	if res := r.next(ka); res.StopReason != chat.StopCancelled {
		t.Errorf("alice: %+v", res)
	}
	if st := r.sup.State("bob").State; st != runtime.Stopped {
		t.Errorf("bob is %s after its withdrawn turn", st)
	}
}

func TestServiceReportsACrashWithItsExitStatus(t *testing.T) {
	dir := testagents.Env(t)
	cfg := loadConfig(t, testagents.WriteConfig(t, dir, 2, testagents.ModeEntry(t, "fragile", "crashy", dir)))
	r := newRig(t, cfg, rigOptions{})
	k := chat.AgentKey("fragile")
	res := r.turn(k, "go")
	if res.Err == nil {
		t.Fatalf("result %+v, want an error", res)
	}
	msg := DescribeError(res.Err, i18n.English)
	if !strings.Contains(msg, "the agent exited (exit status 7): panic: A") {
		t.Errorf("message %q", msg)
	}
	if strings.ContainsAny(msg, "\x1b\a\r\u009b\u202e") || strings.Contains(msg, "pwned\a") {
		t.Errorf("message %q holds control characters", msg)
	}
	if fr := DescribeError(res.Err, i18n.French); !strings.Contains(fr, "l'agent s'est arrêté (code de sortie 7)") {
		t.Errorf("French message %q", fr)
	}
	conv, _ := r.svc.Open(k)
	if last := conv.Snapshot()[conv.Len()-1]; last.Kind != chat.KindNotice || !strings.Contains(last.Text, "exit status 7") {
		t.Errorf("last entry %+v", last)
	}
}

// Entries streaming into the store are saved as one row each, however often they are
// saved while they grow.
func TestStoreTranscriptKeepsOneRowPerEntry(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	w := store.NewWriter(st)
	defer w.Close()
	h := newStoreHistory(st, w)
	tr, err := h.Open(chat.ChannelKey(0))
	if err == nil {
		t.Errorf("a missing channel opened: %v", tr)
	}
	ch, err := st.CreateChannel("général", "")
	if err != nil {
		t.Fatal(err)
	}
	tr, err = h.Open(chat.ChannelKey(int64(ch.ID)))
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range []string{"a", "ab", "abc"} {
		tr.Save(chat.Entry{Seq: 1, Kind: chat.KindAgent, Author: "bob", Text: text, Done: i == 2})
	}
	tr.Save(chat.Entry{Seq: 2, Kind: chat.KindUser, Text: "next", Done: true})
	if err := h.Flush(); err != nil {
		t.Fatal(err)
	}
	got, err := tr.LastPage(10)
	if err != nil || len(got) != 2 || got[0].Text != "abc" || got[1].Text != "next" {
		t.Errorf("stored %+v, %v", got, err)
	}
	if older, _ := tr.Before(got[1].ID, 10); len(older) != 1 || older[0].Text != "abc" {
		t.Errorf("Before = %+v", older)
	}
	if err := tr.SetSession("bob", "s-1"); err != nil {
		t.Fatal(err)
	}
	if id, _ := tr.Session("bob"); id != "s-1" {
		t.Errorf("session %q", id)
	}
}

// demoWithHistory is the configuration of one demo agent, "demo", in a workspace of its
// own, and a real SQLite history with its Writer, both closed when the test ends.
func demoWithHistory(t *testing.T) (*config.Config, *store.Store, *store.Writer) {
	t.Helper()
	dir := testagents.Env(t)
	ws, state := filepath.Join(dir, "ws"), filepath.Join(dir, "state")
	if err := os.Mkdir(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := loadConfig(t, testagents.WriteConfig(t, dir, 2, testagents.DemoEntry(t, "demo", ws, state, "")))
	st, err := store.Open(filepath.Join(dir, "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	w := store.NewWriter(st)
	t.Cleanup(func() { w.Close() })
	return cfg, st, w
}
