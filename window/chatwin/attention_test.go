package chatwin

import (
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// A turn the user cancelled leaves nothing waiting: its end marks no window and rings no
// bell, even out of sight.
func TestCancelledTurnAsksNoAttention(t *testing.T) {
	t.Parallel()
	wd := newWorld(t)
	wd.do(func() {
		if _, err := wd.app.AddWindow("Other", window.NewTextView()); err != nil {
			t.Fatal(err)
		}
	})
	wd.do(func() { wd.w.calls.Do(func() { _ = wd.svc.Send(chat.AgentKey("alice"), "/slow") }) })
	wd.started()
	wd.do(func() { wd.w.calls.Do(func() { wd.svc.Cancel(chat.AgentKey("alice")) }) })
	if r := wd.turnEnded(); !r.Cancelled {
		t.Fatalf("the turn was not cancelled: %+v", r)
	}
	wd.settle(wd.w)
	if onUI(wd.harness, wd.win.Attention) || wd.Screen.Bells() != 0 {
		t.Fatalf("a cancelled turn: attention %v, bells %d", onUI(wd.harness, wd.win.Attention), wd.Screen.Bells())
	}
}
