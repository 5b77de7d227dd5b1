package app

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"git.rickub.com/bots-garden/sidekicks/agentstack"
	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/safetext"
	"git.rickub.com/bots-garden/sidekicks/window"
	"git.rickub.com/bots-garden/sidekicks/window/chatwin"
)

// This file puts the agent windows (window/agentwin) in the application: opening one on
// the agent's conversation, starting the agent as it opens, following the configuration,
// and the part of Agent status that comes from the conversations and connections.

// agentWindow is what an agent window holds beyond appWindow.
type agentWindow struct {
	// agent is the agent as configured now, read by the walks of its workspace (on other
	// goroutines): a reload may move the workspace.
	agent atomic.Pointer[config.Agent]
	// widget is the window's content, for Search history to show an entry in it.
	widget *chatwin.Widget
	// removedTold is set once the conversation says that the agent left the configuration
	// (screen's goroutine).
	removedTold bool
}

// openAgentWindow opens the window of the agent's conversation (its history shown, what
// is typed sent to it) and starts the agent. Closing the window stops the agent, as soon
// as no turn of a channel holds it. It returns nil when the window could not be
// opened (too many windows: the manager said so in the status bar).
func (ap *application) openAgentWindow(name, title string) *appWindow {
	c := ap.agents
	info := chatwin.AgentInfo{
		Name:  name,
		Title: safetext.Line(name),
		// The states the screen keeps from the supervisor's events (takeStates).
		State: func() runtime.State { return ap.states.byName[name].State },
		Started: func() time.Time {
			if st := ap.states.byName[name]; st.State == runtime.Starting {
				return st.Started
			}
			return time.Time{}
		},
	}
	w := &appWindow{kind: winAgent, agent: name, agentWin: &agentWindow{}}
	if a := ap.cfg.Agent(name); a != nil {
		w.known = *a
		w.agentWin.setAgent(*a)
		info.Title, info.Icon = agentTitleText(*a), safetext.Line(a.Icon)
		info.Files = w.agentWin.walk
	}
	widget := chatwin.New(ap.app, c.Service(), chat.AgentKey(name), info, ap.chatOptions())
	win, err := ap.app.AddWindow(title, widget)
	if err != nil {
		widget.Closed() // New opened the conversation: close it again
		return nil
	}
	widget.SetWindow(win)
	w.agentWin.widget = widget
	// Closing the window gives up starting the agent, if it is not ready yet, and stops
	// the agent once no turn holds it (a channel's turn using it ends first).
	ctx, cancel := context.WithCancel(context.Background())
	w.win = win
	sup := ap.agents.Supervisor()
	sup.KeepRunning(name) // the window of an agent closed a moment ago opens again
	win.OnClose(func() {
		cancel()
		ap.forget(w)
		widget.Closed()
		sup.StopAfterTurns(name, runtime.ReasonWindowClosed)
	})
	ap.wins = append(ap.wins, w)
	// A project agent's window restored at start waits for the user's first message: a
	// folder's own file never runs a command by itself.
	if w.known.Name != "" && !(ap.restoring && w.known.Project) {
		ap.startAgent(ctx, name)
	}
	return w
}

// chatOptions are the options of the agent and channel windows.
func (ap *application) chatOptions() chatwin.Options {
	return chatwin.Options{Logf: ap.log.Printf, Highlighter: ap.highlighter, StopAgent: ap.stopStuckAgent,
		SessionLabel: func(agent string) string { return ap.agents.SessionLabel(chat.AgentKey(agent), agent) }}
}

// stopStuckAgent stops an agent that ignored the cancel of its turn (Esc again in its
// window, or in a channel's), without waiting for its process to end.
func (ap *application) stopStuckAgent(name string) {
	sup := ap.agents.Supervisor()
	ap.log.Printf("stopping %s: it did not end its cancelled turn within %s", name, chatwin.StuckAfter)
	ap.app.Go(func() {
		if err := sup.Stop(name); err != nil {
			ap.log.Printf("stopping %s: %v", name, err)
		}
	})
}

// setAgent records the agent as configured now.
func (aw *agentWindow) setAgent(a config.Agent) { aw.agent.Store(&a) }

// walk lists the files of the agent's workspace, as configured now (chatwin.Walker).
func (aw *agentWindow) walk(ctx context.Context, keep func(string) bool, limit int) ([]string, bool, error) {
	a := aw.agent.Load()
	if a == nil {
		return nil, false, nil
	}
	return chatwin.WalkWorkspace(runtime.WorkspaceFor(*a))(ctx, keep, limit)
}

// agentTitleText is the title an agent's replies are labelled with: its title, or its
// name when it has none.
func agentTitleText(a config.Agent) string {
	if a.Title != "" {
		return safetext.Line(a.Title)
	}
	return safetext.Line(a.Name)
}

// startAgent starts the agent of a window that opens, and opens its session in the
// window's conversation, so that it is ready when the user has typed the first message and
// / lists its commands before it; the window shows it starting. An agent in error is left
// as it is (its window says so; the next message restarts it), and one that would need
// another to stop, or to wait for a slot, starts with its first message instead (its
// session opens then).
func (ap *application) startAgent(ctx context.Context, name string) {
	s := ap.agents
	if ap.states.byName[name].State == runtime.Error {
		return
	}
	ap.app.Go(func() {
		err := s.StartAgent(ctx, name)
		switch {
		case err == nil:
			ap.openSession(ctx, name)
		case ctx.Err() != nil, errors.Is(err, agentstack.ErrNoFreeSlot), errors.Is(err, runtime.ErrShuttingDown):
		default:
			ap.log.Printf("starting %s as its window opened: %v", name, err)
		}
	})
}

// openSession opens the session of a running agent in its window's conversation (off the
// screen's goroutine), unless the window closed meanwhile. A failure is only logged: the
// first message opens the session again and says what went wrong.
func (ap *application) openSession(ctx context.Context, name string) {
	if ctx.Err() != nil {
		return
	}
	svc, k := ap.agents.Service(), chat.AgentKey(name)
	if _, err := svc.Open(k); err != nil { // the window opens it too: the same one
		return
	}
	if err := svc.OpenSession(ctx, k, name); err != nil && ctx.Err() == nil {
		ap.log.Printf("opening the session of %s as its window opened: %v", name, err)
	}
}

// refreshAgentWindow follows the configuration in an agent window: its title, and once
// the agent is removed, a line in its conversation that says so.
func (ap *application) refreshAgentWindow(w *appWindow) {
	aw := w.agentWin
	if a := ap.cfg.Agent(w.agent); a != nil {
		w.known = *a
		aw.removedTold = false
		aw.setAgent(*a)
		if cw, ok := w.win.Widget().(*chatwin.Widget); ok {
			cw.SetTitle(agentLabel(*a)) // followed by its session's title
		} else {
			w.win.SetTitle(agentLabel(*a))
		}
		return
	}
	if aw.removedTold || w.known.Name == "" {
		return // told already, or never configured in this run
	}
	aw.removedTold = true
	notice := catalogue.Text(ap.lang, msgAgentRemoved)
	svc := ap.agents.Service()
	ap.work.Do(func() {
		if conv, ok := svc.Conversation(chat.AgentKey(w.agent)); ok {
			conv.AddNotice(notice)
		}
	})
}

// agentStatusLines is what Agent status adds under an agent: where it works, the commands
// it announced, what it sent that was ignored, the login it asks for (screen's goroutine).
func (ap *application) agentStatusLines(a config.Agent) []window.TextLine {
	lines := agentPlaceLines(ap.lang, a)
	conv, _ := ap.agents.Service().Conversation(chat.AgentKey(a.Name))
	conn := ap.agents.ConnStatus(a.Name)
	for _, l := range chatwin.StatusLines(ap.app.Language(), conv, a.Name, conn) {
		l.Text = "  " + l.Text
		lines = append(lines, l)
	}
	return lines
}

// agentPlaceLines say where an agent works: its workspace, and its runtime.
func agentPlaceLines(lang i18n.Lang, a config.Agent) []window.TextLine {
	return []window.TextLine{
		{Text: "  " + catalogue.Text(lang, msgWorkspace, safetext.Line(a.Workspace))},
		{Text: "  " + catalogue.Text(lang, msgRuntime, runtimeText(a))},
	}
}
