package chat_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	sdk "github.com/coder/acp-go-sdk"
)

// newService returns a service over agents, collecting the ends of turns.
func newService(t *testing.T, agents *testAgents, opts chat.ServiceOptions) (*chat.Service, *results) {
	t.Helper()
	res := newResults()
	opts.Agents = agents
	if opts.TurnEnded == nil {
		opts.TurnEnded = res.ended
	}
	s := chat.NewService(opts)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = s.Shutdown(ctx)
	})
	return s, res
}

func TestServiceAgentWindowTurn(t *testing.T) {
	conn := newConn("alice", chat.ConnInfo{EmbeddedContext: true}, nil)
	conn.files = map[string]string{"notes.md": "# notes"}
	agents := newAgents(conn)
	s, res := newService(t, agents, chat.ServiceOptions{})
	k := chat.AgentKey("alice")
	conv, err := s.Open(k)
	if err != nil {
		t.Fatal(err)
	}
	var changes atomic.Int64
	conv.OnChange(func() { changes.Add(1) })

	if err := s.Send(k, "read @notes.md please"); err != nil {
		t.Fatal(err)
	}
	r := res.next(t)
	if r.Agent != "alice" || r.StopReason != chat.StopEndTurn || r.Err != nil || r.Cancelled || r.Turn != 1 {
		t.Errorf("result %+v", r)
	}
	want := []string{"user:read @notes.md please", "agent:re: read  please"}
	if got := texts(conv); !slices.Equal(got, want) {
		t.Errorf("conversation %q, want %q", got, want)
	}
	if s.Busy(k) || conv.Busy("alice") {
		t.Error("busy after the turn")
	}
	if changes.Load() == 0 {
		t.Error("OnChange was never called")
	}
	prompts, _, _ := conn.session(0).stats()
	if len(prompts) != 1 || promptText(prompts[0]) != "read |[resource file:///ws/notes.md]| please" {
		t.Errorf("prompt %q", promptText(prompts[0]))
	}
	if calls := conn.callLog(); !slices.Equal(calls, []string{"new /ws/alice"}) {
		t.Errorf("calls %q, want one session/new in the agent's workspace", calls)
	}
	if acq, rel := agents.leases(); acq != 1 || rel != 1 {
		t.Errorf("%d leases acquired, %d released", acq, rel)
	}
}

func TestServiceReusesTheSessionOnTheSameProcess(t *testing.T) {
	conn := newConn("alice", chat.ConnInfo{LoadSession: true}, nil)
	s, res := newService(t, newAgents(conn), chat.ServiceOptions{})
	k := chat.AgentKey("alice")
	for _, msg := range []string{"one", "two", "three"} {
		if err := s.Send(k, msg); err != nil {
			t.Fatal(err)
		}
		res.next(t)
	}
	if calls := conn.callLog(); len(calls) != 1 {
		t.Errorf("calls %q, want a single session/new", calls)
	}
	if prompts, _, _ := conn.session(0).stats(); len(prompts) != 3 {
		t.Errorf("%d prompts in the session, want 3", len(prompts))
	}
}

func TestServiceQueuesWhileTheAgentIsBusy(t *testing.T) {
	release := make(chan struct{})
	conn := newConn("alice", chat.ConnInfo{}, held(release))
	s, res := newService(t, newAgents(conn), chat.ServiceOptions{})
	k := chat.AgentKey("alice")
	conv, _ := s.Open(k)

	if err := s.Send(k, "one"); err != nil {
		t.Fatal(err)
	}
	sess := waitSession(t, conn, 0)
	receive(t, sess.started, "the first prompt")
	rev := conv.Rev()
	for _, msg := range []string{"two", "three", "four"} {
		if err := s.Send(k, msg); err != nil {
			t.Fatal(err)
		}
	}
	if got := s.Queued(k); !slices.Equal(got, []string{"two", "three", "four"}) {
		t.Fatalf("queued %q", got)
	}
	if conv.Rev() == rev {
		t.Error("queueing did not change the conversation's revision: the screen would not show it")
	}
	if text, ok := s.Unqueue(k, 1); !ok || text != "three" {
		t.Errorf("Unqueue(1) = %q, %v", text, ok)
	}
	if _, ok := s.Unqueue(k, 5); ok {
		t.Error("Unqueue of a missing message succeeded")
	}
	if got := texts(conv); !slices.Equal(got, []string{"user:one", "agent:working on one"}) {
		t.Errorf("a queued message reached the conversation: %q", got)
	}
	if !s.Busy(k) {
		t.Error("not busy during a turn")
	}

	release <- struct{}{}
	if r := res.next(t); r.StopReason != chat.StopEndTurn {
		t.Errorf("first turn: %+v", r)
	}
	if text := receive(t, sess.started, "the queued prompt"); text != "two" {
		t.Errorf("sent %q after the turn, want the oldest queued message", text)
	}
	if got := s.Queued(k); !slices.Equal(got, []string{"four"}) {
		t.Errorf("queued %q", got)
	}
	s.ClearQueue(k)
	release <- struct{}{}
	res.next(t)
	res.none(t)
	want := []string{"user:one", "agent:working on one", "user:two", "agent:working on two"}
	if got := texts(conv); !slices.Equal(got, want) {
		t.Errorf("conversation %q, want %q", got, want)
	}
}

func waitSession(t *testing.T, c *testConn, i int) *testSession {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if s := c.session(i); s != nil {
			return s
		}
		time.Sleep(time.Millisecond) // no event to wait on: the session is made on the turn's goroutine
	}
	t.Fatalf("no session %d within 10s", i)
	return nil
}

func TestServiceNewSessionAfterARestartWithoutLoad(t *testing.T) {
	for _, lang := range []string{"en", "fr"} {
		conn := newConn("bob", chat.ConnInfo{}, nil)
		agents := newAgents(conn)
		s, res := newService(t, agents, chat.ServiceOptions{Lang: i18n.Parse(lang)})
		k := chat.AgentKey("bob")
		conv, _ := s.Open(k)
		_ = s.Send(k, "one")
		res.next(t)
		_ = s.Send(k, "two")
		res.next(t)
		if n := len(conn.callLog()); n != 1 {
			t.Errorf("%s: %d session calls on one process", lang, n)
		}

		restarted := agents.restart(conn)
		_ = s.Send(k, "three")
		res.next(t)
		if calls := restarted.callLog(); !slices.Equal(calls, []string{"new /ws/bob"}) {
			t.Errorf("%s: calls after the restart %q", lang, calls)
		}
		if _, _, closed := conn.session(0).stats(); !closed {
			t.Errorf("%s: the session of the ended process was not closed", lang)
		}
		want := map[string]string{
			"en": "notice:bob: a new session started; the agent does not remember earlier messages",
			"fr": "notice:bob : une nouvelle session a commencé ; l'agent ne se souvient pas des messages précédents",
		}[lang]
		got := texts(conv)
		if i := slices.Index(got, want); i != 5 || got[4] != "user:three" {
			t.Errorf("%s: conversation %q: want the notice between the message and the reply", lang, got)
		}
	}
}

func TestServiceReloadsTheSessionAfterARestart(t *testing.T) {
	conn := newConn("carol", chat.ConnInfo{LoadSession: true}, nil)
	agents := newAgents(conn)
	s, res := newService(t, agents, chat.ServiceOptions{})
	k := chat.AgentKey("carol")
	conv, _ := s.Open(k)
	_ = s.Send(k, "one")
	res.next(t)
	before := texts(conv)

	restarted := agents.restart(conn)
	_ = s.Send(k, "two")
	res.next(t)
	if calls := restarted.callLog(); !slices.Equal(calls, []string{"load carol-s1 /ws/carol"}) {
		t.Errorf("calls after the restart %q, want a session/load of the first session", calls)
	}
	want := append(before, "user:two", "agent:re: two")
	if got := texts(conv); !slices.Equal(got, want) {
		t.Errorf("conversation %q, want %q: the replay must not be shown again", got, want)
	}
	if cmds := conv.Commands("carol"); len(cmds) != 1 || cmds[0].Name != "replayed-command" {
		t.Errorf("commands %+v: the load's commands must be kept", cmds)
	}
}

func TestServiceLoadFailureStartsANewSession(t *testing.T) {
	conn := newConn("dan", chat.ConnInfo{LoadSession: true}, nil)
	agents := newAgents(conn)
	var logged atomic.Int64
	s, res := newService(t, agents, chat.ServiceOptions{Logf: func(string, ...any) { logged.Add(1) }})
	k := chat.AgentKey("dan")
	conv, _ := s.Open(k)
	_ = s.Send(k, "one")
	res.next(t)
	restarted := agents.restart(conn)
	restarted.loadErr = errors.New("unknown session")
	_ = s.Send(k, "two")
	if r := res.next(t); r.StopReason != chat.StopEndTurn {
		t.Errorf("result %+v", r)
	}
	if calls := restarted.callLog(); !slices.Equal(calls, []string{"load dan-s1 /ws/dan", "new /ws/dan"}) {
		t.Errorf("calls %q", calls)
	}
	got := texts(conv)
	if !slices.Contains(got, "notice:dan: a new session starts here (the previous one could not be resumed)") {
		t.Errorf("conversation %q lacks the restart notice", got)
	}
	if logged.Load() == 0 {
		t.Error("the failed load was not logged")
	}
}

func TestServiceHistory(t *testing.T) {
	hist := newHistory()
	conn := newConn("erin", chat.ConnInfo{LoadSession: true}, nil)
	agents := newAgents(conn)
	k := chat.AgentKey("erin")

	s1, res := newService(t, agents, chat.ServiceOptions{History: hist, PageSize: 3})
	for _, msg := range []string{"one", "two", "three"} {
		_ = s1.Send(k, msg)
		res.next(t)
	}
	if err := s1.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	tr := hist.convs[k]
	want := []string{"user:one", "agent:re: one", "user:two", "agent:re: two", "user:three", "agent:re: three"}
	if got := tr.texts(); !slices.Equal(got, want) {
		t.Fatalf("history %q, want %q", got, want)
	}
	if tr.sessions["erin"] != "erin-s1" || tr.setCalls != 1 {
		t.Errorf("sessions %v, %d saves", tr.sessions, tr.setCalls)
	}
	if err := s1.Send(k, "late"); !errors.Is(err, chat.ErrShutdown) {
		t.Errorf("Send after Shutdown: %v", err)
	}

	// Sidekicks starts again: the last page shows, then older pages on demand, and the
	// agent's session continues.
	agents.restart(conn)
	s2, res2 := newService(t, agents, chat.ServiceOptions{History: hist, PageSize: 3})
	conv, err := s2.Open(k)
	if err != nil {
		t.Fatal(err)
	}
	if got := texts(conv); !slices.Equal(got, want[3:]) {
		t.Errorf("opened with %q, want the last page %q", got, want[3:])
	}
	if n, err := s2.LoadOlder(k); n != 3 || err != nil {
		t.Errorf("LoadOlder = %d, %v", n, err)
	}
	if n, _ := s2.LoadOlder(k); n != 0 {
		t.Errorf("LoadOlder at the start of history = %d", n)
	}
	if got := texts(conv); !slices.Equal(got, want) {
		t.Errorf("after LoadOlder %q", got)
	}
	_ = s2.Send(k, "four")
	res2.next(t)
	if calls := agents.conns["erin"].callLog(); !slices.Equal(calls, []string{"load erin-s1 /ws/erin"}) {
		t.Errorf("calls %q, want the stored session loaded", calls)
	}
	if got := texts(conv); len(got) != 8 || strings.Contains(strings.Join(got, ""), "notice") {
		t.Errorf("conversation %q", got)
	}
	if err := s2.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := tr.texts(); len(got) != 8 || got[7] != "agent:re: four" {
		t.Errorf("history after the second run %q", got)
	}
}

func TestServiceOpenFailure(t *testing.T) {
	hist := newHistory()
	hist.openErr = errors.New("disk on fire")
	s, _ := newService(t, newAgents(), chat.ServiceOptions{History: hist})
	if _, err := s.Open(chat.AgentKey("x")); err == nil {
		t.Error("Open did not fail")
	}
	if err := s.Send(chat.AgentKey("x"), "hi"); err == nil {
		t.Error("Send did not fail")
	}
}

func TestServiceErrorsAreDescribed(t *testing.T) {
	agents := newAgents()
	agents.err = errors.New("raw failure")
	s, res := newService(t, agents, chat.ServiceOptions{
		Describe: func(err error) string { return "described: " + err.Error() },
	})
	k := chat.AgentKey("ghost")
	conv, _ := s.Open(k)
	_ = s.Send(k, "hi")
	r := res.next(t)
	if r.Err == nil || r.Err.Error() != "raw failure" || r.StopReason != "" {
		t.Errorf("result %+v", r)
	}
	if got := texts(conv); got[len(got)-1] != "notice:ghost: error: described: raw failure" {
		t.Errorf("conversation %q", got)
	}
}

func TestServiceChannelRoutingAndPrepare(t *testing.T) {
	release := make(chan struct{})
	a := newConn("alice", chat.ConnInfo{}, held(release))
	b := newConn("bob", chat.ConnInfo{}, held(release))
	var mu sync.Mutex
	var prepared []string
	s, res := newService(t, newAgents(a, b), chat.ServiceOptions{
		Route: func(k chat.Key, text string) ([]chat.Delivery, error) {
			if k.Channel != 7 {
				t.Errorf("routing %v", k)
			}
			var ds []chat.Delivery
			for _, w := range strings.Fields(text) {
				if name, ok := strings.CutPrefix(w, "@"); ok {
					ds = append(ds, chat.Delivery{Agent: name, Text: "for " + name + ": " + text})
				}
			}
			return ds, nil
		},
		Prepare: func(k chat.Key, agent, text string) []sdk.ContentBlock {
			mu.Lock()
			prepared = append(prepared, text)
			mu.Unlock()
			return []sdk.ContentBlock{sdk.TextBlock("[catch-up for " + agent + "]")}
		},
	})
	k := chat.ChannelKey(7)
	conv, _ := s.Open(k)

	if err := s.Send(k, "just a note"); err != nil {
		t.Fatal(err)
	}
	if got := texts(conv); !slices.Equal(got, []string{"user:just a note"}) || s.Busy(k) {
		t.Errorf("a note: %q, busy %v", got, s.Busy(k))
	}

	_ = s.Send(k, "@alice @bob @alice hi")
	sa, sb := waitSession(t, a, 0), waitSession(t, b, 0)
	receive(t, sa.started, "alice's prompt")
	receive(t, sb.started, "bob's prompt")
	if ts := s.Turns(k); len(ts) != 2 || ts[0].Agent != "alice" || ts[1].Agent != "bob" {
		t.Errorf("turns %+v: both agents must run at once", ts)
	}
	_ = s.Send(k, "@bob again")
	if got := s.Queued(k); len(got) != 1 {
		t.Errorf("queued %q: bob is busy", got)
	}
	release <- struct{}{}
	release <- struct{}{}
	res.next(t)
	res.next(t)
	receive(t, sb.started, "bob's queued prompt")
	release <- struct{}{}
	res.next(t)

	pa, _, _ := sa.stats()
	if len(pa) != 1 || promptText(pa[0]) != "[catch-up for alice]|for alice: @alice @bob @alice hi" {
		pa = append(pa, nil)
		t.Errorf("alice's prompts: %d, first %q", len(pa), promptText(pa[0]))
	}
	if pb, _, _ := sb.stats(); len(pb) != 2 {
		t.Errorf("bob got %d prompts", len(pb))
	}
	mu.Lock()
	slices.Sort(prepared)
	if want := []string{"for alice: @alice @bob @alice hi", "for bob: @alice @bob @alice hi", "for bob: @bob again"}; !slices.Equal(prepared, want) {
		t.Errorf("Prepare was given %q, want each delivery's text %q", prepared, want)
	}
	mu.Unlock()
	users := 0
	for _, line := range texts(conv) {
		if strings.HasPrefix(line, "user:") {
			users++
		}
	}
	if users != 3 {
		t.Errorf("%d user entries, want one per message: %q", users, texts(conv))
	}
}

// tapHandler counts what passes through it.
type tapHandler struct {
	chat.SessionHandler
	chunks *atomic.Int64
}

func (h tapHandler) Chunk(kind, text string) {
	h.chunks.Add(1)
	h.SessionHandler.Chunk(kind, text)
}

func TestServiceWrapHandlerSeesEveryChunk(t *testing.T) {
	var chunks atomic.Int64
	conn := newConn("alice", chat.ConnInfo{}, nil)
	s, res := newService(t, newAgents(conn), chat.ServiceOptions{
		WrapHandler: func(k chat.Key, agent string, h chat.SessionHandler) chat.SessionHandler {
			return tapHandler{SessionHandler: h, chunks: &chunks}
		},
	})
	k := chat.AgentKey("alice")
	conv, _ := s.Open(k)
	_ = s.Send(k, "x")
	res.next(t)
	if chunks.Load() != 2 {
		t.Errorf("the wrapper saw %d chunks, want 2", chunks.Load())
	}
	if got := texts(conv); got[1] != "agent:re: x" {
		t.Errorf("the wrapper did not pass chunks on: %q", got)
	}
}

func TestServiceIgnoresBlankMessages(t *testing.T) {
	conn := newConn("alice", chat.ConnInfo{}, nil)
	s, res := newService(t, newAgents(conn), chat.ServiceOptions{})
	k := chat.AgentKey("alice")
	conv, _ := s.Open(k)
	if err := s.Send(k, "  \n\t"); err != nil {
		t.Fatal(err)
	}
	res.none(t)
	if conv.Len() != 0 || s.Busy(k) {
		t.Error("a blank message was sent")
	}
}
