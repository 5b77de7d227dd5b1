package chat_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	sdk "github.com/coder/acp-go-sdk"
)

func TestServiceCancelRunningTurn(t *testing.T) {
	conn := newConn("alice", chat.ConnInfo{}, held(nil))
	s, res := newService(t, newAgents(conn), chat.ServiceOptions{Lang: i18n.French})
	k := chat.AgentKey("alice")
	conv, _ := s.Open(k)
	if err := s.Send(k, "long"); err != nil {
		t.Fatal(err)
	}
	sess := waitSession(t, conn, 0)
	receive(t, sess.started, "the prompt")
	if ts := s.Turns(k); len(ts) != 1 || ts[0].Phase != chat.PhaseRunning || ts[0].Agent != "alice" {
		t.Errorf("turns %+v", ts)
	}
	s.Cancel(k)
	r := res.next(t)
	if r.StopReason != chat.StopCancelled || !r.Cancelled || r.Err != nil {
		t.Errorf("result %+v", r)
	}
	if _, cancels, _ := sess.stats(); cancels != 1 {
		t.Errorf("session/cancel sent %d times, want 1", cancels)
	}
	if got := texts(conv); got[len(got)-1] != "notice:alice : tour annulé" {
		t.Errorf("conversation %q", got)
	}
}

func TestServiceCancelWithdrawsAWaitingTurn(t *testing.T) {
	conn := newConn("alice", chat.ConnInfo{}, nil)
	agents := newAgents(conn)
	agents.gate["alice"] = make(chan struct{}) // every slot taken
	s, res := newService(t, agents, chat.ServiceOptions{})
	k := chat.AgentKey("alice")
	if err := s.Send(k, "hello"); err != nil {
		t.Fatal(err)
	}
	if ts := s.Turns(k); len(ts) != 1 || ts[0].Phase != chat.PhaseWaiting {
		t.Errorf("turns %+v, want one waiting", ts)
	}
	if !s.Busy(k) {
		t.Error("a waiting turn is not busy")
	}
	s.Cancel(k)
	r := res.next(t)
	if r.StopReason != chat.StopCancelled || !r.Cancelled {
		t.Errorf("result %+v", r)
	}
	if calls := conn.callLog(); len(calls) != 0 {
		t.Errorf("a withdrawn turn reached the agent: %q", calls)
	}
	if acq, _ := agents.leases(); acq != 0 {
		t.Errorf("%d leases taken", acq)
	}
}

// permAsker records requests and waits for their context to end.
type permAsker struct {
	asked chan chat.PermissionRequest
	ended chan error
}

func (p *permAsker) Ask(ctx context.Context, agent string, req chat.PermissionRequest) (string, bool) {
	p.asked <- req
	<-ctx.Done()
	p.ended <- ctx.Err()
	return "yes", true
}

func TestServiceCancelEndsThePendingPermissionRequest(t *testing.T) {
	perm := &permAsker{asked: make(chan chat.PermissionRequest, 1), ended: make(chan error, 1)}
	conn := newConn("alice", chat.ConnInfo{}, func(s *testSession, ctx context.Context, text string) (sdk.StopReason, error) {
		resp := s.askPermission("Write f.txt")
		if resp.Outcome.Cancelled == nil {
			return sdk.StopReasonEndTurn, nil
		}
		return sdk.StopReasonCancelled, nil
	})
	var keys []chat.Key
	s, res := newService(t, newAgents(conn), chat.ServiceOptions{Permissions: func(k chat.Key) chat.Permissions {
		keys = append(keys, k)
		return perm
	}})
	k := chat.AgentKey("alice")
	conv, _ := s.Open(k)
	_ = s.Send(k, "/write f.txt x")
	req := receive(t, perm.asked, "the permission request")
	if req.Title != "Write f.txt" || len(req.Options) != 2 {
		t.Errorf("request %+v", req)
	}
	s.Cancel(k)
	receive(t, perm.ended, "the end of the request")
	r := res.next(t)
	if r.StopReason != chat.StopCancelled {
		t.Errorf("result %+v", r)
	}
	if !slices.Equal(keys, []chat.Key{k}) {
		t.Errorf("Permissions asked for %v", keys)
	}
	if got := strings.Join(texts(conv), "\n"); !strings.Contains(got, "alice asked permission: Write f.txt — no answer (cancelled)") {
		t.Errorf("conversation:\n%s", got)
	}
}

func TestServiceCloseAbandonsTurnsAndSaves(t *testing.T) {
	hist := newHistory()
	conn := newConn("alice", chat.ConnInfo{}, held(nil))
	s, res := newService(t, newAgents(conn), chat.ServiceOptions{History: hist})
	k := chat.AgentKey("alice")
	_, _ = s.Open(k)
	_ = s.Send(k, "long")
	sess := waitSession(t, conn, 0)
	receive(t, sess.started, "the prompt")
	_ = s.Send(k, "queued")
	s.Close(k)
	r := res.next(t)
	if !r.Cancelled || r.StopReason != chat.StopCancelled {
		t.Errorf("result %+v", r)
	}
	if _, ok := s.Conversation(k); ok {
		t.Error("the conversation is still open")
	}
	conv, err := s.Open(k) // waits for the close to finish saving
	if err != nil {
		t.Fatal(err)
	}
	if _, cancels, closed := sess.stats(); cancels != 1 || !closed {
		t.Errorf("session: %d cancels, closed %v", cancels, closed)
	}
	got := texts(conv)
	want := []string{"user:long", "agent:working on long", "notice:alice: turn cancelled"}
	if !slices.Equal(got, want) {
		t.Errorf("reopened with %q, want %q (the queued message dropped)", got, want)
	}
}

func TestServiceShutdownAbandonsAnAgentThatIgnoresCancel(t *testing.T) {
	conn := newConn("mule", chat.ConnInfo{}, func(s *testSession, ctx context.Context, text string) (sdk.StopReason, error) {
		s.started <- text
		<-ctx.Done() // cancel is ignored
		return "", ctx.Err()
	})
	s, res := newService(t, newAgents(conn), chat.ServiceOptions{})
	k := chat.AgentKey("mule")
	_ = s.Send(k, "x")
	receive(t, waitSession(t, conn, 0).started, "the prompt")
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := s.Shutdown(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Shutdown = %v, want the deadline", err)
	}
	if r := res.next(t); !r.Cancelled || r.StopReason != chat.StopCancelled {
		t.Errorf("result %+v", r)
	}
	if _, err := s.Open(k); !errors.Is(err, chat.ErrShutdown) {
		t.Errorf("Open after Shutdown: %v", err)
	}
}

func TestServiceCancelAgentEverywhere(t *testing.T) {
	release := make(chan struct{})
	a := newConn("alice", chat.ConnInfo{}, held(release))
	b := newConn("bob", chat.ConnInfo{}, held(release))
	s, res := newService(t, newAgents(a, b), chat.ServiceOptions{
		Route: func(k chat.Key, text string) ([]chat.Delivery, error) {
			if k.Agent != "" {
				return []chat.Delivery{{Agent: k.Agent, Text: text}}, nil
			}
			return []chat.Delivery{{Agent: "alice", Text: text}, {Agent: "bob", Text: text}}, nil
		},
	})
	_ = s.Send(chat.AgentKey("alice"), "mine")
	_ = s.Send(chat.ChannelKey(1), "both")
	for i := range 2 {
		receive(t, waitSession(t, a, i).started, "alice's prompt")
	}
	receive(t, waitSession(t, b, 0).started, "bob's prompt")
	s.CancelAgent("alice")
	for range 2 {
		if r := res.next(t); r.Agent != "alice" || r.StopReason != chat.StopCancelled {
			t.Errorf("result %+v", r)
		}
	}
	if !s.Busy(chat.ChannelKey(1)) {
		t.Error("bob's turn ended with alice's")
	}
	release <- struct{}{}
	if r := res.next(t); r.Agent != "bob" || r.StopReason != chat.StopEndTurn {
		t.Errorf("bob: %+v", r)
	}
}

// orderedSession is a session that keeps a turn's cancel after its prompt, as the acp
// package's sessions do (BeginTurn), and logs what the service asks of it and what the
// agent is sent. Its agent takes its time to answer a cancel: a second one, if the
// service sent it, would arrive meanwhile.
type orderedSession struct {
	id string
	// beforeSend runs in Prompt before the prompt is sent.
	beforeSend func()

	mu        sync.Mutex
	log       []string
	starting  bool
	pending   bool
	prompting bool
	cancels   int // Cancel calls
	cancelled chan struct{}
}

func (o *orderedSession) ID() string { return o.id }

func (o *orderedSession) BeginTurn() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.log = append(o.log, "begin")
	o.starting, o.pending = true, false
}

func (o *orderedSession) Cancel() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.cancels++
	if o.starting && !o.prompting {
		o.log = append(o.log, "cancel held")
		o.pending = true
		return nil
	}
	o.sendCancel()
	return nil
}

// sendCancel is session/cancel reaching the agent; o.mu is held.
func (o *orderedSession) sendCancel() {
	o.log = append(o.log, "agent: cancel")
	select {
	case o.cancelled <- struct{}{}:
	default:
	}
}

func (o *orderedSession) Prompt(ctx context.Context, blocks []sdk.ContentBlock) (sdk.StopReason, error) {
	if o.beforeSend != nil {
		o.beforeSend()
	}
	o.mu.Lock()
	o.starting, o.prompting = false, true
	o.log = append(o.log, "agent: prompt")
	if o.pending {
		o.pending = false
		o.sendCancel()
	}
	o.mu.Unlock()
	defer func() {
		o.mu.Lock()
		o.prompting = false
		o.mu.Unlock()
	}()
	// The agent: on the first cancel, it takes a second before ending the turn.
	select {
	case <-o.cancelled:
	case <-ctx.Done():
		return "", ctx.Err()
	}
	select {
	case <-o.cancelled:
		o.mu.Lock()
		o.log = append(o.log, "agent: cancel again")
		o.mu.Unlock()
	case <-time.After(time.Second):
	}
	return sdk.StopReasonCancelled, nil
}

func (o *orderedSession) Close() {}

func (o *orderedSession) state() ([]string, int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.log), o.cancels
}

// orderedConn is an agent process with one orderedSession.
type orderedConn struct{ sess *orderedSession }

func (c orderedConn) Info() chat.ConnInfo                                 { return chat.ConnInfo{Cwd: "/ws"} }
func (c orderedConn) Files() chat.FileSource                              { return mapFiles(nil) }
func (c orderedConn) Acquire(context.Context, string) (chat.Lease, error) { return c, nil }
func (c orderedConn) Conn() chat.AgentConn                                { return c }
func (c orderedConn) Release()                                            {}
func (c orderedConn) NewSession(context.Context, string, chat.SessionHandler) (chat.AgentSession, error) {
	return c.sess, nil
}
func (c orderedConn) LoadSession(context.Context, string, string, chat.SessionHandler) (chat.AgentSession, error) {
	return nil, errors.New("no session/load")
}

// The race the service used to patch with a timer: Cancel comes after the turn entered
// PhaseRunning but before its prompt left. The service begins the turn on the session
// before it can be cancelled, sends session/cancel once, and never again. The test runs
// in a synctest bubble: the agent's second of patience passes at once, and a timer of
// the service would have fired in it.
func TestServiceCancelBeforeThePromptLeavesIsSentOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sess := &orderedSession{id: "s1", cancelled: make(chan struct{}, 2)}
		res := newResults()
		s := chat.NewService(chat.ServiceOptions{Agents: orderedConn{sess}, TurnEnded: res.ended})
		k := chat.AgentKey("alice")
		sess.beforeSend = func() {
			if ts := s.Turns(k); len(ts) != 1 || ts[0].Phase != chat.PhaseRunning {
				t.Errorf("turns before the prompt leaves: %+v", ts)
			}
			s.Cancel(k)
		}
		if err := s.Send(k, "long"); err != nil {
			t.Fatal(err)
		}
		r := <-res.ch
		if r.StopReason != chat.StopCancelled || !r.Cancelled || r.Err != nil {
			t.Errorf("result %+v", r)
		}
		if err := s.Shutdown(context.Background()); err != nil {
			t.Fatal(err)
		}
		log, cancels := sess.state()
		want := []string{"begin", "cancel held", "agent: prompt", "agent: cancel"}
		if !slices.Equal(log, want) || cancels != 1 {
			t.Errorf("session log %q with %d Cancel calls, want %q and 1", log, cancels, want)
		}
	})
}
