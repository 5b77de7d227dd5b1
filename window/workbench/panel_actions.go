package workbench

import (
	"context"
	"errors"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// actionID is one thing the panel does to an agent.
type actionID int

const (
	actConversation actionID = iota
	actStart
	actStop
	actRestart
	actFiles
	actLog
	actTerminal
	actStopContainer
	actRemoveContainer
)

// panelActions are the actions in the order the actions list shows them, each with its
// key in the panel.
var panelActions = []struct {
	id  actionID
	key rune
}{
	{actConversation, 'o'},
	{actStart, 's'},
	{actStop, 'x'},
	{actRestart, 'r'},
	{actFiles, 'f'},
	{actLog, 'l'},
	{actTerminal, 't'},
	{actStopContainer, 'X'},
	{actRemoveContainer, 'D'},
}

// actionText is an action's label; the container actions have a sandbox variant.
func actionText(id actionID) text {
	return [...]text{
		actConversation: tActConversation, actStart: tActStart, actStop: tActStop,
		actRestart: tActRestart, actFiles: tActFiles, actLog: tActLog, actTerminal: tActTerminal,
		actStopContainer: tActStopContainer, actRemoveContainer: tActRemoveContainer,
	}[id]
}

// actionLabel picks the sandbox wording of a container action for an sbx agent.
func actionLabel(a config.Agent, t text) text {
	if a.Runtime.Type == "sbx" {
		switch t {
		case tActStopContainer:
			return tActStopSandbox
		case tActRemoveContainer:
			return tActRemoveSandbox
		}
	}
	return t
}

// available says whether an action can be done to an agent now.
func (p *Panel) available(a config.Agent, id actionID) bool {
	st := p.state(a.Name).State
	_, starting := p.starts[a.Name]
	engine := a.Runtime.Type == "container" || a.Runtime.Type == "sbx"
	switch id {
	case actConversation:
		return p.talk != nil
	case actStart:
		return !starting && (st == runtime.Stopped || st == runtime.Error)
	case actStop:
		return starting || st == runtime.Starting || st == runtime.Ready || st == runtime.Busy || st == runtime.Waiting
	case actRestart:
		return !starting && (st == runtime.Ready || st == runtime.Busy || st == runtime.Error)
	case actLog:
		return p.logs != nil
	case actStopContainer:
		return engine && len(a.Runtime.Lifecycle.Stop) > 0
	case actRemoveContainer:
		return engine && len(a.Runtime.Lifecycle.Remove) > 0
	}
	return true
}

// HandleEvent moves the highlight, opens the actions list (Enter, m, a click on the
// highlighted agent), and runs an action by its key.
func (p *Panel) HandleEvent(ev window.Event) bool {
	switch ev := ev.(type) {
	case window.Key:
		switch {
		case ev.Is(window.Named(window.KeyUp, 0)):
			p.move(-1)
		case ev.Is(window.Named(window.KeyDown, 0)):
			p.move(1)
		case ev.Is(window.Named(window.KeyPgUp, 0)):
			p.move(-max(p.listH-1, 1))
		case ev.Is(window.Named(window.KeyPgDn, 0)):
			p.move(max(p.listH-1, 1))
		case ev.Is(window.Named(window.KeyHome, 0)):
			p.move(-len(p.agents))
		case ev.Is(window.Named(window.KeyEnd, 0)):
			p.move(len(p.agents))
		case ev.Is(window.Named(window.KeyEnter, 0)), ev.IsRune('m'):
			p.showActions()
		default:
			for _, pa := range panelActions {
				if ev.IsRune(pa.key) {
					p.keyAction(pa.id)
					return true
				}
			}
			return false
		}
		return true
	case window.Mouse:
		switch ev.Action {
		case window.MouseWheelUp:
			p.move(-3)
		case window.MouseWheelDown:
			p.move(3)
		case window.MousePress:
			i := p.offset + ev.Y - panelTop
			if ev.Y < panelTop || ev.Y >= panelTop+p.listH || i >= len(p.agents) {
				return false
			}
			if i == p.sel {
				p.showActions()
			}
			p.sel = i
		default:
			return false
		}
		return true
	}
	return false
}

// Hints returns the panel's keys for the status bar.
func (p *Panel) Hints() []window.Hint {
	lang := langOf(p.app)
	return []window.Hint{
		{Keys: "Enter", Text: catalogue.Text(lang, tHintActions)},
		{Keys: "s", Text: catalogue.Text(lang, tHintStart)},
		{Keys: "x", Text: catalogue.Text(lang, tHintStop)},
		{Keys: "o", Text: catalogue.Text(lang, tHintConversation)},
		{Keys: "f", Text: catalogue.Text(lang, tHintFiles)},
		{Keys: "l", Text: catalogue.Text(lang, tHintLog)},
		{Keys: "t", Text: catalogue.Text(lang, tHintTerminal)},
	}
}

// keyAction runs an action pressed by its key, or says it cannot run now.
func (p *Panel) keyAction(id actionID) {
	if p.sel >= len(p.agents) {
		return
	}
	a := p.agents[p.sel]
	if !p.available(a, id) {
		lang := langOf(p.app)
		p.app.Flash(catalogue.Text(lang, tNotNow, catalogue.Text(lang, actionLabel(a, actionText(id)))))
		return
	}
	p.run(a, id)
}

// showActions opens the list of what can be done to the highlighted agent now, each
// action with its key, which runs it there as in the panel (the list has no filter).
func (p *Panel) showActions() {
	if p.sel >= len(p.agents) {
		return
	}
	a := p.agents[p.sel]
	lang := langOf(p.app)
	var ids []actionID
	var items []window.ChoiceItem
	for _, pa := range panelActions {
		if !p.available(a, pa.id) {
			continue
		}
		ids = append(ids, pa.id)
		items = append(items, window.ChoiceItem{Text: catalogue.Text(lang, actionLabel(a, actionText(pa.id))), Mark: string(pa.key), MarkClass: window.ClassDialog, Key: pa.key})
	}
	p.app.Choose(window.Choice{Title: catalogue.Text(lang, tActionsTitle, a.Title), Items: items}, func(i int, ok bool) {
		if ok {
			p.run(a, ids[i])
		}
	})
}

// run does an action; what may wait goes to another goroutine.
func (p *Panel) run(a config.Agent, id actionID) {
	switch id {
	case actConversation:
		p.talk(a.Name)
	case actStart:
		p.start(a, false)
	case actRestart:
		p.start(a, true)
	case actStop:
		p.stop(a)
	case actFiles:
		p.OpenFiles(a.Name)
	case actLog:
		p.OpenLog(a.Name)
	case actTerminal:
		p.OpenTerminal(a.Name)
	case actStopContainer:
		p.confirmLifecycle(a, tActStopContainer, a.Runtime.Lifecycle.Stop, p.sup.StopContainer)
	case actRemoveContainer:
		p.confirmLifecycle(a, tActRemoveContainer, a.Runtime.Lifecycle.Remove, p.sup.RemoveContainer)
	}
}

// start starts an agent (Acquire, then Release at once: it stays ready), or restarts it.
func (p *Panel) start(a config.Agent, restart bool) {
	ctx, cancel := context.WithCancel(context.Background())
	op := &startOp{cancel: cancel, restart: restart}
	p.starts[a.Name] = op
	what := tActStart
	if restart {
		what = tActRestart
	}
	p.app.Go(func() {
		defer cancel()
		var err error
		if restart {
			err = p.sup.Restart(ctx, a.Name)
		} else {
			var l *runtime.Lease
			if l, err = p.sup.Acquire(ctx, a.Name); err == nil {
				l.Release()
			}
		}
		p.app.Post(func() {
			if p.starts[a.Name] == op {
				delete(p.starts, a.Name)
			}
			if err != nil && !op.cancelled && !errors.Is(err, runtime.ErrShuttingDown) {
				lang := langOf(p.app)
				p.app.Flash(catalogue.Text(lang, tActionFailed, a.Title, catalogue.Text(lang, what)))
			}
		})
	})
}

// stop gives up a start asked from the panel, and stops the agent.
func (p *Panel) stop(a config.Agent) {
	if op := p.starts[a.Name]; op != nil {
		op.cancelled = true
		op.cancel()
		delete(p.starts, a.Name)
	}
	p.app.Go(func() {
		if err := p.sup.Stop(a.Name); err != nil {
			p.app.Post(func() {
				lang := langOf(p.app)
				p.app.Flash(catalogue.Text(lang, tActionFailed, a.Title, catalogue.Text(lang, tActStop)))
			})
		}
	})
}

// confirmLifecycle asks before stopping or removing an agent's container or sandbox,
// saying the command that will run; then the agent is stopped and the command runs (the
// supervisor does both), its output in the agent's log.
func (p *Panel) confirmLifecycle(a config.Agent, what text, argv []string, do func(context.Context, string) error) {
	lang := langOf(p.app)
	label := actionLabel(a, what)
	ask := map[text]text{
		tActStopContainer: tAskStopContainer, tActStopSandbox: tAskStopSandbox,
		tActRemoveContainer: tAskRemoveContainer, tActRemoveSandbox: tAskRemoveSandbox,
	}[label]
	target := a.Runtime.Container
	if a.Runtime.Type == "sbx" {
		target = a.Runtime.Sandbox
	}
	msg := catalogue.Text(lang, ask, target, a.Title, config.CommandLine(argv))
	p.app.Confirm(catalogue.Text(lang, label), msg, func(yes bool) {
		if !yes {
			return
		}
		if op := p.starts[a.Name]; op != nil {
			op.cancelled = true
			op.cancel()
			delete(p.starts, a.Name)
		}
		p.busy[a.Name] = what
		p.app.Go(func() {
			err := do(context.Background(), a.Name)
			p.app.Post(func() {
				delete(p.busy, a.Name)
				lang := langOf(p.app)
				if err != nil {
					p.app.Flash(catalogue.Text(lang, tActionFailed, a.Title, catalogue.Text(lang, label)))
					return
				}
				p.app.Flash(catalogue.Text(lang, tActionDone, a.Title, catalogue.Text(lang, label)))
			})
		})
	})
}

// OpenFiles opens the Files window of an agent, or focuses it when it is open.
func (p *Panel) OpenFiles(name string) {
	a, ok := p.agent(name)
	if !ok || p.focusOpen("files", name) {
		return
	}
	if _, w, err := OpenFiles(FilesOptions{App: p.app, Agent: a, Highlighter: p.hl, OwnFiles: p.own}); err == nil {
		p.windows["files\x00"+name] = w
	}
}

// OpenLog opens the Log window of an agent, or focuses it when it is open.
func (p *Panel) OpenLog(name string) {
	a, ok := p.agent(name)
	if !ok || p.logs == nil || p.focusOpen("log", name) {
		return
	}
	if _, w, err := OpenLog(LogOptions{App: p.app, Agent: a, Log: p.logs.Agent(name)}); err == nil {
		p.windows["log\x00"+name] = w
	}
}

// OpenTerminal lends the terminal to a shell in the agent's workspace (see OpenTerminal).
// The engine of a container or sandbox is asked first, off the screen's goroutine and
// within terminalCheckTimeout (runtime.CheckEngine): one that does not answer is said in
// the status bar, rather than leave a blank terminal.
func (p *Panel) OpenTerminal(name string) {
	a, ok := p.agent(name)
	if !ok {
		return
	}
	if a.Runtime.Type != "container" && a.Runtime.Type != "sbx" {
		_ = OpenTerminal(p.app, a)
		return
	}
	p.app.Go(func() {
		err := runtime.CheckEngine(context.Background(), a, terminalCheckTimeout)
		p.app.Post(func() {
			if err == nil {
				_ = OpenTerminal(p.app, a)
				return
			}
			lang, why := langOf(p.app), err.Error()
			var late *runtime.EngineTimeoutError
			switch {
			case errors.As(err, &late):
				why = late.Text(lang)
			case p.failure != nil:
				why = p.failure(err, lang)
			}
			p.app.Flash(catalogue.Text(lang, tTerminalFailed, a.Title, why))
		})
	})
}

// terminalCheckTimeout bounds the engine's answer before a terminal opens; tests shorten it.
var terminalCheckTimeout = runtime.DefaultEngineTimeout

// focusOpen focuses the agent's window of that kind when it is still open.
func (p *Panel) focusOpen(kind, name string) bool {
	key := kind + "\x00" + name
	if w := p.windows[key]; w != nil {
		if w.Number() > 0 {
			w.Focus()
			return true
		}
		delete(p.windows, key)
	}
	return false
}
