package window

import "time"

// draw paints one whole frame: the menu bar, the windows, the dialogs, an open menu, the
// status bar, then shows it. Every cell is painted once by its owner, so a cell that did
// not change is not sent to the terminal again.
func (a *App) draw() {
	traceFrame(FrameStart, 0)
	a.frames++
	a.frameStart = time.Now()
	W, H := a.screen.Size()
	a.cursor = cursorState{}
	gen, flow := a.gen.Load(), a.flow.Load()
	fresh := a.canvas.frame(a.screen, W, H, a.needSync)
	screen := Region{screen: a.screen, cv: &a.canvas, origin: Rect{0, 0, W, H}, clip: Rect{0, 0, W, H}, theme: a.theme, cursor: &a.cursor}
	a.tooSmall = W < MinScreenWidth || H < MinScreenHeight
	// focusedOnly: only the focused window changed (a key it took), or what streams in,
	// which a frame drawn for a key leaves to the next frame drawn for it.
	focusedOnly := !a.tooSmall && !fresh && gen == a.paintedGen && (a.inputFrame || flow == a.paintedFlow) &&
		len(a.dialogs) == 0 && !a.menu.open
	a.canvas.hold = a.canvas.hold[:0]
	if a.tooSmall {
		a.drawTooSmall(screen, W, H)
	} else {
		a.desktop = Rect{0, 1, W, H - 2}
		a.layoutWindows()
		a.drawMenuBar(screen.Sub(0, 0, W, 1))
		a.drawDesktop(screen)
		var focusRect Rect
		if f := a.Focused(); f != nil {
			focusRect = f.rect
		}
		n := len(a.windows)
		from := 0
		if !a.inputFrame && n > 0 {
			from = a.flowFrom % n
		}
		for k := range n {
			i := (from + k) % n
			w := a.windows[i]
			if k > 0 && a.yieldFrame() { // a frame for the stream paints one window at least
				a.gaveWay(i)
				return
			}
			if w.rect.Empty() {
				continue
			}
			if focusedOnly && i != a.focus && w.rect == w.painted && w.rect.Intersect(focusRect).Empty() {
				// As the last frame that painted it left it: the canvas still holds its
				// cells, and what a frame that gave way painted of it waits for the next.
				a.canvas.hold = append(a.canvas.hold, w.rect)
				continue
			}
			a.drawWindow(screen, w, i == a.focus)
			w.painted = w.rect
		}
		if n > 0 && a.yieldFrame() {
			a.gaveWay(from)
			return
		}
		if len(a.dialogs) > 0 || a.menu.open {
			a.cursor = cursorState{}
		}
		for _, d := range a.dialogs {
			d.draw(a, screen)
		}
		a.drawMenu(screen)
		a.drawStatus(screen.Sub(0, H-1, W, 1))
	}
	traceFrame(FramePainted, 0)
	sent := a.canvas.flush()
	traceFrame(FrameFlushed, sent)
	if a.cursor.visible {
		a.screen.ShowCursor(a.cursor.x, a.cursor.y)
	} else {
		a.screen.HideCursor()
	}
	if a.needSync {
		a.needSync = false
		a.sync()
	} else {
		a.show()
	}
	a.paintedGen = gen
	if !focusedOnly && !a.inputFrame {
		a.paintedFlow, a.lastFlow, a.flowFrom = flow, a.frameStart, 0
	}
	if a.paintedFlow != a.flow.Load() {
		// What streams in changed since the last frame drawn for it (or during this one):
		// the next one is due, at its pace (maybeDraw).
		a.dirty.Store(true)
		a.signal()
	}
	traceFrame(FrameShown, 0)
	a.scheduleTimers()
}

// sync sends the terminal the whole frame after a resize: the termWriter clears the screen
// and writes every cell where it can, else tcell's Sync. tcell's Sync drew the 12,000 cells
// of a 200×60 screen in 3–6 ms in tmux, most of the first key's wait after a resize. After
// Suspend, tcell's own Sync (it takes the terminal back as it left it).
func (a *App) sync() {
	if !a.tcellSync && a.term.redraw(&a.canvas, a.cursor) {
		return
	}
	a.tcellSync = false
	a.screen.Sync()
	a.term.drawn()
}

// gaveWay notes a frame that stopped before window i to let an event through (yieldFrame
// is false in a frame drawn for input): the next frame paints every window again, starting
// with i, and is paced from this one.
func (a *App) gaveWay(i int) {
	a.dirty.Store(true)
	a.flowFrom, a.lastFlow = i, a.frameStart
}

// yieldFrame reports whether the frame being drawn gives way to an event that arrived
// meanwhile: a frame that is not one for the user's input (an agent's text, a spinner)
// stops between two windows, once it has painted one, as soon as a key (or any event) waits
// in tcell's queue, before anything of it is shown, and the loop handles the event and draws the frame for it, with
// what this one laid out. So a key typed while another window lays out a flood waits for
// that window's painting, not for the whole frame's (the other windows, tcell's writing).
// Every frame paints every cell, so the next one puts right what this one left half done.
// A frame a caller waits for (Drawn) never gives way.
func (a *App) yieldFrame() bool {
	return !a.inputFrame && len(a.syncs) == 0 && !a.needSync && len(a.events) > 0
}

// scheduleTimers wakes the loop for the next spinner step while a spinner turns, and
// when the status message ends; no ticker runs when nothing moves.
func (a *App) scheduleTimers() {
	if a.anyBusy() || a.waiting() {
		now := time.Now()
		a.wakeAt(now.Truncate(spinnerStep).Add(spinnerStep))
	}
	if !a.status.until.IsZero() {
		if left := a.status.until.Sub(a.now()); left > 0 {
			a.wakeAt(time.Now().Add(left))
		} else {
			a.status.message, a.status.until = "", time.Time{}
		}
	}
}

// drawDesktop paints the desktop where no window is: all of it with no window open.
func (a *App) drawDesktop(screen Region) {
	if len(a.windows) > 0 {
		return
	}
	d := screen.Sub(a.desktop.X, a.desktop.Y, a.desktop.W, a.desktop.H)
	text := a.T(LabelNoWindow)
	if a.builtin.desktop != nil {
		text = a.builtin.desktop()
	}
	rows := wrap(text, a.desktop.W)
	centred(d, rows, ClassDesktop)
}

// centred paints all of r with rows of text centred in it, each cell once.
func centred(r Region, rows []string, c Class) {
	W, H := r.Size()
	top := max((H-len(rows))/2, 0)
	st := r.style(c)
	for y := 0; y < H; y++ {
		text := ""
		if i := y - top; i >= 0 && i < len(rows) {
			text = rows[i]
		}
		left := max((W-TextWidth(text))/2, 0)
		r.spaces(0, y, left, st)
		n := r.text(left, y, text, st)
		r.spaces(left+n, y, W-left-n, st)
	}
}

// drawTooSmall says the terminal is too small instead of drawing a broken screen.
func (a *App) drawTooSmall(screen Region, W, H int) {
	centred(screen, wrap(a.labels.Tf(LabelTooSmall, W, H, MinScreenWidth, MinScreenHeight), W), ClassDesktop)
}
