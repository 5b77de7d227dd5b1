package app

import (
	"slices"
	"strconv"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/safetext"
	"git.rickub.com/bots-garden/sidekicks/store"
	"git.rickub.com/bots-garden/sidekicks/window"
	"git.rickub.com/bots-garden/sidekicks/window/chatwin"
)

// wireConversations ties the application to the conversation service once the screen
// exists: the permission dialogs, what channel routing tells the screen, and the Channels
// menu's member entries and unread marks. It runs on the screen's goroutine before the
// first windows open.
func (ap *application) wireConversations() {
	c := ap.agents
	chatwin.RequestsOf(ap.app).OnAsk(ap.sayPermissionAsked)
	c.SetPermissions(func(k chat.Key) chat.Permissions {
		return chatwin.Permissions(ap.app, chatwin.PermissionOptions{
			Key:   k,
			Title: ap.agentTitle,
			Window: func() *window.Window {
				if w := ap.windowOfKey(k); w != nil {
					return w.win
				}
				return nil
			},
		})
	})
	c.Routing().SetHooks(chat.ChannelHooks{
		Members: func(int64) { ap.reloadChannels() },
		Note: func(k chat.Key, r chat.Routing) {
			ap.app.Post(func() { ap.showRouteHint(k, r.HintText(ap.lang)) })
		},
		Logf: ap.log.Printf,
	})
}

// sayPermissionAsked says on the status bar who asks permission and how to get there: the
// Alt-digit of the conversation's window, or the menu entry that lists the requests when
// no window shows it.
func (ap *application) sayPermissionAsked(r *chatwin.Request) {
	where := catalogue.Text(ap.lang, msgPermissionWhere)
	if w := ap.windowOfKey(r.Key); w != nil && w.win.Number() > 0 {
		where = "Alt-" + strconv.Itoa(w.win.Number())
	}
	ap.app.Flash(catalogue.Text(ap.lang, msgPermissionAsks, r.Who, where))
}

// showPermissionRequests lists the conversations whose agents wait for a permission, one
// entry each (a flood is one entry with its count), and jumps to the one chosen: its
// window in front, opened first when needed.
func (ap *application) showPermissionRequests() {
	pending := chatwin.RequestsOf(ap.app).Pending()
	if len(pending) == 0 {
		ap.app.Flash(catalogue.Text(ap.lang, msgNoRequests))
		return
	}
	items := make([]window.ChoiceItem, len(pending))
	keys := make([]chat.Key, len(pending))
	for i, p := range pending {
		text := "! " + p.Head.Who + ": " + p.Head.Req.Title
		if p.Count > 1 {
			text += " " + catalogue.Text(ap.lang, msgRequestMore, p.Count-1)
		}
		if w := ap.windowOfKey(p.Head.Key); w != nil && w.win.Number() > 0 {
			text += "  Alt-" + strconv.Itoa(w.win.Number())
		}
		items[i], keys[i] = window.ChoiceItem{Text: text}, p.Head.Key
	}
	ap.app.Choose(window.Choice{Title: catalogue.Text(ap.lang, msgRequestsTitle), Items: items}, func(i int, ok bool) {
		if ok {
			ap.showConversation(keys[i])
		}
	})
}

// showConversation puts a conversation's window in front, opening it when needed.
func (ap *application) showConversation(k chat.Key) {
	if k.Agent != "" {
		ap.openAgent(k.Agent)
		return
	}
	ap.openChannel(store.ChannelID(k.Channel))
}

// windowOfKey returns the window of a conversation, nil when none is open (screen's
// goroutine).
func (ap *application) windowOfKey(k chat.Key) *appWindow {
	if k.Agent != "" {
		return ap.find(winAgent, 0, k.Agent)
	}
	return ap.find(winChannel, store.ChannelID(k.Channel), "")
}

// reloadChannels reads the channels again (their members changed) and shows them. It
// may be called from any goroutine.
func (ap *application) reloadChannels() {
	ap.work.Do(func() {
		chans, err := ap.st.Channels()
		ap.app.Post(func() { ap.setChannels(chans, err) })
	})
}

// focusedChannel returns the channel of the focused window.
func (ap *application) focusedChannel() (store.Channel, bool) {
	if w := ap.focusedWindow(); w != nil && w.kind == winChannel {
		return ap.channelByID(w.channel)
	}
	return store.Channel{}, false
}

// askAddMember asks which agent to add to the focused channel (Channels ▸ Add member…).
func (ap *application) askAddMember() {
	ch, ok := ap.focusedChannel()
	if !ok {
		return
	}
	var names []string
	var items []window.ChoiceItem
	for _, a := range ap.cfg.Agents {
		if !slices.Contains(ch.Members, a.Name) {
			names = append(names, a.Name)
			items = append(items, window.ChoiceItem{Text: agentLabel(a) + "  @" + a.Name})
		}
	}
	if len(items) == 0 {
		ap.app.Flash(channelCatalogue.Text(ap.lang, chmsgAllMembers, shownName(ch)))
		return
	}
	ap.app.Choose(window.Choice{Title: channelCatalogue.Text(ap.lang, chmsgAddTitle, shownName(ch)), Items: items}, func(i int, ok bool) {
		if ok {
			ap.changeMember(ch, names[i], true)
		}
	})
}

// askRemoveMember asks which member to remove from the focused channel.
func (ap *application) askRemoveMember() {
	ch, ok := ap.focusedChannel()
	if !ok {
		return
	}
	if len(ch.Members) == 0 {
		ap.app.Flash(channelCatalogue.Text(ap.lang, chmsgNoMember, shownName(ch)))
		return
	}
	items := make([]window.ChoiceItem, len(ch.Members))
	for i, name := range ch.Members {
		items[i] = window.ChoiceItem{Text: ap.memberLabel(name) + "  @" + safetext.Line(name)}
	}
	members := slices.Clone(ch.Members)
	ap.app.Choose(window.Choice{Title: channelCatalogue.Text(ap.lang, chmsgRemoveTitle, shownName(ch)), Items: items}, func(i int, ok bool) {
		if ok {
			ap.changeMember(ch, members[i], false)
		}
	})
}

// memberLabel is how a member is named on screen: its icon and title, or its name once
// it left the configuration.
func (ap *application) memberLabel(name string) string {
	if a := ap.cfg.Agent(name); a != nil {
		return agentLabel(*a)
	}
	return safetext.Line(name)
}

// changeMember adds an agent to a channel or removes it, with a line in the channel's
// conversation when it is open.
func (ap *application) changeMember(ch store.Channel, agent string, add bool) {
	who := safetext.Line(agent)
	if a := ap.cfg.Agent(agent); a != nil {
		who = memberTitle(*a)
	}
	notice := chat.JoinedNotice(who, ap.lang)
	if !add {
		notice = channelCatalogue.Text(ap.lang, chmsgLeft, who)
	}
	svc := ap.agents.Service()
	ap.work.Do(func() {
		var err error
		if add {
			err = ap.st.AddMember(ch.ID, agent)
		} else {
			err = ap.st.RemoveMember(ch.ID, agent)
		}
		if err == nil {
			if conv, ok := svc.Conversation(chat.ChannelKey(int64(ch.ID))); ok {
				conv.AddNotice(notice)
			}
		}
		chans, lerr := ap.st.Channels()
		ap.app.Post(func() {
			if err != nil {
				ap.logFailure(err)
				return
			}
			ap.setChannels(chans, lerr)
			if add {
				ap.app.Flash(channelCatalogue.Text(ap.lang, chmsgAdded, who, shownName(ch)))
			} else {
				ap.app.Flash(channelCatalogue.Text(ap.lang, chmsgRemoved, who, shownName(ch)))
			}
		})
	})
}

// showRouteHint shows what routing says of a message of a channel: on the line above the
// channel window's input, and in the status bar.
func (ap *application) showRouteHint(k chat.Key, hint string) {
	if hint == "" {
		return
	}
	if w := ap.windowOfKey(k); w != nil && w.chanWin != nil {
		w.chanWin.ShowHint(hint)
	}
	ap.app.Flash(hint)
}
