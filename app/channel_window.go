package app

import (
	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/safetext"
	"git.rickub.com/bots-garden/sidekicks/store"
	"git.rickub.com/bots-garden/sidekicks/window"
	"git.rickub.com/bots-garden/sidekicks/window/chatwin"
)

// openChannelWindow opens a channel's window on its conversation. handled is false when
// the agents run no conversations: the caller then opens the window that lists the
// channel's members. w is nil when the manager refused the window (too many windows).
func (ap *application) openChannelWindow(id store.ChannelID, title string) (w *appWindow, handled bool) {
	widget := ap.channelWidget(id)
	if widget == nil {
		return nil, false
	}
	win, err := ap.app.AddWindow(title, widget)
	if err != nil {
		widget.Closed() // NewChannel opened the conversation: close it again
		return nil, true
	}
	widget.SetWindow(win)
	w = &appWindow{kind: winChannel, channel: id, win: win, chanWin: widget}
	win.OnClose(func() {
		ap.forget(w)
		widget.Closed()
	})
	ap.wins = append(ap.wins, w)
	ap.refresh(w)
	return w, true
}

// refreshChannelWindow follows the channel in its window: its title (a rename). The rest
// (members, states, description) is read as the window draws.
func (ap *application) refreshChannelWindow(w *appWindow) {
	if ch, ok := ap.channelByID(w.channel); ok {
		w.win.SetTitle(channelTitle(ch))
	}
	ap.app.Invalidate()
}

// channelWidget returns the content of a channel's window: its conversation, on the agent
// window's widget in channel mode; nil when the agents run no conversations (the window
// then lists the channel's members). Screen's goroutine.
func (ap *application) channelWidget(id store.ChannelID) *chatwin.Widget {
	c := ap.agents
	return chatwin.NewChannel(ap.app, c.Service(), chat.ChannelKey(int64(id)), chatwin.Channel{
		Members: func() []chatwin.Member {
			ch, _ := ap.channelByID(id)
			return ap.windowMembers(ch.Members)
		},
		Agents: func() []chatwin.Member {
			names := make([]string, len(ap.cfg.Agents))
			for i, a := range ap.cfg.Agents {
				names[i] = a.Name
			}
			return ap.windowMembers(names)
		},
		Commands: c.Commands().Get,
		Files: func(agent string) chatwin.Walker {
			a := ap.cfg.Agent(agent)
			if a == nil {
				return nil
			}
			return chatwin.WalkWorkspace(runtime.WorkspaceFor(*a))
		},
		Empty: func() []window.TextLine {
			ch, ok := ap.channelByID(id)
			if !ok {
				return nil
			}
			return channelLines(ap.lang, ch, ap.cfg, ap.states)
		},
		Status: func() string {
			ch, _ := ap.channelByID(id)
			return ch.Description
		},
		SendError: func(err error) string {
			hint, _ := chat.RouteHint(err, ap.lang)
			return hint
		},
	}, ap.chatOptions())
}

// windowMembers describes agents for a channel window: icon, title and state, or the name
// alone for one no longer in the configuration.
func (ap *application) windowMembers(names []string) []chatwin.Member {
	out := make([]chatwin.Member, len(names))
	for i, name := range names {
		m := chatwin.Member{Name: name, Title: safetext.Line(name)}
		if a := ap.cfg.Agent(name); a != nil {
			m.Title, m.Icon = memberTitle(*a), safetext.Line(a.Icon)
			st := ap.states.byName[name]
			m.State, m.StateText = st.State, stateName(ap.lang, st.State)
		} else {
			m.StateText = catalogue.Text(ap.lang, msgNotConfigured)
		}
		out[i] = m
	}
	return out
}

// memberTitle is an agent's title as the screen shows it, its name when it has none.
func memberTitle(a config.Agent) string {
	if a.Title != "" {
		return safetext.Line(a.Title)
	}
	return safetext.Line(a.Name)
}
