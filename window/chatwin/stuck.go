package chatwin

import (
	"strings"
	"time"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// StuckAfter is how long an agent has to end a turn once it is cancelled: past it, the
// window says that Esc again stops the agent (it ignored session/cancel).
const StuckAfter = 5 * time.Second

// cancelMark is when the window first saw one of an agent's turns being cancelled.
type cancelMark struct {
	turn  int64
	since time.Time
}

// stuckAgents returns the agents whose turn in this conversation has been cancelled for
// StuckAfter or more, by the App's clock, in the order of their names. It notes when it
// first sees a turn being cancelled, whoever cancelled it (Esc, Agent ▸ Cancel turn): the
// rule asks for it at each frame while the turn runs.
func (w *Widget) stuckAgents() []string {
	if w.closed {
		return nil
	}
	now := w.app.Now()
	var out []string
	seen := make(map[string]bool)
	for _, t := range w.svc.Turns(w.key) {
		if t.Phase != chat.PhaseCancelling {
			continue
		}
		seen[t.Agent] = true
		if w.cancels == nil {
			w.cancels = make(map[string]cancelMark)
		}
		m, ok := w.cancels[t.Agent]
		if !ok || m.turn != t.Turn {
			m = cancelMark{turn: t.Turn, since: now}
			w.cancels[t.Agent] = m
		}
		if now.Sub(m.since) >= StuckAfter {
			out = append(out, t.Agent)
		}
	}
	for a := range w.cancels {
		if !seen[a] {
			delete(w.cancels, a)
		}
	}
	return out
}

// stuckText is what the rule says while agents ignore the cancel of their turns: "" when
// none does.
func (w *Widget) stuckText() string {
	stuck := w.stuckAgents()
	if len(stuck) == 0 {
		return ""
	}
	names := make([]string, len(stuck))
	for i, a := range stuck {
		names[i] = safetext.Line(a)
	}
	return catalogue.Text(w.app.Language(), tCancelStuck, strings.Join(names, ", "))
}

// stopStuck ends at once the turns of the agents that ignored their cancel, and stops
// those agents (Esc again). It reports whether there were any.
func (w *Widget) stopStuck() bool {
	stuck := w.stuckAgents()
	if len(stuck) == 0 {
		return false
	}
	w.calls.Do(func() {
		for _, a := range stuck {
			w.svc.Abandon(w.key, a)
		}
	})
	if w.opts.StopAgent != nil {
		for _, a := range stuck {
			w.opts.StopAgent(a)
		}
	}
	return true
}
