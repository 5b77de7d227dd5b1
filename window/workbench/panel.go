package workbench

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/window"
	"git.rickub.com/bots-garden/sidekicks/window/convo"
)

// PanelOptions configures the Agents panel.
type PanelOptions struct {
	App        *window.App
	Supervisor Supervisor
	// Logs holds the agents' logs (runtime.Supervisor.Logs); nil leaves the Log action out.
	Logs *runtime.Logs
	// Agents are the configuration's agents, in its order.
	Agents []config.Agent
	// OpenConversation opens (or focuses) an agent's conversation window; nil leaves the
	// action out. It runs on the screen's goroutine.
	OpenConversation func(name string)
	// Now is the clock idle times are measured with; time.Now when nil.
	Now func() time.Time
	// Highlighter highlights the files the Files windows show, and keeps the results: the
	// application's, shared with the conversations. Nil gives the panel one of its own.
	Highlighter *convo.Highlighter
	// DescribeFailure, when set, says in lang why an agent's start failed
	// (runtime.AgentState.Failure): the row and the footer of an agent in error then say
	// that rather than how the process ended when it was stopped.
	DescribeFailure func(err error, lang i18n.Lang) string
	// OwnFiles are Sidekicks' own files, which the Files windows show locked.
	OwnFiles runtime.OwnFiles
}

// Panel is the Agents panel: every agent of the configuration with its icon, title,
// name, where it runs, how long it has been idle and its state, how many run out of
// maxRunningAgents, and the actions on the highlighted agent. It also opens, once per
// agent, the Files and Log windows and the terminal, for the panel's actions and for the
// application's menus. Its methods run on the screen's goroutine.
type Panel struct {
	app  *window.App
	sup  Supervisor
	logs *runtime.Logs
	talk func(name string)
	now  func() time.Time
	hl   *convo.Highlighter
	// failure is PanelOptions.DescribeFailure.
	failure func(err error, lang i18n.Lang) string
	own     runtime.OwnFiles

	agents         []config.Agent
	states         map[string]runtime.AgentState
	running, limit int
	sel, offset    int
	listH          int // agent rows shown at the last frame
	win            *window.Window
	marks          marks

	// Work handed to other goroutines.
	starts  map[string]*startOp // starts and restarts asked from the panel, not finished
	busy    map[string]text     // a lifecycle command running for the agent
	windows map[string]*window.Window

	// The subscription to the supervisor's states.
	mu       sync.Mutex
	latest   runtime.Event
	posted   bool
	stopSub  func()
	ticking  atomic.Bool // an idle-time refresh is scheduled
	tickStop chan struct{}
}

// startOp is a start or restart asked from the panel.
type startOp struct {
	cancel    context.CancelFunc
	cancelled bool // by Stop: its failure is not one to report
	restart   bool
}

// NewPanel returns the panel; Show opens its window.
func NewPanel(opts PanelOptions) *Panel {
	p := &Panel{
		app:     opts.App,
		sup:     opts.Supervisor,
		logs:    opts.Logs,
		talk:    opts.OpenConversation,
		now:     opts.Now,
		hl:      opts.Highlighter,
		failure: opts.DescribeFailure,
		own:     opts.OwnFiles,
		states:  make(map[string]runtime.AgentState),
		starts:  make(map[string]*startOp),
		busy:    make(map[string]text),
		windows: make(map[string]*window.Window),
		marks:   localeMarks(),
	}
	if p.now == nil {
		p.now = time.Now
	}
	if p.hl == nil {
		p.hl = convo.NewHighlighter(convo.HighlighterOptions{})
	}
	p.SetAgents(opts.Agents)
	return p
}

// Show opens the panel's window, or focuses it when it is open.
func (p *Panel) Show() error {
	if p.win != nil && p.win.Number() > 0 {
		p.win.Focus()
		return nil
	}
	w, err := p.app.AddWindow(catalogue.Text(langOf(p.app), tPanelTitle), p)
	if err != nil {
		return err
	}
	p.win = w
	w.OnClose(p.closed)
	p.subscribe()
	return nil
}

// Window returns the panel's window, nil when it is not open.
func (p *Panel) Window() *window.Window {
	if p.win == nil || p.win.Number() == 0 {
		return nil
	}
	return p.win
}

// SetAgents replaces the agents (a reloaded configuration); the highlight stays on the
// same agent when it is still there.
func (p *Panel) SetAgents(agents []config.Agent) {
	var cur string
	if p.sel < len(p.agents) {
		cur = p.agents[p.sel].Name
	}
	p.agents = slices.Clone(agents)
	p.sel = 0
	for i, a := range p.agents {
		if a.Name == cur {
			p.sel = i
		}
	}
	p.app.Invalidate()
}

// subscribe follows the supervisor's states until the window closes. Events are merged:
// however fast they come, at most one waits for the screen, and it is the latest.
func (p *Panel) subscribe() {
	events, cancel := p.sup.Subscribe()
	done := make(chan struct{})
	p.tickStop = make(chan struct{})
	var once sync.Once
	p.stopSub = func() {
		once.Do(func() {
			close(done)
			cancel()
		})
	}
	p.app.Go(func() {
		for {
			select {
			case ev := <-events:
				p.mu.Lock()
				p.latest = ev
				post := !p.posted
				p.posted = true
				p.mu.Unlock()
				if post {
					p.app.Post(p.applyLatest)
				}
			case <-done:
				return
			}
		}
	})
}

func (p *Panel) applyLatest() {
	p.mu.Lock()
	ev := p.latest
	p.posted = false
	p.mu.Unlock()
	clear(p.states)
	for _, st := range ev.States {
		p.states[st.Name] = st
		// A start is over for the user once the agent is ready: the lease it took is
		// being given back, and restart or stop must be offered at once, not after the
		// start's goroutine reports. (A restart's op waits for its own report: "ready"
		// may still describe the process it is replacing.)
		if op, ok := p.starts[st.Name]; ok && !op.restart && st.State == runtime.Ready {
			delete(p.starts, st.Name)
		}
	}
	p.running, p.limit = ev.Running, ev.MaxRunning
}

// closed runs when the panel's window closes: it stops following the states. Starts and
// lifecycle commands already asked for go on.
func (p *Panel) closed() {
	if p.stopSub != nil {
		p.stopSub()
		p.stopSub = nil
	}
	if p.tickStop != nil {
		close(p.tickStop)
		p.tickStop = nil
	}
}

// scheduleTick asks for a frame in a second, to move the idle times on; nothing is
// scheduled while no idle time is shown.
func (p *Panel) scheduleTick() {
	stop := p.tickStop
	if stop == nil || !p.ticking.CompareAndSwap(false, true) {
		return
	}
	t := time.NewTimer(time.Second)
	p.app.Go(func() {
		defer t.Stop()
		select {
		case <-t.C:
			p.ticking.Store(false)
			p.app.Invalidate()
		case <-stop:
			p.ticking.Store(false)
		}
	})
}

// agent returns the configuration of an agent.
func (p *Panel) agent(name string) (config.Agent, bool) {
	for _, a := range p.agents {
		if a.Name == name {
			return a, true
		}
	}
	return config.Agent{}, false
}

// state returns an agent's state; an agent the supervisor has not told about is stopped.
func (p *Panel) state(name string) runtime.AgentState {
	st, ok := p.states[name]
	if !ok || st.State == "" {
		return runtime.AgentState{Name: name, State: runtime.Stopped}
	}
	return st
}

// Selected returns the name of the highlighted agent ("" with no agent).
func (p *Panel) Selected() string {
	if p.sel < 0 || p.sel >= len(p.agents) {
		return ""
	}
	return p.agents[p.sel].Name
}

// Select highlights an agent by name; it reports whether there is one.
func (p *Panel) Select(name string) bool {
	for i, a := range p.agents {
		if a.Name == name {
			p.sel = i
			p.scrollIntoView()
			p.app.Invalidate()
			return true
		}
	}
	return false
}

func (p *Panel) move(delta int) {
	p.sel = max(min(p.sel+delta, len(p.agents)-1), 0)
	p.scrollIntoView()
}

func (p *Panel) scrollIntoView() {
	p.offset = window.ScrollToShow(p.offset, p.sel, p.listH, len(p.agents))
}
