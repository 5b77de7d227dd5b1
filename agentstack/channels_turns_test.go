package agentstack

import (
	"strings"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// waitStates waits for an event of the supervisor where ok holds, and returns it.
func waitStates(t *testing.T, events <-chan runtime.Event, what string, ok func(map[string]runtime.State) bool) map[string]runtime.State {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case ev := <-events:
			states := make(map[string]runtime.State, len(ev.States))
			for _, s := range ev.States {
				states[s.Name] = s.State
			}
			if ok(states) {
				return states
			}
		case <-deadline:
			t.Fatalf("the agents never were %s", what)
		}
	}
}

// Two agents addressed at once with room for both answer at the same time; Esc (Cancel)
// cancels both.
func TestChannelParallelTurnsAndCancel(t *testing.T) {
	dir := testagents.Env(t)
	cfg := twoDemoAgents(t, dir, 2, "20ms")
	st, w := history(t, dir)
	r := newChanRig(t, cfg, st, w, 0)
	k := r.channel("général", "alice", "bob")
	events, stop := r.sup.Subscribe()
	defer stop()

	r.send(k, "@alice @bob tell me about rust")
	waitStates(t, events, "busy together", func(s map[string]runtime.State) bool {
		return s["alice"] == runtime.Busy && s["bob"] == runtime.Busy
	})
	if ts := r.svc.Turns(k); len(ts) != 2 || ts[0].Agent != "alice" || ts[1].Agent != "bob" {
		t.Errorf("turns %+v", ts)
	}
	r.svc.Cancel(k)
	for a, res := range r.ends(k, 2) {
		if res.StopReason != chat.StopCancelled || !res.Cancelled {
			t.Errorf("%s: %+v, want cancelled", a, res)
		}
	}
	conv, _ := r.svc.Open(k)
	cancelled := map[string]bool{}
	for _, e := range conv.Snapshot() {
		if e.Kind == chat.KindNotice && strings.Contains(e.Text, "cancel") {
			cancelled[e.Author] = true
		}
	}
	if !cancelled["alice"] || !cancelled["bob"] {
		t.Errorf("cancel notices for %v, want one for each agent", cancelled)
	}
	if r.svc.Busy(k) {
		t.Error("the channel is still busy")
	}
}

// With room for one agent, the second addressed waits for the slot, visibly, then
// answers.
func TestChannelTurnWaitsForASlot(t *testing.T) {
	dir := testagents.Env(t)
	cfg := twoDemoAgents(t, dir, 1, "10ms")
	st, w := history(t, dir)
	r := newChanRig(t, cfg, st, w, 0)
	k := r.channel("général", "alice", "bob")
	events, stop := r.sup.Subscribe()
	defer stop()

	r.send(k, "@alice @bob hello")
	states := waitStates(t, events, "one busy, one waiting", func(s map[string]runtime.State) bool {
		return s["alice"] == runtime.Busy && s["bob"] == runtime.Waiting || s["bob"] == runtime.Busy && s["alice"] == runtime.Waiting
	})
	first, second := "alice", "bob"
	if states["bob"] == runtime.Busy {
		first, second = second, first
	}
	for _, ti := range r.svc.Turns(k) {
		if ti.Agent == second && ti.Phase != chat.PhaseWaiting {
			t.Errorf("%s's turn is %s while it waits for a slot", second, ti.Phase)
		}
	}
	if res := r.next(k); res.Agent != first || res.StopReason != chat.StopEndTurn {
		t.Fatalf("first end %+v, want %s's", res, first)
	}
	if res := r.next(k); res.Agent != second || res.StopReason != chat.StopEndTurn {
		t.Fatalf("second end %+v, want %s's", res, second)
	}
	if reply := r.lastReply(k, second); reply == "" {
		t.Errorf("%s did not answer after waiting", second)
	}
}
