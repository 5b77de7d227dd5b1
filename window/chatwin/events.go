package chatwin

import (
	"strings"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// HandleEvent handles a key, a paste or the mouse: first the keys of the whole window,
// then those of the area in front.
func (w *Widget) HandleEvent(ev window.Event) bool {
	if w.closed {
		return false
	}
	switch ev := ev.(type) {
	case window.Paste:
		w.perm.lastKey = w.app.Now() // typing, even pasted, is not an answer
		if w.find.open {
			w.findPaste(ev.Text)
			return true
		}
		w.focus = areaInput
		w.input.insert(ev.Text)
		w.complete()
		return true
	case window.Mouse:
		return w.mouse(ev)
	case window.Key:
		return w.handleKey(ev)
	}
	return false
}

// handleKey handles a key. The open completion list takes its keys first; then come the keys of
// the whole window (send, copy, Esc, Ctrl-W, Tab), then the area's own.
func (w *Widget) handleKey(k window.Key) bool {
	if w.requestKey(k) {
		return true
	}
	if w.find.open && w.findKey(k) {
		return true
	}
	if w.focus == areaInput && w.list.visible() && w.listKey(k) {
		return true
	}
	switch {
	case k.Is(window.Ctrl('f')):
		w.openFind()
	case k.Is(window.Named(window.KeyEnter, 0)) && w.focus == areaConversation && w.toggleFoldAtCursor():
	case k.Is(window.Named(window.KeyEnter, 0)):
		w.send()
	case k.Code == window.KeyEnter || k.Is(window.Ctrl('j')):
		// Alt-Enter in every form a terminal sends it, and Enter with another modifier.
		w.focus = areaInput
		w.input.insert("\n")
		w.complete()
	case k.Is(window.Named(window.KeyTab, 0)) || k.Is(window.Named(window.KeyBacktab, 0)):
		w.toggleFocus()
	case k.Is(window.Ctrl('c')) || k.Is(window.Named(window.KeyInsert, window.ModCtrl)):
		w.copy()
	case k.Is(window.Named(window.KeyInsert, window.ModShift)):
		w.focus = areaInput
		w.input.insert(w.app.Clipboard())
		w.complete()
	case k.Is(window.Named(window.KeyEsc, 0)):
		w.escape()
	case k.Is(killKey):
		w.killCommands()
	case k.Is(window.Ctrl('w')):
		w.Closed()
		if w.win == nil {
			return false // the manager closes the window it does not know
		}
		w.win.Close()
	case w.focus == areaConversation:
		if w.conversationKey(k) {
			return true
		}
		if k.Printable() {
			// Typing in the conversation types in the input.
			w.focus = areaInput
			return w.inputKey(k)
		}
		return false
	default:
		return w.inputKey(k)
	}
	return true
}

// toggleFocus moves the keyboard between the input and the conversation.
func (w *Widget) toggleFocus() {
	if w.focus == areaInput && w.view != nil {
		w.focus = areaConversation
		if w.cur.atEnd {
			w.view.ScrollToBottom()
		}
		return
	}
	w.focus = areaInput
}

// escape drops the selection; without one, it cancels the turn in progress (noting when);
// once the agent has ignored the cancel for StuckAfter and the window has said so, it ends
// the turn and stops the agent; without a turn (or while it is being cancelled), it
// withdraws the last queued message, put back in the input when the input is empty.
func (w *Widget) escape() {
	switch {
	case w.cur.selOn:
		w.cur.selOn = false
	case w.turnBusy() && !w.cancelling():
		w.noteCancels(true)
		w.calls.Do(func() { w.svc.Cancel(w.key) })
	case w.stopStuck():
	default:
		q := w.svc.Queued(w.key)
		if len(q) == 0 {
			return
		}
		i := len(q) - 1
		w.calls.Do(func() {
			text, ok := w.svc.Unqueue(w.key, i)
			if ok {
				w.app.Post(func() {
					if w.input.text == "" {
						w.input.set(text)
						w.complete()
					}
				})
			}
		})
	}
}

// cancelling reports whether the turn in progress is already being cancelled.
func (w *Widget) cancelling() bool {
	for _, t := range w.svc.Turns(w.key) {
		if t.Phase == chat.PhaseCancelling {
			return true
		}
	}
	return w.conv != nil && w.conv.State(w.agent.Name).Cancelling
}

// send sends what the input holds (nothing when it is blank) and empties it. While a turn
// is in progress the service queues it. The text goes as typed: the service turns the @
// mentions of known files into resource blocks.
func (w *Widget) send() {
	text := w.input.text
	if strings.TrimSpace(text) == "" {
		return
	}
	w.input.remember(text)
	w.input.set("")
	w.complete()
	w.focus = areaInput
	w.cur.selOn = false
	w.cur.atEnd = true
	if w.view != nil {
		w.view.ScrollToBottom()
	}
	w.calls.Do(func() {
		if err := w.svc.Send(w.key, text); err != nil {
			w.opts.Logf("sending in %s: %v", w.key, err)
			w.app.Post(func() {
				w.app.Flash(w.sendErrorText(err))
				if w.input.text == "" {
					w.input.set(text)
				}
			})
		}
	})
}

// copy copies the selection, or the region under the cursor, into Sidekicks' clipboard
// and the system's (OSC 52), and says how many lines it copied.
func (w *Widget) copy() {
	if w.view == nil {
		return
	}
	var text string
	var n int
	if w.cur.selOn {
		text, n = w.view.CopySelection(w.selection())
	} else {
		text, n = w.view.CopyRegion(w.curRow())
	}
	if n == 0 || text == "" {
		w.app.Flash(catalogue.Text(w.app.Language(), tNothingToCopy))
		return
	}
	w.app.SetClipboard(text)
	if n == 1 {
		w.app.Flash(catalogue.Text(w.app.Language(), tLinesCopiedOne))
	} else {
		w.app.Flash(catalogue.Text(w.app.Language(), tLinesCopied, n))
	}
}

// mouse sends a mouse event to the part of the window under it.
func (w *Widget) mouse(m window.Mouse) bool {
	if m.Action == window.MouseWheelUp || m.Action == window.MouseWheelDown {
		return w.conversationMouse(m)
	}
	if w.cur.drag && m.Action != window.MousePress {
		return w.conversationMouse(m)
	}
	if m.Action != window.MousePress {
		return false
	}
	switch {
	case w.listRect.contains(m.X, m.Y):
		w.list.sel = w.list.top + m.Y - w.listRect.y
		if w.list.ready() && w.list.sel < len(w.list.items) {
			w.take()
		}
	case m.Y >= w.inputTop:
		w.focus = areaInput
		rows := w.input.layout(inputWidth(w.width), maxInputRows)
		if i := w.inputScroll + m.Y - w.inputTop; i < len(rows) {
			w.input.cursor = w.input.offsetAt(rows[i], m.X)
		} else {
			w.input.cursor = len(w.input.text)
		}
		w.input.goal = -1
		w.complete()
	case m.Y < w.convH:
		return w.conversationMouse(m)
	}
	return true
}
