package chat_test

import (
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/guard/guardtest"
)

func TestServiceStartsItsGoroutinesThroughTheGivenStarter(t *testing.T) {
	rec := guardtest.New()
	conn := newConn("alice", chat.ConnInfo{}, nil)
	s, res := newService(t, newAgents(conn), chat.ServiceOptions{Go: rec.Go})
	k := chat.AgentKey("alice")
	if _, err := s.Open(k); err != nil {
		t.Fatal(err)
	}
	if err := s.Send(k, "hello"); err != nil {
		t.Fatal(err)
	}
	if r := res.next(t); r.Err != nil {
		t.Fatalf("turn: %+v", r)
	}
	rec.WaitStarted(t, "chat turn alice in agent alice")
	s.Close(k)
	rec.WaitStarted(t, "chat closing agent alice")
	if got := rec.Panics(); len(got) != 0 {
		t.Errorf("panics: %+v", got)
	}
}

func TestAPanicInATurnReachesTheGuard(t *testing.T) {
	rec := guardtest.New()
	conn := newConn("alice", chat.ConnInfo{}, nil)
	s, _ := newService(t, newAgents(conn), chat.ServiceOptions{
		Go:        rec.Go,
		TurnEnded: func(chat.Key, chat.TurnResult) { panic("turn end exploded") },
	})
	k := chat.AgentKey("alice")
	if _, err := s.Open(k); err != nil {
		t.Fatal(err)
	}
	if err := s.Send(k, "hello"); err != nil {
		t.Fatal(err)
	}
	p := rec.WaitPanic(t, "chat turn")
	if p.Name != "chat turn alice in agent alice" || p.Value != "turn end exploded" {
		t.Errorf("panic %q: %v, want the turn's", p.Name, p.Value)
	}
	if !strings.Contains(p.Stack, "(*Service).run") {
		t.Errorf("the stack lacks the turn's goroutine:\n%s", p.Stack)
	}
}
