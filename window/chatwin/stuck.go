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

// cancelMark is when one of an agent's turns was cancelled, by the App's clock.
type cancelMark struct {
	turn  int64
	since time.Time
}

// noteCancels notes, by the App's clock, the moment the turns of this conversation are
// cancelled, so that StuckAfter counts from the cancel and not from whenever a frame
// happens to show it. It is called when the window asks for the cancel (asking: Esc; the
// turns with their agents are about to be cancelled), when the conversation reports a
// change (a cancel made elsewhere, Agent ▸ Cancel turn) and, in case neither came, when
// the window looks at the turns. A turn keeps its first mark; the marks of turns that
// ended are dropped.
func (w *Widget) noteCancels(asking bool) {
	if w.closed {
		return
	}
	var now time.Time
	live := make(map[string]int64)
	for _, t := range w.svc.Turns(w.key) {
		live[t.Agent] = t.Turn
		if t.Phase != chat.PhaseCancelling && (!asking || t.Phase != chat.PhaseRunning) {
			continue
		}
		if m, ok := w.cancels[t.Agent]; ok && m.turn == t.Turn {
			continue
		}
		if now.IsZero() {
			now = w.app.Now()
		}
		if w.cancels == nil {
			w.cancels = make(map[string]cancelMark)
		}
		w.cancels[t.Agent] = cancelMark{turn: t.Turn, since: now}
	}
	for a, m := range w.cancels {
		if turn, ok := live[a]; !ok || turn != m.turn {
			delete(w.cancels, a)
		}
	}
}

// stuckTurns returns the turns of this conversation that have been cancelled for
// StuckAfter or more, by the App's clock, in the order of their agents' names.
func (w *Widget) stuckTurns() []chat.TurnInfo {
	if w.closed {
		return nil
	}
	w.noteCancels(false)
	now := w.app.Now()
	var out []chat.TurnInfo
	for _, t := range w.svc.Turns(w.key) {
		m, ok := w.cancels[t.Agent]
		if t.Phase == chat.PhaseCancelling && ok && m.turn == t.Turn && now.Sub(m.since) >= StuckAfter {
			out = append(out, t)
		}
	}
	return out
}

// offerStop returns the agents whose turns ignored their cancel, which Esc stops, and
// remembers them as offered: the rule and the status bar call it as they show the offer,
// and Esc stops only what they showed (stopStuck).
func (w *Widget) offerStop() []string {
	stuck := w.stuckTurns()
	w.offered = make(map[string]int64, len(stuck))
	names := make([]string, len(stuck))
	for i, t := range stuck {
		w.offered[t.Agent] = t.Turn
		names[i] = t.Agent
	}
	return names
}

// stuckText is what the rule says while agents ignore the cancel of their turns: "" when
// none does.
func (w *Widget) stuckText() string {
	stuck := w.offerStop()
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
// those agents (Esc again). It reports whether there were any. Only the turns the window
// offered to stop are (the rule or the status bar said so when the key came): an Esc
// pressed while the screen still said "cancelling…", but handled once StuckAfter had
// passed, does not stop an agent the user was never told about.
func (w *Widget) stopStuck() bool {
	var stuck []string
	for _, t := range w.stuckTurns() {
		if turn, ok := w.offered[t.Agent]; ok && turn == t.Turn {
			stuck = append(stuck, t.Agent)
		}
	}
	if len(stuck) == 0 {
		return false
	}
	w.offered = nil
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
