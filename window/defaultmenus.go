package window

import "strings"

// MenuHandlers are the application's callbacks behind the default menus. A nil callback
// disables its entry (a list callback left nil lists nothing). They run on the UI
// goroutine and must not wait on I/O: hand slow work to another goroutine.
type MenuHandlers struct {
	// Sidekicks menu.
	OpenConfig  func()
	RecentFiles func() []string
	OpenRecent  func(path string)
	// EditConfig opens the configuration file in the user's editor.
	EditConfig func()
	Reload     func()
	// Quit defaults to App.Quit; the application replaces it to stop the agents first
	// (see App.Shutdown).
	Quit func()

	// Channels menu: one entry per channel, then new, rename, delete.
	Channels    func() []string
	OpenChannel func(name string)
	// NewChannel creates a channel; a non-empty problem is shown in the dialog, which
	// stays open.
	NewChannel func(name string) (problem string)
	// CurrentChannel is the channel of the focused window, "" when it shows none: rename
	// and delete act on it.
	CurrentChannel func() string
	RenameChannel  func(old, new string) (problem string)
	// DeleteChannel runs once the user confirmed.
	DeleteChannel func(name string)
	// ChannelUnread marks a channel whose window has content not read yet.
	ChannelUnread func(name string) bool
	// AddMember and RemoveMember act on the current channel; each entry is offered when
	// set.
	AddMember    func()
	RemoveMember func()

	// Agent menu: one entry per agent, then the Agents panel, the wizard, the project
	// agents file, cancel turn and status.
	Agents    func() []AgentEntry
	OpenAgent func(name string)
	// AgentsPanel opens (or focuses) the Agents panel.
	AgentsPanel func()
	// AddAgent opens the "Add an agent…" wizard.
	AddAgent func()
	// CreateAgentsFile writes the starter project agents file and opens it; its entry is
	// enabled while CanCreateAgentsFile says the project has none (never when nil).
	CanCreateAgentsFile func() bool
	CreateAgentsFile    func()
	// CanCancel says whether a turn runs in the focused window.
	CanCancel   func() bool
	CancelTurn  func()
	AgentStatus func()
}

// AgentEntry is one agent of the Agent menu.
type AgentEntry struct {
	Name  string
	Title string
	Icon  string
}

func keyPtr(k Key) *Key { return &k }

// DefaultMenus returns the menu bar of Sidekicks: Sidekicks, Channels, Agent, Window,
// Help, wired to h and to the window manager. Pass it to SetMenus.
func (a *App) DefaultMenus(h MenuHandlers) []*Menu {
	quit := h.Quit
	if quit == nil {
		quit = a.Quit
	}
	sidekicks := &Menu{Label: LabelMenuSidekicks, Items: func() []MenuItem {
		return []MenuItem{
			{Label: LabelItemOpenConfig, Action: h.OpenConfig},
			{Label: LabelItemRecentFiles, Action: a.recentFilesAction(h)},
			{Label: LabelItemEditConfig, Action: h.EditConfig},
			{Label: LabelItemReload, Action: h.Reload},
			{Separator: true},
			{Label: LabelItemQuit, Shortcut: keyPtr(Alt('x')), Action: quit},
		}
	}}
	channels := &Menu{Label: LabelMenuChannels, Items: func() []MenuItem {
		var items []MenuItem
		if h.Channels != nil {
			for _, name := range h.Channels() {
				text := "#" + name
				if h.ChannelUnread != nil && h.ChannelUnread(name) {
					text += " ●"
				}
				items = append(items, MenuItem{Text: text, Action: bind(h.OpenChannel, name)})
			}
		}
		if len(items) == 0 {
			items = append(items, MenuItem{Label: LabelNoChannels})
		}
		hasCurrent := func() bool { return h.CurrentChannel != nil && h.CurrentChannel() != "" }
		items = append(items,
			MenuItem{Separator: true},
			MenuItem{Label: LabelItemNewChannel, Action: a.newChannelAction(h)},
			MenuItem{Label: LabelItemRenameChannel, Enabled: hasCurrent, Action: a.renameChannelAction(h)},
			MenuItem{Label: LabelItemDeleteChannel, Enabled: hasCurrent, Action: a.deleteChannelAction(h)},
		)
		if h.AddMember != nil {
			items = append(items, MenuItem{Label: LabelItemAddMember, Enabled: hasCurrent, Action: h.AddMember})
		}
		if h.RemoveMember != nil {
			items = append(items, MenuItem{Label: LabelItemRemoveMember, Enabled: hasCurrent, Action: h.RemoveMember})
		}
		return items
	}}
	agent := &Menu{Label: LabelMenuAgent, Items: func() []MenuItem {
		var items []MenuItem
		if h.Agents != nil {
			for _, ag := range h.Agents() {
				text := ag.Title
				if text == "" {
					text = ag.Name
				}
				if ag.Icon != "" {
					text = ag.Icon + " " + text
				}
				items = append(items, MenuItem{Text: text, Action: bind(h.OpenAgent, ag.Name)})
			}
		}
		if len(items) == 0 {
			items = append(items, MenuItem{Label: LabelNoAgents})
		}
		canCreate := h.CanCreateAgentsFile
		if canCreate == nil {
			canCreate = func() bool { return false }
		}
		return append(items,
			MenuItem{Separator: true},
			MenuItem{Label: LabelItemAgentsPanel, Action: h.AgentsPanel},
			MenuItem{Label: LabelItemAddAgent, Action: h.AddAgent},
			MenuItem{Label: LabelItemCreateAgentsFile, Enabled: canCreate, Action: h.CreateAgentsFile},
			MenuItem{Separator: true},
			MenuItem{Label: LabelItemCancelTurn, Enabled: h.CanCancel, Action: h.CancelTurn},
			MenuItem{Label: LabelItemAgentStatus, Action: h.AgentStatus},
		)
	}}
	window := &Menu{Label: LabelMenuWindow, Items: func() []MenuItem {
		has := func() bool { return len(a.windows) > 0 }
		several := func() bool { return len(a.windows) > 1 }
		zoom := LabelItemMaximise
		if a.maximised {
			zoom = LabelItemRestore
		}
		return []MenuItem{
			{Label: LabelItemTile, Enabled: has, Action: func() { a.SetMaximised(false) }},
			{Label: zoom, Shortcut: keyPtr(Named(KeyF5, 0)), Enabled: has, Action: func() { a.SetMaximised(!a.maximised) }},
			{Label: LabelItemNext, Shortcut: keyPtr(Named(KeyF6, 0)), Enabled: several, Action: func() { a.FocusNext(1) }},
			{Label: LabelItemPrevious, Shortcut: keyPtr(Named(KeyF6, ModShift)), Enabled: several, Action: func() { a.FocusNext(-1) }},
			{Label: LabelItemClose, Shortcut: keyPtr(Named(KeyF3, ModAlt)), Enabled: has, Action: func() { a.Focused().Close() }},
			{Label: LabelItemList, Shortcut: keyPtr(Alt('0')), Enabled: has, Action: a.ShowWindowList},
		}
	}}
	help := &Menu{Label: LabelMenuHelp, Items: func() []MenuItem {
		return []MenuItem{{Label: LabelItemKeys, Shortcut: keyPtr(Named(KeyF1, 0)), Action: a.ShowKeys}}
	}}
	return []*Menu{sidekicks, channels, agent, window, help}
}

// bind returns f with its argument, nil when f is nil (so the entry is disabled).
func bind(f func(string), arg string) func() {
	if f == nil {
		return nil
	}
	return func() { f(arg) }
}

func (a *App) recentFilesAction(h MenuHandlers) func() {
	if h.RecentFiles == nil || h.OpenRecent == nil {
		return nil
	}
	return func() {
		paths := h.RecentFiles()
		items := make([]ChoiceItem, len(paths))
		for i, p := range paths {
			items[i] = ChoiceItem{Text: p}
		}
		if len(items) == 0 {
			a.Flash(a.T(LabelNoRecentFiles))
			return
		}
		a.Choose(Choice{Title: a.T(LabelRecentFilesTitle), Items: items}, func(i int, ok bool) {
			if ok {
				h.OpenRecent(paths[i])
			}
		})
	}
}

// nameProblem refuses an empty name, then asks check.
func (a *App) nameProblem(check func(string) string) func(string) string {
	return func(name string) string {
		if strings.TrimSpace(name) == "" {
			return a.T(LabelNameNeeded)
		}
		return check(strings.TrimSpace(name))
	}
}

func (a *App) newChannelAction(h MenuHandlers) func() {
	if h.NewChannel == nil {
		return nil
	}
	return func() {
		a.AskText(TextEntry{
			Title:    a.T(LabelNewChannelTitle),
			Prompt:   a.T(LabelChannelName),
			Validate: a.nameProblem(h.NewChannel),
		}, func(string, bool) {})
	}
}

func (a *App) renameChannelAction(h MenuHandlers) func() {
	if h.RenameChannel == nil || h.CurrentChannel == nil {
		return nil
	}
	return func() {
		old := h.CurrentChannel()
		a.AskText(TextEntry{
			Title:    a.T(LabelRenameChannelTitle),
			Prompt:   a.T(LabelChannelName),
			Text:     old,
			Validate: a.nameProblem(func(name string) string { return h.RenameChannel(old, name) }),
		}, func(string, bool) {})
	}
}

func (a *App) deleteChannelAction(h MenuHandlers) func() {
	if h.DeleteChannel == nil || h.CurrentChannel == nil {
		return nil
	}
	return func() {
		name := h.CurrentChannel()
		a.Confirm(a.T(LabelDeleteChannelTitle), a.labels.Tf(LabelDeleteChannelAsk, name), func(yes bool) {
			if yes {
				h.DeleteChannel(name)
			}
		})
	}
}
