package chatwin

import (
	"git.rickub.com/bots-garden/sidekicks/window"
	"git.rickub.com/bots-garden/sidekicks/window/convo"
)

// wheelRows is how far a step of the wheel scrolls.
const wheelRows = 3

// convCursor is the cursor and the selection in the conversation, held as anchors so that
// they stay on their lines when the window is resized or older history is loaded above.
type convCursor struct {
	at    convo.Anchor
	atEnd bool // the cursor is on the last row and follows it
	selOn bool
	sel   convo.Anchor // where the selection started; it runs to the cursor
	drag  bool         // button 1 is down in the conversation

	// The last frame: the row number of the first row drawn, the y it was drawn at, and
	// how many were drawn.
	top, y0, n int
}

// curRow returns the cursor's row.
func (w *Widget) curRow() int {
	if w.view == nil {
		return 0
	}
	total := w.view.Total()
	if total == 0 {
		return 0
	}
	if w.cur.atEnd {
		return total - 1
	}
	return min(w.view.RowOf(w.cur.at), total-1)
}

// setCursor puts the cursor on row (clamped) and scrolls it into view.
func (w *Widget) setCursor(row int) {
	total := w.view.Total()
	row = max(min(row, total-1), 0)
	if row >= total-1 {
		w.cur.atEnd = true
		w.view.ScrollToBottom()
	} else {
		w.cur.atEnd = false
		w.cur.at = w.view.AnchorAt(row)
		w.view.ScrollToShow(row)
	}
	if row == 0 || w.view.Top() == 0 {
		w.loadOlder()
	}
}

// selection returns the selected rows, first and last.
func (w *Widget) selection() (int, int) {
	a, b := w.view.RowOf(w.cur.sel), w.curRow()
	if a > b {
		a, b = b, a
	}
	return a, b
}

// moveCursor moves the cursor by d rows; extend makes the selection follow (Shift).
func (w *Widget) moveCursor(d int, extend bool) {
	row := w.curRow()
	if extend && !w.cur.selOn {
		w.cur.selOn = true
		w.cur.sel = w.view.AnchorAt(row)
	} else if !extend {
		w.cur.selOn = false
	}
	w.setCursor(row + d)
}

// page is how far PgUp and PgDn move: a screen, less a row kept for context.
func (w *Widget) page() int { return max(w.convH-1, 1) }

// conversationKey handles a key with the conversation in front.
func (w *Widget) conversationKey(k window.Key) bool {
	if w.view == nil {
		return false
	}
	shift := k.Mod&window.ModShift != 0
	plain := k.Mod&^window.ModShift == 0
	if !plain {
		return false
	}
	w.homing = false // another move ends Home's
	switch k.Code {
	case window.KeyUp:
		w.moveCursor(-1, shift)
	case window.KeyDown:
		w.moveCursor(1, shift)
	case window.KeyPgUp:
		w.moveCursor(-w.page(), shift)
	case window.KeyPgDn:
		w.moveCursor(w.page(), shift)
	case window.KeyHome:
		w.moveCursor(-w.curRow(), shift)
		w.homing = !w.olderDone
		return true
	case window.KeyEnd:
		w.moveCursor(w.view.Total(), shift)
	default:
		return false
	}
	return true
}

// homeStep goes on with Home: while the history has pages before the first entry held, it
// reads them, one at a time (loadOlder, as the cursor on the first row does), and puts the
// cursor on the first row again once each is read, so Home ends on the conversation's
// first entry. It runs at each frame, after the view read the conversation; another move
// of the cursor stops it.
func (w *Widget) homeStep() {
	if !w.homing || w.olderLoading || w.view == nil {
		return
	}
	w.setCursor(0) // loads the page before, when there is one
	if w.olderDone {
		w.homing = false
	}
}

// scroll moves the viewport by n rows, the cursor staying where it is.
func (w *Widget) scroll(n int) {
	if w.view == nil {
		return
	}
	w.view.ScrollBy(n)
	if n < 0 && w.view.Top() == 0 {
		w.loadOlder()
	}
}

// rowAt returns the conversation's row drawn at y, clamped to the rows on screen; false
// when there is none.
func (w *Widget) rowAt(y int) (int, bool) {
	c := &w.cur
	if w.view == nil || c.n == 0 {
		return 0, false
	}
	i := min(max(y-c.y0, 0), c.n-1)
	return c.top + i, true
}

// conversationMouse handles the mouse over the conversation: a press places the cursor
// (with Shift, extends the selection to it), a drag selects, the wheel scrolls.
func (w *Widget) conversationMouse(m window.Mouse) bool {
	c := &w.cur
	switch m.Action {
	case window.MouseWheelUp:
		w.homing = false
		w.scroll(-wheelRows)
	case window.MouseWheelDown:
		w.scroll(wheelRows)
	case window.MousePress:
		w.homing = false
		w.focus = areaConversation
		row, ok := w.rowAt(m.Y)
		if !ok {
			return true
		}
		if m.Mod&window.ModShift != 0 {
			if !c.selOn {
				c.selOn, c.sel = true, w.view.AnchorAt(w.curRow())
			}
		} else {
			c.selOn = false
			c.sel = w.view.AnchorAt(row)
		}
		c.drag = true
		w.setCursor(row)
		if m.Mod&window.ModShift == 0 && w.view.FoldAt(row) {
			w.view.ToggleFold(row)
		}
	case window.MouseDrag:
		if !c.drag {
			return false
		}
		switch {
		case m.Y < c.y0:
			w.scroll(-1)
		case m.Y >= w.convH:
			w.scroll(1)
		}
		row, ok := w.rowAt(m.Y)
		if !ok {
			return true
		}
		c.selOn = true
		w.setCursor(row)
	case window.MouseRelease:
		c.drag = false
	}
	return true
}

// loadOlder asks the service for the page of history before the first entry shown, once
// at a time, until there is none.
func (w *Widget) loadOlder() {
	if w.olderLoading || w.olderDone || w.closed {
		return
	}
	w.olderLoading = true
	w.calls.Do(func() {
		n, err := w.svc.LoadOlder(w.key)
		w.app.Post(func() {
			w.olderLoading = false
			if err != nil {
				w.opts.Logf("loading older history of %s: %v", w.key, err)
				w.app.Flash(catalogue.Text(w.app.Language(), tHistoryFailed))
			}
			if n == 0 || err != nil {
				w.olderDone = true
			}
		})
	})
}
