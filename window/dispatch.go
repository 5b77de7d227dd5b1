package window

import "github.com/gdamore/tcell/v2"

// handleKey sends a key where it belongs: the top dialog takes every key; an open menu
// takes every key; then the manager's own keys; then the focused window's widget.
func (a *App) handleKey(k Key) {
	if d := a.topDialog(); d != nil {
		a.markDirty()
		d.handleEvent(k)
		return
	}
	if a.menu.open {
		a.markDirty()
		a.menuKey(k)
		return
	}
	if a.globalKey(k) {
		a.markDirty()
		return
	}
	w := a.Focused()
	if w == nil {
		return
	}
	// Taken by the focused window, the key changes it alone (what it changes elsewhere, it
	// says with Invalidate or Post): the next frame paints no other window.
	if w.widget.HandleEvent(k) {
		return
	}
	a.markDirty()
	if k.Is(Ctrl('w')) {
		w.Close()
	}
}

// globalKey handles the keys that work everywhere outside menus and dialogs.
func (a *App) globalKey(k Key) bool {
	if n, ok := k.WindowDigit(); ok {
		if n == 0 {
			a.ShowWindowList()
		} else {
			a.FocusNumber(n)
		}
		return true
	}
	switch {
	case k.Is(Named(KeyF10, 0)):
		a.openMenu(0)
	case k.Is(Named(KeyF6, 0)):
		a.FocusNext(1)
	case k.Is(Named(KeyF6, ModShift)):
		a.FocusNext(-1)
	case k.Is(Named(KeyF5, 0)):
		a.SetMaximised(!a.maximised)
	case k.Is(Named(KeyF3, ModAlt)):
		if w := a.Focused(); w != nil {
			w.Close()
		}
	case k.Is(Named(KeyF1, 0)):
		a.ShowKeys()
	case k.Code == KeyRune && k.Mod&^ModShift == ModAlt && a.openMnemonic(k.Rune):
	case a.shortcut(k):
	default:
		return false
	}
	return true
}

// openMnemonic opens the menu whose letter is r.
func (a *App) openMnemonic(r rune) bool {
	if i, ok := a.menuMnemonic(r); ok {
		a.openMenu(i)
		return true
	}
	return false
}

// handlePaste gives a whole paste to the top dialog or the focused widget.
func (a *App) handlePaste(text string) {
	if d := a.topDialog(); d != nil {
		d.handleEvent(Paste{text})
		return
	}
	if a.menu.open {
		return
	}
	if w := a.Focused(); w != nil {
		w.widget.HandleEvent(Paste{text})
	}
}

// handleMouse turns tcell's button states into presses, drags, releases and wheel steps,
// and sends them where the pointer is.
func (a *App) handleMouse(ev *tcell.EventMouse) {
	x, y := ev.Position()
	btn := ev.Buttons()
	mod := modFromTcell(ev.Modifiers())
	was := a.buttons
	a.buttons = btn & (tcell.Button1 | tcell.Button2 | tcell.Button3)
	if a.tooSmall {
		return
	}
	switch {
	case btn&tcell.WheelUp != 0:
		a.wheel(x, y, MouseWheelUp, mod)
	case btn&tcell.WheelDown != 0:
		a.wheel(x, y, MouseWheelDown, mod)
	case btn&tcell.Button1 != 0 && was&tcell.Button1 == 0:
		a.click(x, y, mod)
	case btn&tcell.Button1 != 0:
		a.toTarget(x, y, MouseDrag, mod)
	case was&tcell.Button1 != 0:
		a.toTarget(x, y, MouseRelease, mod)
	}
}

// wheel scrolls what is under the pointer, focused or not.
func (a *App) wheel(x, y int, action MouseAction, mod Mod) {
	if d := a.topDialog(); d != nil {
		if d.rect.Contains(x, y) {
			d.handleMouse(x, y, action)
		}
		return
	}
	if a.menu.open {
		return
	}
	if w := a.windowAt(x, y); w != nil {
		w.widget.HandleEvent(Mouse{X: x - w.rect.X - 1, Y: y - w.rect.Y - 1, Action: action, Mod: mod})
	}
}

// click handles a press of the first button.
func (a *App) click(x, y int, mod Mod) {
	a.mouseTarget = nil
	if d := a.topDialog(); d != nil {
		if d.rect.Contains(x, y) {
			d.handleMouse(x, y, MousePress)
		}
		return
	}
	if a.menu.open {
		if i, ok := a.menuItemAt(x, y); ok {
			a.runMenuItem(i)
			return
		}
		if i, ok := a.barTitleAt(x, y); ok && i != a.menu.index {
			a.openMenu(i)
			return
		}
		a.closeMenu()
		return
	}
	if i, ok := a.barTitleAt(x, y); ok {
		a.openMenu(i)
		return
	}
	for _, h := range a.status.hints {
		if h.rect.Contains(x, y) {
			a.handleKey(h.key)
			return
		}
	}
	w := a.windowAt(x, y)
	if w == nil {
		return
	}
	switch {
	case w.closeButton(x, y):
		w.Close()
	case w.zoomButton(x, y):
		w.Focus()
		a.SetMaximised(!a.maximised)
	default:
		w.Focus()
		inner := Rect{w.rect.X + 1, w.rect.Y + 1, w.rect.W - 2, w.rect.H - 2}
		if inner.Contains(x, y) {
			a.mouseTarget = w
			w.widget.HandleEvent(Mouse{X: x - inner.X, Y: y - inner.Y, Action: MousePress, Mod: mod})
		}
	}
}

// toTarget sends a drag or a release to the window where the press happened.
func (a *App) toTarget(x, y int, action MouseAction, mod Mod) {
	w := a.mouseTarget
	if action == MouseRelease {
		a.mouseTarget = nil
	}
	if w == nil || w.closed || w.rect.Empty() {
		return
	}
	w.widget.HandleEvent(Mouse{X: x - w.rect.X - 1, Y: y - w.rect.Y - 1, Action: action, Mod: mod})
}

// barTitleAt returns the menu whose title is at (x, y) on the menu bar.
func (a *App) barTitleAt(x, y int) (int, bool) {
	for i, r := range a.menu.bar {
		if r.Contains(x, y) {
			return i, true
		}
	}
	return 0, false
}
