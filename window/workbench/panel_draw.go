package workbench

import (
	"fmt"
	"strings"
	"time"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/window"
	"git.rickub.com/bots-garden/sidekicks/window/convo"
)

// The panel's rows: the count of running agents, the columns' titles, one row per agent,
// and at the bottom (when there is room) a rule and two rows about the highlighted agent:
// why it is in error and the last line of its stderr, or its description.
const (
	panelTop    = 2
	panelFooter = 3
	colGap      = 2
	iconCells   = 3
)

// panelColumns are the columns' left edges and widths, for the agents shown.
type panelColumns struct {
	title, name, run, idle, state int // left edges
	titleW, nameW, runW, idleW    int
}

func (p *Panel) columns(lang i18n.Lang) panelColumns {
	c := panelColumns{
		titleW: window.TextWidth(catalogue.Text(lang, tColAgent)),
		nameW:  window.TextWidth(catalogue.Text(lang, tColName)),
		runW:   window.TextWidth(catalogue.Text(lang, tColRuntime)),
		idleW:  max(window.TextWidth(catalogue.Text(lang, tColIdle)), 5),
	}
	for _, a := range p.agents {
		c.titleW = max(c.titleW, min(window.TextWidth(a.Title), 24))
		c.nameW = max(c.nameW, min(window.TextWidth("@"+a.Name), 20))
		c.runW = max(c.runW, min(window.TextWidth(runtimeText(lang, a)), 24))
	}
	c.title = 1 + iconCells + 1
	c.name = c.title + c.titleW + colGap
	c.run = c.name + c.nameW + colGap
	c.idle = c.run + c.runW + colGap
	c.state = c.idle + c.idleW + colGap
	return c
}

// Draw shows the panel.
func (p *Panel) Draw(r window.Region, focused bool) {
	W, H := r.Size()
	lang := langOf(p.app)
	retitle(p.app, p.win, catalogue.Text(lang, tPanelTitle))
	footer := 0
	if H >= 8 {
		footer = panelFooter
	}
	p.listH = max(H-panelTop-footer, 0)
	p.scrollIntoView()
	c := p.columns(lang)

	r.Line(0, " "+catalogue.Text(lang, tRunning, p.running, p.limit), window.ClassText)
	r.Line(1, "", window.ClassGutter)
	r.Text(c.title, 1, catalogue.Text(lang, tColAgent), window.ClassGutter)
	r.Text(c.name, 1, catalogue.Text(lang, tColName), window.ClassGutter)
	r.Text(c.run, 1, catalogue.Text(lang, tColRuntime), window.ClassGutter)
	r.Text(c.idle, 1, catalogue.Text(lang, tColIdle), window.ClassGutter)
	r.Text(c.state, 1, catalogue.Text(lang, tColState), window.ClassGutter)

	now := p.now()
	idleShown := false
	for y := 0; y < p.listH; y++ {
		i := p.offset + y
		if i >= len(p.agents) {
			text := ""
			if len(p.agents) == 0 && y == 0 {
				text = " " + catalogue.Text(lang, tNoAgents)
			}
			r.Line(panelTop+y, text, window.ClassText)
			continue
		}
		if p.drawAgent(r, panelTop+y, c, p.agents[i], i == p.sel, lang, now) {
			idleShown = true
		}
	}
	if footer > 0 {
		p.drawFooter(r.Sub(0, H-footer, W, footer), lang)
	}
	if idleShown {
		p.scheduleTick()
	}
}

// drawAgent draws one agent's row; it reports whether it shows an idle time.
func (p *Panel) drawAgent(r window.Region, y int, c panelColumns, a config.Agent, selected bool, lang i18n.Lang, now time.Time) bool {
	st := p.state(a.Name)
	base, stateClass := window.ClassText, stateClass(st.State)
	if selected {
		base, stateClass = window.ClassListSelected, window.ClassListSelected
	}
	r.Line(y, "", base)
	glyph, colour, emoji := convo.IconFor(a.Icon, a.Title, a.Name)
	if emoji {
		r.Text(1, y, glyph, base)
	} else {
		cls, ok := window.ClassNamed(convo.IconClass(colour))
		if !ok {
			cls = base
		}
		r.Text(1, y, " "+glyph+" ", cls)
	}
	r.Text(c.title, y, window.Truncate(a.Title, c.titleW), base)
	r.Text(c.name, y, window.Truncate("@"+a.Name, c.nameW), base)
	r.Text(c.run, y, window.Truncate(runtimeText(lang, a), c.runW), base)
	idle := ""
	if st.State == runtime.Ready {
		since := st.LastActivity
		if since.IsZero() {
			since = st.Started
		}
		idle = idleText(now.Sub(since))
	}
	r.Text(c.idle+c.idleW-window.TextWidth(idle), y, idle, base)
	state := stateText(lang, st.State)
	if st.State == runtime.Error {
		if why := p.reasonText(lang, st); why != "" {
			state = catalogue.Text(lang, tStateWhy, state, why)
		}
	}
	if t, ok := p.busy[a.Name]; ok {
		state += " · " + catalogue.Text(lang, actionLabel(a, t)) + "…"
	}
	r.Text(c.state, y, state, stateClass)
	return idle != ""
}

// drawFooter tells more about the highlighted agent.
func (p *Panel) drawFooter(r window.Region, lang i18n.Lang) {
	W, _ := r.Size()
	r.Line(0, strings.Repeat("─", W), window.ClassGutter)
	var lines [2]string
	classes := [2]window.Class{window.ClassGutter, window.ClassGutter}
	if p.sel < len(p.agents) {
		a := p.agents[p.sel]
		st := p.state(a.Name)
		if st.State == runtime.Error {
			lines[0], classes[0] = p.reasonText(lang, st), window.ClassError
			if n := len(st.StderrTail); n > 0 {
				lines[1] = st.StderrTail[n-1]
			}
		} else {
			rows := window.Wrap(a.Description, max(W-2, 1))
			for i := 0; i < len(rows) && i < 2; i++ {
				lines[i] = rows[i]
			}
		}
	}
	for i, l := range lines {
		r.Line(1+i, " "+window.Truncate(l, max(W-2, 0)), classes[i])
	}
}

// stateClass is the colour of a state.
func stateClass(s runtime.State) window.Class {
	switch s {
	case runtime.Ready:
		return window.ClassReady
	case runtime.Error:
		return window.ClassError
	case runtime.Stopped, "":
		return window.ClassStopped
	}
	return window.ClassBusy
}

var stateTexts = map[runtime.State]text{
	runtime.Stopped: tStateStopped, runtime.Starting: tStateStarting, runtime.Ready: tStateReady,
	runtime.Busy: tStateBusy, runtime.Waiting: tStateWaiting, runtime.Stopping: tStateStopping,
	runtime.Error: tStateError,
}

// stateText names a state in the user's language.
func stateText(lang i18n.Lang, s runtime.State) string {
	t := stateTexts[s]
	if t == textNone {
		return string(s)
	}
	return catalogue.Text(lang, t)
}

// reasonText says why an agent is in error: why its start failed when the application
// describes it (only the first line), how its process ended, or why it could not start
// (the supervisor's own words, which carry the command's message).
func (p *Panel) reasonText(lang i18n.Lang, st runtime.AgentState) string {
	switch {
	case st.Failure != nil && p.failure != nil:
		why, _, _ := strings.Cut(p.failure(st.Failure, lang), "\n")
		return catalogue.Text(lang, tStartFailed, why)
	case st.Exit != nil && st.Exit.Signal != "":
		return catalogue.Text(lang, tExitSignal, st.Exit.Signal)
	case st.Exit != nil:
		return catalogue.Text(lang, tExitCode, st.Exit.Code)
	case st.Reason != "":
		return catalogue.Text(lang, tStartFailed, st.Reason)
	}
	return ""
}

// runtimeText says where an agent runs.
func runtimeText(lang i18n.Lang, a config.Agent) string {
	switch a.Runtime.Type {
	case "container":
		return catalogue.Text(lang, tRuntimeContainer, a.Runtime.Container)
	case "sbx":
		return catalogue.Text(lang, tRuntimeSandbox, a.Runtime.Sandbox)
	}
	return catalogue.Text(lang, tRuntimeLocal)
}

// idleText says how long an agent has been idle: 42s, 7m, 1h05.
func idleText(d time.Duration) string {
	d = max(d, 0)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	}
	return fmt.Sprintf("%dh%02d", int(d/time.Hour), int(d%time.Hour/time.Minute))
}
