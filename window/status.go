package window

import "time"

// messageLife is how long a status message shows before the hints come back.
const messageLife = 4 * time.Second

// statusState is the status bar's message and where its hints were drawn.
type statusState struct {
	message string
	until   time.Time
	shown   bool // the message was drawn at least once
	hints   []hintSpot
}

type hintSpot struct {
	rect Rect
	key  Key
}

// Flash shows a message in the status bar ("3 lines copied") for a few seconds. A
// message that no frame has shown yet is not lost to the next: the two are shown
// together ("first · second"), so that two things said at the same moment are both read.
func (a *App) Flash(message string) {
	if a.status.message != "" && !a.status.shown && a.now().Before(a.status.until) && a.status.message != message {
		message = a.status.message + " · " + message
	}
	a.status.message = message
	a.status.until = a.now().Add(messageLife)
	a.status.shown = false
	a.markDirty()
}

// hints returns the keys that work in the focused place: an open menu, the top dialog,
// or the focused widget followed by the manager's own.
func (a *App) hints() []Hint {
	switch {
	case a.menu.open:
		return []Hint{{Keys: "↑↓", Label: LabelHintMove}, {Keys: "Enter", Label: LabelHintRun}, {Keys: "Esc", Label: LabelHintCancel}}
	case len(a.dialogs) > 0:
		return a.dialogs[len(a.dialogs)-1].hints()
	}
	var hs []Hint
	if w := a.Focused(); w != nil {
		if h, ok := w.widget.(Hinter); ok {
			hs = append(hs, h.Hints()...)
		}
	}
	f1, f10, f6, f5, altX := Named(KeyF1, 0), Named(KeyF10, 0), Named(KeyF6, 0), Named(KeyF5, 0), Alt('x')
	hs = append(hs, Hint{Keys: "F1", Label: LabelHintHelp, Key: &f1}, Hint{Keys: "F10", Label: LabelHintMenu, Key: &f10})
	if len(a.windows) > 1 {
		hs = append(hs, Hint{Keys: "F6", Label: LabelHintNext, Key: &f6})
	}
	if len(a.windows) > 0 {
		hs = append(hs, Hint{Keys: "F5", Label: LabelHintZoom, Key: &f5})
	}
	return append(hs, Hint{Keys: "Alt-X", Label: LabelHintQuit, Key: &altX})
}

// drawStatus draws the bottom row: the message while it lasts, the hints otherwise.
func (a *App) drawStatus(r Region) {
	W, _ := r.Size()
	bar := r.style(ClassStatusBar)
	a.status.hints = a.status.hints[:0]
	if a.status.message != "" && a.now().Before(a.status.until) {
		n := r.text(0, 0, " ", bar)
		n += r.text(n, 0, a.status.message, r.style(ClassStatusMessage))
		r.spaces(n, 0, W-n, bar)
		a.status.shown = true
		return
	}
	x := r.text(0, 0, " ", bar)
	for i, h := range a.hints() {
		if i > 0 {
			x += r.text(x, 0, "  ", bar)
		}
		start := x
		x += r.text(x, 0, h.Keys, r.style(ClassStatusKey))
		x += r.text(x, 0, " ", bar)
		text := h.Text
		if h.Label != labelNone {
			text = a.T(h.Label)
		}
		x += r.text(x, 0, text, bar)
		if h.Key != nil {
			a.status.hints = append(a.status.hints, hintSpot{Rect{r.origin.X + start, r.origin.Y, x - start, 1}, *h.Key})
		}
	}
	if x < W {
		r.spaces(x, 0, W-x, bar)
	}
}
