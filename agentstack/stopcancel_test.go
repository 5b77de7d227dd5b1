package agentstack

import (
	"context"
	"errors"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// TestTurnOfAStoppedAgentThatSaysCancelled: an agent that answers its prompt "cancelled"
// once Sidekicks closes its stdin to stop or restart it ends the turn as stopped or
// restarted, as one that exits without a word does, not as a turn the user cancelled. The
// demo agent sometimes answered in time, and the Agents panel's restart then said "turn
// cancelled" (TestRestartFromThePanelIsNoError failed on a loaded machine).
func TestTurnOfAStoppedAgentThatSaysCancelled(t *testing.T) {
	dir := testagents.Env(t)
	cfg := loadConfig(t, testagents.WriteConfig(t, dir, 2, testagents.ModeEntry(t, "quitter", "cancelonclose", dir)))
	r := newRig(t, cfg, rigOptions{})
	k := chat.AgentKey("quitter")
	for _, c := range []struct {
		name string
		stop func() error
		want error
	}{
		{"restarted", func() error { return r.sup.Restart(context.Background(), "quitter") }, chat.ErrAgentRestarted},
		{"stopped", func() error { return r.sup.Stop("quitter") }, chat.ErrAgentStopped},
	} {
		// Counted before the message is sent: an agent quicker than this goroutine would
		// otherwise have its line counted already, and the wait would be for one more.
		before := len(r.traced(`"working\n"`))
		if err := r.svc.Send(k, "hello"); err != nil {
			t.Fatal(err)
		}
		r.waitTraced(`"working\n"`, before+1)
		if err := c.stop(); err != nil {
			t.Fatal(err)
		}
		res := r.next(k)
		if !errors.Is(res.Err, c.want) || res.StopReason == chat.StopCancelled {
			t.Errorf("%s: the turn ended %+v, want the error %v", c.name, res, c.want)
		}
	}
	// Cancelled by the user first, then stopped: cancelled it is.
	if err := r.svc.Send(k, "hello"); err != nil {
		t.Fatal(err)
	}
	r.waitTraced(`"working\n"`, 3)
	r.svc.Cancel(k)
	if err := r.sup.Stop("quitter"); err != nil {
		t.Fatal(err)
	}
	if res := r.next(k); res.StopReason != chat.StopCancelled || res.Err != nil {
		t.Errorf("cancelled, then stopped: the turn ended %+v, want cancelled", res)
	}
}
