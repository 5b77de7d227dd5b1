package chatwin

import (
	"strconv"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/safetext"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// stateText is what the rule says of the agent: where a turn in progress is (busy is then
// true), or that the agent is in error.
func (w *Widget) stateText() (text string, busy bool) {
	if w.channel != nil {
		return w.channelState()
	}
	if w.closed {
		return "", false
	}
	lang := w.app.Language()
	state := w.agentState()
	phase, ok := chat.TurnPhase(0), false
	for _, t := range w.svc.Turns(w.key) {
		if t.Agent == w.agent.Name {
			phase, ok = t.Phase, true
		}
	}
	if !ok {
		if w.conv != nil {
			if st := w.conv.State(w.agent.Name); st.Busy {
				if st.Cancelling {
					return catalogue.Text(lang, tCancelling), true
				}
				return catalogue.Text(lang, tWorking), true
			}
		}
		switch state {
		case runtime.Starting: // started for another conversation, or on opening
			return w.startingText(lang), true
		case runtime.Error:
			return catalogue.Text(lang, tStateError), false
		}
		return "", false
	}
	switch phase {
	case chat.PhaseWaiting:
		if state == runtime.Waiting {
			return catalogue.Text(lang, tWaitingSlot), true
		}
		return w.startingText(lang), true
	case chat.PhaseOpening:
		return catalogue.Text(lang, tOpeningSession), true
	case chat.PhaseCancelling:
		if s := w.stuckText(); s != "" {
			return s, true
		}
		return catalogue.Text(lang, tCancelling), true
	}
	return catalogue.Text(lang, tWorking), true
}

// Hints returns the keys that work where the focus is, after the agent's last usage (the
// tokens in its context, and its cost) when it reported one.
func (w *Widget) Hints() []window.Hint {
	var hs []window.Hint
	lang := w.app.Language()
	if u := w.usageText(); u != "" {
		hs = append(hs, window.Hint{Text: u})
	}
	key := func(k window.Key) *window.Key { return &k }
	if other := w.requestElsewhere(); other != "" {
		hs = append(hs, window.Hint{Text: other})
	}
	if r, _ := w.request(w.win == nil || w.win.Focused()); r != nil && w.mayAnswer() {
		hs = append(hs, window.Hint{Keys: "1…" + strconv.Itoa(min(len(r.Req.Options), maxNumbered)), Text: catalogue.Text(lang, tHintAnswer)})
	}
	switch {
	case len(w.offerStop()) > 0:
		hs = append(hs, window.Hint{Keys: "Esc", Text: catalogue.Text(lang, tHintStopAgent), Key: key(window.Named(window.KeyEsc, 0))})
	case w.turnBusy():
		hs = append(hs, window.Hint{Keys: "Esc", Text: catalogue.Text(lang, tHintCancelTurn), Key: key(window.Named(window.KeyEsc, 0))})
	}
	switch {
	case w.find.open:
		hs = append(hs, w.findHints()...)
	case w.focus == areaInput && w.list.visible():
		hs = append(hs,
			window.Hint{Keys: "↑↓", Label: window.LabelHintChoose},
			window.Hint{Keys: "Tab", Text: catalogue.Text(lang, tHintComplete), Key: key(window.Named(window.KeyTab, 0))},
			window.Hint{Keys: "Esc", Label: window.LabelHintClose, Key: key(window.Named(window.KeyEsc, 0))})
	case w.focus == areaInput:
		hs = append(hs,
			window.Hint{Keys: "Enter", Text: catalogue.Text(lang, tHintSend), Key: key(window.Named(window.KeyEnter, 0))},
			window.Hint{Keys: "Alt-Enter", Text: catalogue.Text(lang, tHintNewline), Key: key(window.Named(window.KeyEnter, window.ModAlt))},
			window.Hint{Keys: "Tab", Text: catalogue.Text(lang, tHintToConversation), Key: key(window.Named(window.KeyTab, 0))})
	default:
		hs = append(hs, w.foldHints()...)
		hs = append(hs,
			window.Hint{Keys: "↑↓", Label: window.LabelHintMove},
			window.Hint{Keys: "Shift", Text: catalogue.Text(lang, tHintSelect)},
			window.Hint{Keys: "Ctrl-C", Text: catalogue.Text(lang, tHintCopy), Key: key(window.Ctrl('c'))},
			window.Hint{Keys: "Ctrl-F", Text: findCatalogue.Text(lang, fHintFind), Key: key(window.Ctrl('f'))},
			window.Hint{Keys: "Tab", Text: catalogue.Text(lang, tHintToInput), Key: key(window.Named(window.KeyTab, 0))})
	}
	return append(hs, window.Hint{Keys: "Ctrl-W", Label: window.LabelHintClose, Key: key(window.Ctrl('w'))})
}

// requestElsewhere says, while another window's conversation waits for a permission
// answer, who asks and how to get there ("! bob asks permission — Alt-2"); "" when none
// does. The status bar keeps saying it after its first message has gone.
func (w *Widget) requestElsewhere() string {
	for _, p := range w.opts.Requests.Pending() {
		if p.Head.Key == w.key {
			continue
		}
		if win := p.Head.window(); win != nil && win.Number() > 0 {
			return "! " + catalogue.Text(w.app.Language(), tRequestElsewhere, p.Head.Who, win.Number())
		}
	}
	return ""
}

// usageText is the agent's last usage_update as the status bar shows it: "12.3k of 200k
// tokens · 0.42 USD"; "" when it sent none.
func (w *Widget) usageText() string {
	if w.channel != nil {
		return w.channelStatus()
	}
	if w.conv == nil {
		return ""
	}
	u, ok := w.conv.Usage(w.agent.Name)
	if !ok {
		return ""
	}
	lang := w.app.Language()
	s := catalogue.Text(lang, tUsageTokens, compact(u.Used, lang), compact(u.Size, lang))
	if u.Cost != nil {
		cost := catalogue.Text(lang, tUsageCost, u.Cost.Amount, safetext.Line(u.Cost.Currency))
		if lang == i18n.French {
			cost = strings.Replace(cost, ".", ",", 1)
		}
		s += " · " + strings.TrimSpace(cost)
	}
	return s
}

// compact writes a count of tokens short: 950, 12.3k, 1.2M (with a decimal comma in
// French).
func compact(n int, lang i18n.Lang) string {
	var s string
	switch {
	case n < 0:
		s = "?"
	case n < 1000:
		s = strconv.Itoa(n)
	case n < 1_000_000:
		s = strconv.FormatFloat(float64(n)/1000, 'f', 1, 64)
		s = strings.TrimSuffix(s, ".0") + "k"
	default:
		s = strconv.FormatFloat(float64(n)/1_000_000, 'f', 1, 64)
		s = strings.TrimSuffix(s, ".0") + "M"
	}
	if lang == i18n.French {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}
