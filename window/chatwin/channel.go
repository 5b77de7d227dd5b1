package chatwin

import (
	"strings"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/safetext"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// Member is an agent as a channel window knows it: a member of the channel, or an agent
// of the configuration that @ can add.
type Member struct {
	Name  string
	Title string
	Icon  string
	// State is the agent's state in the supervisor; StateText says it in words ("" to say
	// nothing).
	State     runtime.State
	StateText string
}

// Channel makes a Widget the content of a channel's window: one conversation with several
// agents (DESIGN.md, "Channels"). The input's @ completes agents' names, members first;
// its / lists the members' commands as name:command; the line above the input lists the
// members with their states; an empty channel shows Empty. Every function is called on
// the screen's goroutine and must not wait; each may be nil.
type Channel struct {
	// Members returns the channel's members, in their order.
	Members func() []Member
	// Agents returns every agent of the configuration, in its order: @ completes their
	// names after the members', and their entries are labelled with their icons and titles.
	Agents func() []Member
	// Commands returns what an agent announced outside this channel (its own window,
	// another channel), for a member that has announced nothing in this one yet.
	Commands func(agent string) []chat.Command
	// Files returns what @ can mention in a command line sent to agent (/alice:review
	// @…, where nothing is a mention of an agent): its workspace's files (WalkWorkspace).
	// Nil, or a nil Walker, leaves @ completing agents' names there.
	Files func(agent string) Walker
	// Empty returns what the window shows while the conversation has no entry: the
	// channel's description, its members.
	Empty func() []window.TextLine
	// Status returns the status bar's first entry: the channel's description.
	Status func() string
	// SendError returns what to tell of a message the service refused (how to address
	// someone); "" keeps the usual words.
	SendError func(err error) string
}

// channelMode is what a Widget keeps of its channel.
type channelMode struct {
	Channel
	// hint is what routing said of the last message sent, shown above the input until the
	// input changes (its rev moves from hintRev).
	hint    string
	hintRev uint64
	// What the last look at the conversation found of each agent's turn.
	busy  map[string]bool
	turns map[string]int64
}

// listAgents is the @ list of a channel: agents' names.
const listAgents listKind = 100

// NewChannel returns the content of the window of the channel whose conversation is key
// (chat.ChannelKey), as New does for an agent's.
func NewChannel(app *window.App, svc Service, key chat.Key, ch Channel, opts Options) *Widget {
	w := New(app, svc, key, AgentInfo{}, opts)
	w.channel = &channelMode{Channel: ch, busy: make(map[string]bool), turns: make(map[string]int64)}
	return w
}

// ShowHint shows text on the line above the input until the input changes: what routing
// said of the message just sent (a note: how to address someone).
func (w *Widget) ShowHint(text string) {
	if w.channel == nil {
		return
	}
	w.channel.hint, w.channel.hintRev = safetext.Line(text), w.input.rev
	w.app.Invalidate()
}

func (m *channelMode) members() []Member {
	if m.Members == nil {
		return nil
	}
	return m.Members()
}

func (m *channelMode) agents() []Member {
	if m.Agents == nil {
		return nil
	}
	return m.Agents()
}

// channelSpeaker gives each agent's icon and title to its entries' labels.
func (w *Widget) channelSpeaker(author string) (string, string) {
	for _, list := range [][]Member{w.channel.members(), w.channel.agents()} {
		for _, a := range list {
			if a.Name == author {
				return a.Icon, a.Title
			}
		}
	}
	return "", author
}

// channelCommands lists the members' commands as name:command.
func (w *Widget) channelCommands() []chat.Command {
	members := w.channel.members()
	names := make([]string, len(members))
	byAgent := make(map[string][]chat.Command, len(members))
	for i, m := range members {
		names[i] = m.Name
		var cmds []chat.Command
		if w.conv != nil {
			cmds = w.conv.Commands(m.Name)
		}
		if len(cmds) == 0 && w.channel.Commands != nil {
			cmds = w.channel.Commands(m.Name)
		}
		byAgent[m.Name] = cmds
	}
	return chat.ChannelCommands(names, byAgent)
}

// channelComplete is complete in a channel: / lists the members' commands, @ the agents.
func (w *Widget) channelComplete() {
	ch, l, e := w.channel, &w.list, w.input
	if ch.hint != "" && e.rev != ch.hintRev {
		ch.hint = ""
	}
	if l.dismissed && e.rev == l.dismissedRev {
		return
	}
	l.dismissed = false
	was, wasFrom := l.kind, l.from
	l.kind, l.items = listNone, l.items[:0]
	var cmds []chat.Command
	if strings.HasPrefix(e.text, "/") {
		cmds = w.channelCommands()
	}
	if from, to, ok := commandSpan(e.text, e.cursor, cmds); ok {
		if len(cmds) > 0 {
			l.kind, l.from, l.to = listCommands, from, to
			for _, cmd := range chat.FilterCommands(cmds, e.text[from+1:e.cursor]) {
				c := choice{insert: "/" + cmd.Name, word: "/" + cmd.Name, name: "/" + cmd.Name, desc: cmd.Description}
				if cmd.HasInput {
					c.insert += " "
					if cmd.InputHint != "" {
						c.hint = "<" + cmd.InputHint + ">"
					}
				}
				l.items = append(l.items, c)
			}
		}
	} else if from, to, ok := mentionWord(e.text, e.cursor); ok {
		if agent, files := w.commandFiles(); files != nil {
			l.kind, l.from, l.to = listFiles, from, to
			if was != listFiles || wasFrom != from || l.walkOf != agent || l.needsWalk(e.text[from+1:e.cursor]) {
				l.walkOf = agent
				w.walkFiles(files)
			} else {
				l.filterFiles(e.text[from+1 : e.cursor])
			}
		} else {
			l.kind, l.from, l.to = listAgents, from, to
			w.agentChoices(e.text[from+1 : e.cursor])
		}
	}
	if l.kind != was || l.from != wasFrom {
		l.sel, l.top = 0, 0
	}
	l.sel = min(l.sel, max(len(l.items)-1, 0))
}

// commandFiles returns the agent the input's command line is for (/alice:review …), as
// the configuration or the members spell it, with the files @ can mention for it; a nil
// Walker when the input is no such line or the channel lists no files for that agent.
func (w *Widget) commandFiles() (string, Walker) {
	name, ok := chat.CommandAgent(w.input.text)
	if !ok || w.channel.Files == nil {
		return "", nil
	}
	for _, list := range [][]Member{w.channel.members(), w.channel.agents()} {
		for _, m := range list {
			if strings.EqualFold(m.Name, name) {
				return m.Name, w.channel.Files(m.Name)
			}
		}
	}
	return "", nil
}

// agentChoices fills the @ list with the agents typed may complete to, members first.
func (w *Widget) agentChoices(typed string) {
	members, agents := w.channel.members(), w.channel.agents()
	names := make([]string, len(members))
	for i, m := range members {
		names[i] = m.Name
	}
	refs := make([]chat.AgentRef, len(agents))
	byName := make(map[string]Member, len(agents)+len(members))
	for i, a := range agents {
		refs[i] = chat.AgentRef{Name: a.Name, Title: a.Title}
		byName[a.Name] = a
	}
	for _, m := range members {
		byName[m.Name] = m
	}
	for _, a := range chat.CompleteAgents(typed, names, refs) {
		m := byName[a.Name]
		label := m.Title
		if m.Icon != "" {
			label = m.Icon + " " + label
		}
		w.list.items = append(w.list.items, choice{insert: "@" + a.Name + " ", word: "@" + a.Name, name: "@" + a.Name, desc: label, hint: m.StateText})
		if len(w.list.items) == maxShown {
			break
		}
	}
}

// channelState is what the rule says in a channel: the hint routing gave, else each
// member with its state; busy while a turn of the channel is in progress.
func (w *Widget) channelState() (string, bool) {
	if w.closed {
		return "", false
	}
	busy := w.turnBusy()
	if w.channel.hint != "" {
		return w.channel.hint, busy
	}
	var parts []string
	cancelling := false
	for _, m := range w.channel.members() {
		if w.conv != nil && w.conv.State(m.Name).Cancelling {
			cancelling = true
		}
		label := m.Title
		if m.Icon != "" {
			label = m.Icon + " " + label
		}
		if m.StateText != "" {
			label += ": " + m.StateText
		}
		parts = append(parts, label)
	}
	text := strings.Join(parts, " · ")
	switch stuck := w.stuckText(); {
	case stuck != "":
		text = stuck + " " + text
	case cancelling:
		text = catalogue.Text(w.app.Language(), tCancelling) + " " + text
	}
	return text, busy
}

// channelTurnEnded reports whether a turn of the channel ended since the last look: a
// member's, or that of an agent seen in a turn before (it may have left the channel).
func (w *Widget) channelTurnEnded() bool {
	ch := w.channel
	ended := false
	look := func(name string) {
		st := w.conv.State(name)
		if ch.busy[name] && (!st.Busy || st.Turn != ch.turns[name]) || !st.Busy && st.Turn != ch.turns[name] {
			ended = true
		}
		ch.busy[name], ch.turns[name] = st.Busy, st.Turn
	}
	for _, m := range ch.members() {
		look(m.Name)
	}
	for name := range ch.busy {
		look(name)
	}
	return ended
}

// channelStatus is the status bar's first entry in a channel.
func (w *Widget) channelStatus() string {
	if w.channel.Status == nil {
		return ""
	}
	return safetext.Line(w.channel.Status())
}

// sendErrorText is what to tell of a message the service refused.
func (w *Widget) sendErrorText(err error) string {
	if w.channel != nil && w.channel.SendError != nil {
		if text := w.channel.SendError(err); text != "" {
			// Said on the line above the input too, until the input changes.
			w.channel.hint, w.channel.hintRev = safetext.Line(text), w.input.rev
			return w.channel.hint
		}
	}
	return catalogue.Text(w.app.Language(), tSendFailed)
}

// drawChannelEmpty shows what an empty channel says (its description, its members) over
// the conversation's area.
func (w *Widget) drawChannelEmpty(r window.Region) {
	if w.channel.Empty == nil || w.conv == nil || w.conv.Len() > 0 {
		return
	}
	_, H := r.Size()
	for y, l := range w.channel.Empty() {
		if y >= H {
			break
		}
		r.Line(y, " "+l.Text, l.Class)
	}
}
