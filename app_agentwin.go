package main

import (
	"context"
	"errors"
	"sync/atomic"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/window"
	"git.rickub.com/bots-garden/sidekicks/window/agentwin"
)

// This file puts the agent windows (window/agentwin) in the application: opening one on
// the agent's conversation, starting the agent as it opens, following the configuration,
// and the part of Agent status that comes from the conversations and connections.

// agentWindow is what an agent window holds beyond appWindow.
type agentWindow struct {
	// agent is the agent as configured now, read by the walks of its workspace (on other
	// goroutines): a reload may move the workspace.
	agent atomic.Pointer[config.Agent]
	// removedTold is set once the conversation says that the agent left the configuration
	// (screen's goroutine).
	removedTold bool
}

// agentStarter is an agentRunner that can start an agent before its first turn.
type agentStarter interface {
	// StartAgent starts the agent, unless that would stop another one or wait for a slot;
	// it returns once the agent is ready (or failed, or ctx ended).
	StartAgent(ctx context.Context, name string) error
}

// connStatuser is an agentRunner that knows its agents' ACP connections.
type connStatuser interface {
	ConnStatus(name string) agentwin.ConnStatus
}

var (
	_ agentStarter = (*appAgents)(nil)
	_ connStatuser = (*appAgents)(nil)
)

// errNoFreeSlot says that an agent was not started as its window opened: every slot is
// taken, and starting it would stop another agent. Its first message starts it.
var errNoFreeSlot = errors.New("every slot is taken")

// openAgentWindow opens the window of the agent's conversation (its history shown, what
// is typed sent to it) and starts the agent. It returns nil when the window could not be
// opened (too many windows: the manager said so in the status bar).
func (ap *application) openAgentWindow(name, title string) *appWindow {
	c, ok := ap.agents.(conversations)
	if !ok {
		ap.log.Printf("the agents run no conversations: the window of %s is not opened", name)
		return nil
	}
	info := agentwin.AgentInfo{
		Name:  name,
		Title: chat.SanitizeLine(name),
		// The states the screen keeps from the supervisor's events (takeStates).
		State: func() runtime.State { return ap.states.byName[name].State },
	}
	w := &appWindow{kind: winAgent, agent: name, agentWin: &agentWindow{}}
	if a := ap.cfg.Agent(name); a != nil {
		w.known = *a
		w.agentWin.setAgent(*a)
		info.Title, info.Icon = agentTitleText(*a), chat.SanitizeLine(a.Icon)
		info.Files = w.agentWin.walk
	}
	widget := agentwin.New(ap.app, c.Service(), chat.AgentKey(name), info, agentwin.Options{Logf: ap.log.Printf})
	win, err := ap.app.AddWindow(title, widget)
	if err != nil {
		widget.Closed() // New opened the conversation: close it again
		return nil
	}
	widget.SetWindow(win)
	// Closing the window gives up starting the agent, if it is not ready yet.
	ctx, cancel := context.WithCancel(context.Background())
	w.win = win
	win.OnClose(func() {
		cancel()
		ap.forget(w)
		widget.Closed()
	})
	ap.wins = append(ap.wins, w)
	if w.known.Name != "" {
		ap.startAgent(ctx, name)
	}
	return w
}

// setAgent records the agent as configured now.
func (aw *agentWindow) setAgent(a config.Agent) { aw.agent.Store(&a) }

// walk lists the files of the agent's workspace, as configured now (agentwin.Walker).
func (aw *agentWindow) walk(ctx context.Context, limit int) ([]string, error) {
	a := aw.agent.Load()
	if a == nil {
		return nil, nil
	}
	return agentwin.WalkWorkspace(runtime.WorkspaceFor(*a))(ctx, limit)
}

// agentTitleText is the title an agent's replies are labelled with: its title, or its
// name when it has none.
func agentTitleText(a config.Agent) string {
	if a.Title != "" {
		return chat.SanitizeLine(a.Title)
	}
	return chat.SanitizeLine(a.Name)
}

// startAgent starts the agent of a window that opens, so that it is ready when the user
// has typed the first message; the window shows it starting. An agent in error is left
// as it is (its window says so; the next message restarts it), and one that would need
// another to stop, or to wait for a slot, starts with its first message instead.
func (ap *application) startAgent(ctx context.Context, name string) {
	s, ok := ap.agents.(agentStarter)
	if !ok || ap.states.byName[name].State == runtime.Error {
		return
	}
	ap.app.Go(func() {
		err := s.StartAgent(ctx, name)
		switch {
		case err == nil, ctx.Err() != nil, errors.Is(err, errNoFreeSlot), errors.Is(err, runtime.ErrShuttingDown):
		default:
			ap.log.Printf("starting %s as its window opened: %v", name, err)
		}
	})
}

// refreshAgentWindow follows the configuration in an agent window: its title, and once
// the agent is removed, a line in its conversation that says so.
func (ap *application) refreshAgentWindow(w *appWindow) {
	aw := w.agentWin
	if a := ap.cfg.Agent(w.agent); a != nil {
		w.known = *a
		aw.removedTold = false
		aw.setAgent(*a)
		w.win.SetTitle(agentLabel(*a))
		return
	}
	if aw.removedTold || w.known.Name == "" {
		return // told already, or never configured in this run
	}
	aw.removedTold = true
	notice := ap.x.t(msgAgentRemoved)
	if c, ok := ap.agents.(conversations); ok {
		svc := c.Service()
		ap.work.do(func() {
			if conv, ok := svc.Conversation(chat.AgentKey(w.agent)); ok {
				conv.AddNotice(notice)
			}
		})
	}
}

// agentStatusLines is what Agent status adds under an agent: where it works, the commands
// it announced, what it sent that was ignored, the login it asks for (screen's goroutine).
func (ap *application) agentStatusLines(a config.Agent) []window.TextLine {
	lines := agentPlaceLines(ap.x, a)
	var conv *chat.Conversation
	if c, ok := ap.agents.(conversations); ok {
		conv, _ = c.Service().Conversation(chat.AgentKey(a.Name))
	}
	var conn agentwin.ConnStatus
	if s, ok := ap.agents.(connStatuser); ok {
		conn = s.ConnStatus(a.Name)
	}
	for _, l := range agentwin.StatusLines(ap.app.Labels(), conv, a.Name, conn) {
		l.Text = "  " + l.Text
		lines = append(lines, l)
	}
	return lines
}

// agentPlaceLines say where an agent works: its workspace, and its runtime.
func agentPlaceLines(x texts, a config.Agent) []window.TextLine {
	return []window.TextLine{
		{Text: "  " + x.t(msgWorkspace, chat.SanitizeLine(a.Workspace))},
		{Text: "  " + x.t(msgRuntime, runtimeText(a))},
	}
}

// StartAgent starts an agent as a turn would, and ends the turn at once. It does not stop
// another agent to make room, nor wait for a slot: errNoFreeSlot then.
func (a *appAgents) StartAgent(ctx context.Context, name string) error {
	if st := a.sup.State(name); st.Pid == 0 && st.State != runtime.Starting {
		if running, limit := a.sup.Running(); limit > 0 && running >= limit {
			return errNoFreeSlot
		}
	}
	lease, err := a.sup.Acquire(ctx, name)
	if err != nil {
		return err
	}
	lease.Release()
	return nil
}

// ConnStatus returns what the connection of the agent's running process knows of it; the
// zero value when none runs.
func (a *appAgents) ConnStatus(name string) agentwin.ConnStatus {
	c := a.conns.Get(name)
	if c == nil {
		return agentwin.ConnStatus{}
	}
	s := c.Stats()
	out := agentwin.ConnStatus{
		UnknownUpdates: s.UnknownUpdates, LastUnknownKind: s.LastUnknownKind, LastUnknownError: s.LastUnknownError,
		Ignored: s.Ignored, LastIgnored: s.LastIgnored,
		Malformed: s.Malformed, Oversize: s.Oversize,
	}
	if info := c.Info(); info != nil {
		for _, m := range info.AuthMethods {
			out.AuthMethods = append(out.AuthMethods, agentwin.AuthMethod{Name: m.Name, Description: m.Description})
		}
	}
	return out
}
