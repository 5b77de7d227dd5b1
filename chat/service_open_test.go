package chat_test

import (
	"slices"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// OpenSession opens the agent's session without a prompt or an entry; the first message
// then goes to that session, and opening again does nothing.
func TestServiceOpensTheSessionBeforeTheFirstMessage(t *testing.T) {
	conn := newConn("alice", chat.ConnInfo{}, nil)
	agents := newAgents(conn)
	s, res := newService(t, agents, chat.ServiceOptions{})
	k := chat.AgentKey("alice")
	conv, err := s.Open(k)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.OpenSession(t.Context(), k, "alice"); err != nil {
		t.Fatal(err)
	}
	if calls := conn.callLog(); !slices.Equal(calls, []string{"new /ws/alice"}) {
		t.Fatalf("calls %q, want one session/new", calls)
	}
	if conv.Len() != 0 || s.Busy(k) {
		t.Fatalf("after opening the session: %d entries, busy %v", conv.Len(), s.Busy(k))
	}
	if acq, rel := agents.leases(); acq != 1 || rel != 1 {
		t.Errorf("%d leases acquired, %d released", acq, rel)
	}
	if err := s.OpenSession(t.Context(), k, "alice"); err != nil {
		t.Fatal(err)
	}
	if err := s.Send(k, "hello"); err != nil {
		t.Fatal(err)
	}
	if r := res.next(t); r.Err != nil || r.StopReason != chat.StopEndTurn {
		t.Fatalf("turn %+v", r)
	}
	if calls := conn.callLog(); !slices.Equal(calls, []string{"new /ws/alice"}) {
		t.Errorf("calls %q: the message did not go to the session opened first", calls)
	}
	prompts, _, _ := conn.session(0).stats()
	if len(prompts) != 1 {
		t.Errorf("%d prompts in the session, want 1", len(prompts))
	}
	// A conversation that is not open gets no session.
	if err := s.OpenSession(t.Context(), chat.AgentKey("bob"), "bob"); err != nil || len(conn.callLog()) != 1 {
		t.Errorf("a conversation not open: %v, calls %q", err, conn.callLog())
	}
}
