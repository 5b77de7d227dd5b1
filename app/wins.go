package app

import (
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/safetext"
	"git.rickub.com/bots-garden/sidekicks/store"
	"git.rickub.com/bots-garden/sidekicks/window"
	"git.rickub.com/bots-garden/sidekicks/window/chatwin"
)

// windowKind says what one of the application's windows shows.
type windowKind int

const (
	winChannel windowKind = iota // a channel
	winAgent                     // an agent
	winErrors                    // the configuration's errors
	winStatus                    // Agent status
)

// appWindow is one window the application opened, with what it shows. Everything here runs
// on the screen's goroutine.
type appWindow struct {
	kind    windowKind
	channel store.ChannelID
	agent   string
	win     *window.Window
	view    *window.TextView
	// known is the agent as last configured, shown once it is removed.
	known config.Agent
	// agentWin is an agent window's conversation (agent_window.go); view is nil then.
	agentWin *agentWindow
	// chanWin is a channel window's conversation (channels_win.go); view is nil then.
	chanWin *chatwin.Widget
}

// find returns the open window of a kind (and channel or agent), nil when none.
func (ap *application) find(kind windowKind, channel store.ChannelID, agent string) *appWindow {
	for _, w := range ap.wins {
		if w.kind == kind && w.channel == channel && w.agent == agent {
			return w
		}
	}
	return nil
}

// open opens a window around a new text view and keeps track of it; nil when the manager
// refused it (too many windows: it said so in the status bar).
func (ap *application) open(kind windowKind, channel store.ChannelID, agent, title string) *appWindow {
	if kind == winAgent {
		return ap.openAgentWindow(agent, title)
	}
	if kind == winChannel {
		if w, handled := ap.openChannelWindow(channel, title); handled {
			return w
		}
	}
	w := &appWindow{kind: kind, channel: channel, agent: agent, view: window.NewTextView()}
	win, err := ap.app.AddWindow(title, w.view)
	if err != nil {
		return nil
	}
	w.win = win
	win.OnClose(func() { ap.forget(w) })
	ap.wins = append(ap.wins, w)
	ap.refresh(w)
	return w
}

// forget drops a closed window.
func (ap *application) forget(w *appWindow) {
	for i, o := range ap.wins {
		if o == w {
			ap.wins = append(ap.wins[:i], ap.wins[i+1:]...)
			return
		}
	}
}

// channelByID returns the channel with this id, false when it is not (or no longer) there.
func (ap *application) channelByID(id store.ChannelID) (store.Channel, bool) {
	for _, ch := range ap.channels {
		if ch.ID == id {
			return ch, true
		}
	}
	return store.Channel{}, false
}

// channelByName returns the channel with this name, case ignored, or shown under this
// name (the menus show names cleaned for the screen).
func (ap *application) channelByName(name string) (store.Channel, bool) {
	key := config.ChannelKey(name)
	for _, ch := range ap.channels {
		if config.ChannelKey(ch.Name) == key {
			return ch, true
		}
	}
	for _, ch := range ap.channels {
		if shownName(ch) == name {
			return ch, true
		}
	}
	return store.Channel{}, false
}

// shownName is a channel's name as the screen shows it.
func shownName(ch store.Channel) string { return safetext.Line(ch.Name) }

// openChannel focuses the channel's window, opening it first if needed.
func (ap *application) openChannel(id store.ChannelID) {
	if w := ap.find(winChannel, id, ""); w != nil {
		w.win.Focus()
		return
	}
	ch, ok := ap.channelByID(id)
	if !ok {
		return
	}
	ap.open(winChannel, id, "", channelTitle(ch))
}

// openAgent focuses the agent's window, opening it first if needed.
func (ap *application) openAgent(name string) {
	if w := ap.find(winAgent, 0, name); w != nil {
		w.win.Focus()
		return
	}
	ap.open(winAgent, 0, name, ap.agentTitle(name))
}

func channelTitle(ch store.Channel) string { return "#" + shownName(ch) }

// agentTitle is an agent window's title: its icon and title, or its name once it is no
// longer configured.
func (ap *application) agentTitle(name string) string {
	if a := ap.cfg.Agent(name); a != nil {
		return agentLabel(*a)
	}
	return name
}

// showErrors opens (or brings back, updated) the window of the configuration's errors.
func (ap *application) showErrors(intro string, l loaded) {
	w := ap.find(winErrors, 0, "")
	if w == nil {
		w = ap.open(winErrors, 0, "", catalogue.Text(ap.lang, msgErrorsTitle))
		if w == nil {
			return
		}
	}
	w.view.SetLines(errorsLines(ap.lang, intro, l))
	w.win.Focus()
}

// closeErrors closes the errors window once the configuration loads again.
func (ap *application) closeErrors() {
	if w := ap.find(winErrors, 0, ""); w != nil {
		w.win.Close()
	}
}

// showStatus opens (or focuses) Agent status.
func (ap *application) showStatus() {
	if w := ap.find(winStatus, 0, ""); w != nil {
		ap.refresh(w)
		w.win.Focus()
		return
	}
	ap.open(winStatus, 0, "", catalogue.Text(ap.lang, msgStatusTitle))
}

// refresh recomputes what a window shows from the configuration, the channels and the
// agents' states. The errors window keeps what it was given.
func (ap *application) refresh(w *appWindow) {
	switch w.kind {
	case winChannel:
		if w.chanWin != nil {
			ap.refreshChannelWindow(w)
			return
		}
		ch, ok := ap.channelByID(w.channel)
		if !ok {
			w.view.SetLines([]window.TextLine{{Text: catalogue.Text(ap.lang, msgChannelGone), Class: window.ClassComment}})
			return
		}
		w.win.SetTitle(channelTitle(ch))
		w.view.SetLines(channelLines(ap.lang, ch, ap.cfg, ap.states))
	case winAgent:
		ap.refreshAgentWindow(w)
	case winStatus:
		w.win.SetTitle(catalogue.Text(ap.lang, msgStatusTitle))
		w.view.SetLines(statusLines(ap.lang, ap.cur, ap.cfg, ap.o.dir, ap.states, ap.agentStatusLines))
	case winErrors:
		w.win.SetTitle(catalogue.Text(ap.lang, msgErrorsTitle))
	}
}

// refreshViews recomputes every window (a change of states, of configuration, of channels).
func (ap *application) refreshViews() {
	for _, w := range ap.wins {
		ap.refresh(w)
	}
}

// windowRefs returns the channel and agent windows open now, in their order, for the
// history.
func (ap *application) windowRefs() []store.WindowRef {
	byWin := make(map[*window.Window]*appWindow, len(ap.wins))
	for _, w := range ap.wins {
		byWin[w.win] = w
	}
	var refs []store.WindowRef
	for _, win := range ap.app.Windows() {
		w := byWin[win]
		if w == nil {
			continue
		}
		switch w.kind {
		case winChannel:
			refs = append(refs, store.WindowRef{Kind: store.WindowChannel, Channel: w.channel, Focused: win.Focused()})
		case winAgent:
			refs = append(refs, store.WindowRef{Kind: store.WindowAgent, Agent: w.agent, Focused: win.Focused()})
		}
	}
	return refs
}

// openStartWindows opens the windows of the last run, or, the first time, one window per
// declared channel.
func (ap *application) openStartWindows(refs []store.WindowRef, saved bool) {
	ap.wireConversations()
	if !saved {
		for _, d := range ap.cfg.Channels {
			if ch, ok := ap.channelByName(d.Name); ok && ap.find(winChannel, ch.ID, "") == nil {
				ap.open(winChannel, ch.ID, "", channelTitle(ch))
			}
		}
		ap.app.FocusNumber(1)
		return
	}
	var focus *appWindow
	// A restored window does not start a project agent by itself (openAgentWindow).
	ap.restoring = true
	defer func() { ap.restoring = false }()
	for _, r := range refs {
		var w *appWindow
		switch r.Kind {
		case store.WindowChannel:
			if _, ok := ap.channelByID(r.Channel); ok && ap.find(winChannel, r.Channel, "") == nil {
				w = ap.open(winChannel, r.Channel, "", "")
			}
		case store.WindowAgent:
			if ap.find(winAgent, 0, r.Agent) == nil {
				w = ap.open(winAgent, 0, r.Agent, ap.agentTitle(r.Agent))
			}
		}
		if w != nil && r.Focused {
			focus = w
		}
	}
	if focus != nil {
		focus.win.Focus()
	} else {
		ap.app.FocusNumber(1)
	}
}
