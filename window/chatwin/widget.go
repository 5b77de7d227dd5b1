package chatwin

import (
	"strings"
	"sync/atomic"
	"time"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/jobs"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/window"
	"git.rickub.com/bots-garden/sidekicks/window/convo"
)

// AgentInfo is the agent a window talks to, from the configuration.
type AgentInfo struct {
	// Name is the agent's name: its entries' author, and its key in the conversation.
	Name string
	// Title and Icon label its replies (an emoji as is, else a letter in a coloured round).
	Title string
	Icon  string
	// Files lists what @ can mention (WalkWorkspace of the agent's workspace); nil lists
	// nothing and @ stays a character.
	Files Walker
	// State returns the agent's state in the supervisor, to tell a turn that waits for a
	// free slot from one whose agent is starting; nil when unknown. It is called on the
	// screen's goroutine and must not wait.
	State func() runtime.State
	// Started, when set, returns when the agent's process started while it is starting
	// (zero otherwise): the rule says for how long it has been starting.
	Started func() time.Time
}

// Options configure a Widget.
type Options struct {
	// ASCII draws plan and tool call marks with ASCII characters.
	ASCII bool
	// Logf receives problems the user need not read in full (the error behind "the
	// history could not be read"); nil discards them.
	Logf func(format string, args ...any)
	// Highlighter highlights the conversation's code blocks and keeps the results: the
	// application's, shared by all its windows. Nil gives the window one of its own.
	Highlighter *convo.Highlighter
	// StopAgent stops an agent that ignored session/cancel (Esc again, once StuckAfter has
	// passed); nil: Esc again only abandons the turn. It must not block.
	StopAgent func(agent string)
	// Requests is the board of the permission requests, shared with the conversations'
	// Permissions: the window shows its conversation's and answers them. Nil is the App's
	// (RequestsOf).
	Requests *Requests
	// HoldEntries is how many entries of the conversation the window holds in memory before
	// it lets those far above what it shows go (release.go); 0 is holdEntries.
	HoldEntries int
	// SessionLabel, when set, is what the rule shows of the agent's session after its
	// state (its model and mode); it must read memory only.
	SessionLabel func(agent string) string
}

// area is where the keyboard goes inside the window.
type area int

const (
	areaInput area = iota
	areaConversation
)

// Widget is the content of an agent window: the conversation above, the rule with the
// agent's state, the input below. It implements window.Widget, window.Hinter and
// window.Busy. Its methods run on the screen's goroutine, except where said.
type Widget struct {
	app   *window.App
	svc   Service
	key   chat.Key
	agent AgentInfo
	opts  Options
	// calls runs the window's calls to the service off the screen's goroutine, in the order
	// asked: a Send made before a Cancel reaches the service first.
	calls *jobs.Queue
	win   *window.Window
	// titleSuffix is the session's title as the window's title ends with it.
	titleSuffix string

	// Set once the service has opened the conversation.
	conv *chat.Conversation
	view *convo.View
	pace *paced // what the view reads of conv: new text a slice per frame
	// catching is set while catchUp is the loop's background work.
	catching bool
	openErr  bool

	focus area
	input *editor
	list  completion
	cur   convCursor
	find  finder // the find field (find.go)

	// The layout of the last frame: the widget's width, the conversation's height, the
	// first row of the input, the first line of the input shown, and where the completion
	// list is.
	width, convH, inputTop, inputScroll int
	listRect                            rect

	// What the last look at the conversation found (check).
	seenSaid uint64
	wasBusy  bool
	lastTurn int64

	olderLoading, olderDone bool
	homing                  bool // Home goes on to the first entry (homeStep)
	closed                  bool
	// cancels holds when each agent's turn was cancelled; offered, the turns whose agents
	// the window last offered to stop on Esc (stuck.go).
	cancels map[string]cancelMark
	offered map[string]int64

	pending atomic.Bool // a check is posted and has not run yet

	// perm is the permission request the window shows (permkeys.go).
	perm permView

	// channel is set in a channel's window (NewChannel, channel.go).
	channel *channelMode
}

var (
	_ window.Widget = (*Widget)(nil)
	_ window.Hinter = (*Widget)(nil)
	_ window.Busy   = (*Widget)(nil)
)

// rect is a rectangle of the widget's region.
type rect struct{ x, y, w, h int }

func (r rect) contains(x, y int) bool { return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h }

// New returns the content of the window of the conversation k with agent. It opens the
// conversation (with its history) on another goroutine; until then the window says so, and
// what is typed waits. Call it on the screen's goroutine, then give the window it is put
// in to SetWindow, and call Closed from that window's OnClose.
//
// The widget takes the conversation's change callback (Conversation.OnChange) for itself:
// it redraws, marks the window unread or wanting attention, and rings the bell from it.
func New(app *window.App, svc Service, key chat.Key, agent AgentInfo, opts Options) *Widget {
	if opts.Logf == nil {
		opts.Logf = func(string, ...any) {}
	}
	if opts.Requests == nil {
		opts.Requests = RequestsOf(app)
	}
	w := &Widget{app: app, svc: svc, key: key, agent: agent, opts: opts, calls: newCalls(app, key), input: newEditor()}
	w.cur.atEnd = true
	w.calls.Do(func() {
		conv, err := svc.Open(key)
		app.Post(func() { w.attach(conv, err) })
	})
	return w
}

// SetWindow gives the widget its window: the one it closes on Ctrl-W, marks when a turn
// ends or a permission is asked while it is not in front, and clears when it is.
func (w *Widget) SetWindow(win *window.Window) { w.win = win }

// Closed stops the conversation's turns and its sessions (Service.Close) once the window
// has closed, whichever way it was closed: the application calls it from the window's
// OnClose. Ctrl-W calls it too; a second call does nothing.
func (w *Widget) Closed() {
	if w.closed {
		return
	}
	w.closed = true
	if w.conv != nil {
		w.conv.OnChange(nil)
	}
	w.calls.Do(func() { w.svc.Close(w.key) })
}

// Conversation returns the conversation once the service has opened it, nil before.
func (w *Widget) Conversation() *chat.Conversation { return w.conv }

// attach shows the conversation the service opened.
func (w *Widget) attach(conv *chat.Conversation, err error) {
	if err != nil || conv == nil {
		w.openErr = true
		w.opts.Logf("opening the conversation %s: %v", w.key, err)
		return
	}
	if w.closed {
		return
	}
	w.conv = conv
	w.pace = newPaced(conv)
	w.view = convo.New(w.pace, convo.Options{
		Labels:      convo.LabelsFor(w.app.Language()),
		Speaker:     w.speaker,
		ASCII:       w.opts.ASCII,
		Wake:        w.app.Invalidate,
		Highlighter: w.opts.Highlighter,
	})
	w.view.SetFoldLabel(convo.FoldLabelFor(w.app.Language()))
	st := conv.State(w.agent.Name)
	w.wasBusy, w.lastTurn = st.Busy, st.Turn
	w.seenSaid = conv.Said()
	conv.OnChange(w.changed)
	w.check()
}

// speaker gives the agent's icon and title to its entries' labels.
func (w *Widget) speaker(author string) (string, string) {
	if w.channel != nil {
		return w.channelSpeaker(author)
	}
	if author == w.agent.Name {
		return w.agent.Icon, w.agent.Title
	}
	return "", ""
}

// changed is the conversation's change callback, on whatever goroutine changed it: a redraw
// request, and one look at what changed posted to the screen's goroutine (merged: a flood
// of chunks posts one at a time). Both are for what streams in: a frame drawn for a key
// typed meanwhile, in this window or another, shows the key and leaves the new text to the
// next frame drawn for it.
func (w *Widget) changed() {
	w.app.InvalidateFlow()
	if w.pending.CompareAndSwap(false, true) {
		w.app.PostFlow(w.check)
	}
}

// asking reports whether a request (a permission, a question) waits in the window.
func (w *Widget) asking() bool {
	if w.opts.Requests == nil {
		return false
	}
	r, _ := w.opts.Requests.Head(w.key)
	return r != nil
}

// check looks at what changed in the conversation: a turn being cancelled has its moment
// noted; a turn that ended in a window not in front marks it and rings the bell; new
// content (an entry added or changed, not the commands, the usage or a title) marks it
// unread; new commands refresh an open / list.
func (w *Widget) check() {
	w.pending.Store(false)
	if w.conv == nil || w.closed {
		return
	}
	w.noteCancels(false)
	st := w.conv.State(w.agent.Name)
	// A turn ended when the one seen busy is over or another has begun, or when a turn
	// began and ended between two looks.
	ended := w.wasBusy && (!st.Busy || st.Turn != w.lastTurn) || !st.Busy && st.Turn != w.lastTurn
	if w.channel != nil {
		ended = w.channelTurnEnded()
	}
	w.wasBusy, w.lastTurn = st.Busy, st.Turn
	front := w.win != nil && w.win.Focused()
	switch {
	case ended && w.win != nil && !front && !st.Cancelled: // a turn cancelled waits for nothing
		w.win.SetAttention(true)
		w.app.Bell()
	case front && w.win.Attention() && !w.asking():
		w.win.SetAttention(false) // a window in front is never marked for nothing
	}
	if said := w.conv.Said(); said != w.seenSaid {
		w.seenSaid = said
		if w.win != nil && !front {
			w.win.MarkUnread()
		}
	}
	// The commands may change, or come for the first time once / is typed (the session
	// opened with the window announces them a moment later).
	if w.list.kind == listCommands || w.list.kind == listNone && strings.HasPrefix(w.input.text, "/") {
		w.complete()
	}
}

// Busy reports whether a turn is in progress, or the agent is starting: the frame's
// spinner turns.
func (w *Widget) Busy() bool {
	return w.turnBusy() || !w.closed && w.agentState() == runtime.Starting
}

// turnBusy reports whether a turn of the conversation is in progress.
func (w *Widget) turnBusy() bool {
	if w.closed {
		return false
	}
	if w.svc.Busy(w.key) {
		return true
	}
	return w.conv != nil && w.conv.State(w.agent.Name).Busy
}

// agentState returns the agent's state in the supervisor, "" when unknown.
func (w *Widget) agentState() runtime.State {
	if w.agent.State == nil {
		return ""
	}
	return w.agent.State()
}

// commands returns what the agent announced.
func (w *Widget) commands() []chat.Command {
	if w.channel != nil {
		return w.channelCommands()
	}
	if w.conv == nil {
		return nil
	}
	return w.conv.Commands(w.agent.Name)
}
