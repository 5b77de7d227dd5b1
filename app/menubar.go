package app

import (
	"strconv"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// menuHandlers are the application's callbacks behind its menus. A nil callback disables
// its entry (a list callback left nil lists nothing). They run on the UI goroutine and
// must not wait on I/O: hand slow work to another goroutine.
type menuHandlers struct {
	// Sidekicks menu.
	OpenConfig  func()
	RecentFiles func() []string
	OpenRecent  func(path string)
	// EditConfig opens the configuration file in the user's editor.
	EditConfig func()
	Reload     func()
	// SearchHistory opens Search history: a search over every conversation's history.
	SearchHistory func()
	// ExportConversation writes the focused window's conversation to a Markdown file; its
	// entry is enabled while CanExport says a channel or agent window is focused.
	CanExport          func() bool
	ExportConversation func()
	// About shows Help ▸ About: the version and where Sidekicks' files are.
	About func()
	// Quit defaults to window.App.Quit; the application replaces it to stop the agents
	// first (see window.App.Shutdown).
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
	Agents    func() []agentEntry
	OpenAgent func(name string)
	// AgentsPanel opens (or focuses) the Agents panel.
	AgentsPanel func()
	// AddAgent opens the "Add an agent…" wizard.
	AddAgent func()
	// CreateAgentsFile writes the starter project agents file and opens it; its entry is
	// enabled while CanCreateAgentsFile says the project has none (never when nil).
	CanCreateAgentsFile func() bool
	CreateAgentsFile    func()
	// AllowProject shows the project agents file not allowed yet and asks to allow it; its
	// entry is enabled while CanAllowProject says there is one (never when nil).
	CanAllowProject func() bool
	AllowProject    func()
	// CanCancel says whether a turn runs in the focused window.
	CanCancel   func() bool
	CancelTurn  func()
	AgentStatus func()
	// SignIn, Secrets and SessionOptions act on the focused window's agent (signin.go,
	// options.go).
	SignIn, Secrets, SessionOptions func()
	// Sessions lists an agent's sessions (app/sessions.go).
	Sessions func()
	// PermissionRequests lists the permission requests waiting, every window's, and jumps
	// to the one chosen; Requests says how many conversations have one (shown on the entry).
	PermissionRequests func()
	Requests           func() int
}

// agentEntry is one agent of the Agent menu.
type agentEntry struct {
	Name  string
	Title string
	Icon  string
}

// menuBar returns the menu bar of Sidekicks: Sidekicks, Channels, Agent, wired to h, then
// the toolkit's Window and Help menus. Pass it to SetMenus. Its texts are in a's language
// at the time they show.
func menuBar(a *window.App, h menuHandlers) []*window.Menu {
	quit := h.Quit
	if quit == nil {
		quit = a.Quit
	}
	altX := window.Alt('x')
	title := func(m msg) func() string { return func() string { return catalogue.Text(a.Language(), m) } }
	sidekicks := &window.Menu{Title: title(msgMenuSidekicks), Items: func() []window.MenuItem {
		lang := a.Language()
		return []window.MenuItem{
			{Marked: catalogue.Text(lang, msgItemOpenConfig), Action: h.OpenConfig},
			{Marked: catalogue.Text(lang, msgItemRecentFiles), Action: recentFilesAction(a, h)},
			{Marked: catalogue.Text(lang, msgItemEditConfig), Action: h.EditConfig},
			{Marked: catalogue.Text(lang, msgItemReload), Action: h.Reload},
			{Separator: true},
			{Marked: searchCatalogue.Text(lang, fmsgItemSearch), Action: h.SearchHistory},
			{Marked: searchCatalogue.Text(lang, fmsgItemExport), Enabled: h.CanExport, Action: h.ExportConversation},
			{Separator: true},
			{Marked: catalogue.Text(lang, msgItemQuit), Shortcut: &altX, Action: quit},
		}
	}}
	channels := &window.Menu{Title: title(msgMenuChannels), Items: func() []window.MenuItem {
		lang := a.Language()
		var items []window.MenuItem
		if h.Channels != nil {
			for _, name := range h.Channels() {
				text := "#" + name
				if h.ChannelUnread != nil && h.ChannelUnread(name) {
					text += " ●"
				}
				items = append(items, window.MenuItem{Text: text, Action: bind(h.OpenChannel, name)})
			}
		}
		if len(items) == 0 {
			items = append(items, window.MenuItem{Marked: catalogue.Text(lang, msgNoChannels)})
		}
		hasCurrent := func() bool { return h.CurrentChannel != nil && h.CurrentChannel() != "" }
		items = append(items,
			window.MenuItem{Separator: true},
			window.MenuItem{Marked: catalogue.Text(lang, msgItemNewChannel), Action: newChannelAction(a, h)},
			window.MenuItem{Marked: catalogue.Text(lang, msgItemRenameChannel), Enabled: hasCurrent, Action: renameChannelAction(a, h)},
			window.MenuItem{Marked: catalogue.Text(lang, msgItemDeleteChannel), Enabled: hasCurrent, Action: deleteChannelAction(a, h)},
		)
		if h.AddMember != nil {
			items = append(items, window.MenuItem{Marked: catalogue.Text(lang, msgItemAddMember), Enabled: hasCurrent, Action: h.AddMember})
		}
		if h.RemoveMember != nil {
			items = append(items, window.MenuItem{Marked: catalogue.Text(lang, msgItemRemoveMember), Enabled: hasCurrent, Action: h.RemoveMember})
		}
		return items
	}}
	agent := &window.Menu{Title: title(msgMenuAgent), Items: func() []window.MenuItem {
		lang := a.Language()
		var items []window.MenuItem
		if h.Agents != nil {
			for _, ag := range h.Agents() {
				text := ag.Title
				if text == "" {
					text = ag.Name
				}
				if ag.Icon != "" {
					text = ag.Icon + " " + text
				}
				items = append(items, window.MenuItem{Text: text, Action: bind(h.OpenAgent, ag.Name)})
			}
		}
		if len(items) == 0 {
			items = append(items, window.MenuItem{Marked: catalogue.Text(lang, msgNoAgents)})
		}
		canCreate := h.CanCreateAgentsFile
		if canCreate == nil {
			canCreate = func() bool { return false }
		}
		canAllow := h.CanAllowProject
		if canAllow == nil {
			canAllow = func() bool { return false }
		}
		return append(items,
			window.MenuItem{Separator: true},
			window.MenuItem{Marked: catalogue.Text(lang, msgItemAgentsPanel), Action: h.AgentsPanel},
			window.MenuItem{Marked: catalogue.Text(lang, msgItemAddAgent), Action: h.AddAgent},
			window.MenuItem{Marked: catalogue.Text(lang, msgItemCreateAgentsFile), Enabled: canCreate, Action: h.CreateAgentsFile},
			window.MenuItem{Marked: catalogue.Text(lang, msgItemAllowProject), Enabled: canAllow, Action: h.AllowProject},
			window.MenuItem{Separator: true},
			window.MenuItem{Marked: catalogue.Text(lang, msgItemCancelTurn), Enabled: h.CanCancel, Action: h.CancelTurn},
			window.MenuItem{Marked: signInCatalogue.Text(lang, imsgItemSessionOptions), Action: h.SessionOptions},
			window.MenuItem{Marked: signInCatalogue.Text(lang, imsgItemSignIn), Action: h.SignIn},
			window.MenuItem{Marked: signInCatalogue.Text(lang, imsgItemSecrets), Action: h.Secrets},
			window.MenuItem{Marked: catalogue.Text(lang, msgItemAgentStatus), Action: h.AgentStatus},
			sessionsItem(lang, h.Sessions),
			window.MenuItem{Marked: requestsText(lang, h.Requests), Action: h.PermissionRequests},
		)
	}}
	return []*window.Menu{sidekicks, channels, agent, a.WindowMenu(), helpMenu(a, h)}
}

// helpMenu is the toolkit's Help menu (the keys), then About.
func helpMenu(a *window.App, h menuHandlers) *window.Menu {
	help := a.HelpMenu()
	keys := help.Items
	help.Items = func() []window.MenuItem {
		return append(keys(), window.MenuItem{Separator: true},
			window.MenuItem{Marked: aboutCatalogue.Text(a.Language(), amsgItemAbout), Action: h.About})
	}
	return help
}

// requestsText is the entry of the permission requests, with "!" and how many
// conversations wait for an answer when some do.
func requestsText(lang i18n.Lang, n func() int) string {
	text := catalogue.Text(lang, msgItemRequests)
	if n != nil {
		if k := n(); k > 0 {
			text += " ! " + strconv.Itoa(k)
		}
	}
	return text
}

// bind returns f with its argument, nil when f is nil (so the entry is disabled).
func bind(f func(string), arg string) func() {
	if f == nil {
		return nil
	}
	return func() { f(arg) }
}

func recentFilesAction(a *window.App, h menuHandlers) func() {
	if h.RecentFiles == nil || h.OpenRecent == nil {
		return nil
	}
	return func() {
		lang := a.Language()
		paths := h.RecentFiles()
		items := make([]window.ChoiceItem, len(paths))
		for i, p := range paths {
			items[i] = window.ChoiceItem{Text: p}
		}
		if len(items) == 0 {
			a.Flash(catalogue.Text(lang, msgNoRecentFiles))
			return
		}
		a.Choose(window.Choice{Title: catalogue.Text(lang, msgRecentFilesTitle), Items: items}, func(i int, ok bool) {
			if ok {
				h.OpenRecent(paths[i])
			}
		})
	}
}

// nameProblem refuses an empty name, then asks check.
func nameProblem(lang i18n.Lang, check func(string) string) func(string) string {
	return func(name string) string {
		if strings.TrimSpace(name) == "" {
			return catalogue.Text(lang, msgNameNeeded)
		}
		return check(strings.TrimSpace(name))
	}
}

func newChannelAction(a *window.App, h menuHandlers) func() {
	if h.NewChannel == nil {
		return nil
	}
	return func() {
		lang := a.Language()
		a.AskText(window.TextEntry{
			Title:    catalogue.Text(lang, msgNewChannelTitle),
			Prompt:   catalogue.Text(lang, msgChannelName),
			Validate: nameProblem(lang, h.NewChannel),
		}, func(string, bool) {})
	}
}

func renameChannelAction(a *window.App, h menuHandlers) func() {
	if h.RenameChannel == nil || h.CurrentChannel == nil {
		return nil
	}
	return func() {
		lang := a.Language()
		old := h.CurrentChannel()
		a.AskText(window.TextEntry{
			Title:    catalogue.Text(lang, msgRenameChannelTitle),
			Prompt:   catalogue.Text(lang, msgChannelName),
			Text:     old,
			Validate: nameProblem(lang, func(name string) string { return h.RenameChannel(old, name) }),
		}, func(string, bool) {})
	}
}

func deleteChannelAction(a *window.App, h menuHandlers) func() {
	if h.DeleteChannel == nil || h.CurrentChannel == nil {
		return nil
	}
	return func() {
		lang := a.Language()
		name := h.CurrentChannel()
		a.Confirm(catalogue.Text(lang, msgDeleteChannelTitle), catalogue.Text(lang, msgDeleteChannelAsk, name), func(yes bool) {
			if yes {
				h.DeleteChannel(name)
			}
		})
	}
}
