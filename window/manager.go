package window

import (
	"errors"
	"fmt"
	"time"
)

// MaxWindows is how many windows can be open at once: one per Alt-digit.
const MaxWindows = 9

// ErrTooManyWindows is returned by AddWindow when MaxWindows are open.
var ErrTooManyWindows = errors.New("too many windows")

// Window is one tiled window: a frame with a title, a number, [x] and [■], around a
// widget. Its methods run on the UI goroutine.
type Window struct {
	app       *App
	title     string
	widget    Widget
	unread    bool
	attention bool
	busy      bool
	closed    bool
	onClose   func()
	rect      Rect // where the last frame drew it; empty when hidden
	// painted is where a frame last painted it: a frame that changes only the focused
	// window leaves it as it is there.
	painted Rect
	// focusedAt is when the window last took the keyboard from another one (the App's
	// clock).
	focusedAt time.Time
}

// AddWindow opens a window around w, focuses it and retiles. With MaxWindows open it
// says so in the status bar and returns ErrTooManyWindows.
func (a *App) AddWindow(title string, w Widget) (*Window, error) {
	if len(a.windows) >= MaxWindows {
		a.Flash(a.labels.Tf(LabelTooManyWindows, MaxWindows))
		return nil, fmt.Errorf("opening window %q: %w", title, ErrTooManyWindows)
	}
	win := &Window{app: a, title: title, widget: w}
	a.windows = append(a.windows, win)
	a.setFocus(len(a.windows) - 1)
	a.markDirty()
	return win, nil
}

// Windows returns the open windows in their order (window N is Windows()[N-1]).
func (a *App) Windows() []*Window { return append([]*Window(nil), a.windows...) }

// Focused returns the window that has the keyboard, nil when none is open.
func (a *App) Focused() *Window {
	if a.focus < 0 || a.focus >= len(a.windows) {
		return nil
	}
	return a.windows[a.focus]
}

// Maximised reports whether the focused window fills the desktop.
func (a *App) Maximised() bool { return a.maximised }

// SetMaximised maximises the focused window (true) or goes back to tiling (false).
func (a *App) SetMaximised(on bool) {
	a.maximised = on && len(a.windows) > 0
	a.markDirty()
}

// FocusNext moves the focus to the next window (delta 1) or the previous one (-1).
func (a *App) FocusNext(delta int) {
	n := len(a.windows)
	if n == 0 {
		return
	}
	a.setFocus(((a.focus+delta)%n + n) % n)
}

// FocusNumber focuses window n (1 for the first); it reports whether there is one.
func (a *App) FocusNumber(n int) bool {
	if n < 1 || n > len(a.windows) {
		return false
	}
	a.setFocus(n - 1)
	return true
}

func (a *App) setFocus(i int) {
	before := a.Focused()
	a.focus = i
	if w := a.Focused(); w != nil {
		w.unread = false
		if w != before {
			w.focusedAt = a.now()
		}
	}
	a.markDirty()
}

// Title returns the window's title.
func (w *Window) Title() string { return w.title }

// SetTitle changes the title (a renamed channel). The title is never animated.
func (w *Window) SetTitle(t string) {
	w.title = t
	w.app.markDirty()
}

// Widget returns what the window shows.
func (w *Window) Widget() Widget { return w.widget }

// Number returns the window's number (1 for the first), 0 once closed.
func (w *Window) Number() int {
	for i, o := range w.app.windows {
		if o == w {
			return i + 1
		}
	}
	return 0
}

// Focus gives the window the keyboard.
func (w *Window) Focus() {
	if n := w.Number(); n > 0 {
		w.app.setFocus(n - 1)
	}
}

// FocusedSince returns when the window last took the keyboard from another window (the
// App's clock): a widget that must not take keys meant for the window before it (a
// permission request) waits a moment from then.
func (w *Window) FocusedSince() time.Time { return w.focusedAt }

// Focused reports whether the window has the keyboard.
func (w *Window) Focused() bool { return !w.closed && w.app.Focused() == w }

// MarkUnread says the window got new content; unless it has the focus, its frame and the
// window list mark it until it is focused.
func (w *Window) MarkUnread() {
	if !w.Focused() && !w.closed && !w.unread {
		w.unread = true
		w.app.markDirty()
	}
}

// Unread reports whether the window has content not seen yet.
func (w *Window) Unread() bool { return w.unread }

// SetAttention marks the window as waiting for the user (a permission request) until
// cleared.
func (w *Window) SetAttention(on bool) {
	w.attention = on
	w.app.markDirty()
}

// Attention reports whether the window waits for the user.
func (w *Window) Attention() bool { return w.attention }

// SetBusy shows or hides the spinner on the frame, for a widget that does not implement
// Busy itself.
func (w *Window) SetBusy(on bool) {
	w.busy = on
	w.app.markDirty()
}

// Busy reports whether the window's spinner turns.
func (w *Window) Busy() bool {
	if b, ok := w.widget.(Busy); ok && b.Busy() {
		return true
	}
	return w.busy
}

// OnClose sets what runs when the window is closed (by [x], a key, the menu or Close).
func (w *Window) OnClose(f func()) { w.onClose = f }

// Close closes the window and retiles; the window before it takes the focus.
func (w *Window) Close() {
	a := w.app
	i := w.Number() - 1
	if i < 0 {
		return
	}
	a.windows = append(a.windows[:i], a.windows[i+1:]...)
	w.closed = true
	w.rect = Rect{}
	switch {
	case len(a.windows) == 0:
		a.focus = -1
		a.maximised = false
	case a.focus > i:
		a.setFocus(a.focus - 1)
	case a.focus == i:
		a.setFocus(max(i-1, 0))
	default:
		a.setFocus(a.focus)
	}
	a.markDirty()
	if w.onClose != nil {
		w.onClose()
	}
}

// layoutWindows gives each window its rectangle on the desktop: the tiling, or the
// focused window alone when maximised or when the tiles would be too small to use.
func (a *App) layoutWindows() {
	for _, w := range a.windows {
		w.rect = Rect{}
	}
	if len(a.windows) == 0 {
		return
	}
	rects, ok := Tile(len(a.windows), a.desktop)
	if a.maximised || !ok {
		a.windows[a.focus].rect = a.desktop
		return
	}
	for i, w := range a.windows {
		w.rect = rects[i]
	}
}

// windowAt returns the visible window holding the cell (x, y).
func (a *App) windowAt(x, y int) *Window {
	for _, w := range a.windows {
		if w.rect.Contains(x, y) {
			return w
		}
	}
	return nil
}

// anyBusy reports whether a visible window's spinner turns.
func (a *App) anyBusy() bool {
	for _, w := range a.windows {
		if !w.rect.Empty() && w.Busy() {
			return true
		}
	}
	return false
}
