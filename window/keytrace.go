package window

import (
	"time"

	"github.com/gdamore/tcell/v2"
)

// KeyTrace, when set before Run, is told for each frame drawn after a key: when tcell made
// the first key's event from the terminal's bytes, when the loop took it, when the frame
// began to be drawn and when it had been handed to the terminal. It is a developer's
// measuring hook (the binary built with -tags profile sets it); nil costs nothing.
var KeyTrace func(made, taken, drawing, shown time.Time)

// keyTimes is what KeyTrace is told of the key waiting for its frame.
type keyTimes struct{ made, taken time.Time }

// traceKey notes a key's times, when KeyTrace is set and no earlier key waits for a frame.
func (a *App) traceKey(ev *tcell.EventKey) {
	if KeyTrace != nil && a.keyTimes.taken.IsZero() {
		a.keyTimes = keyTimes{made: ev.When(), taken: time.Now()}
	}
}

// drawTraced draws a frame, and tells KeyTrace about the key that waited for it.
func (a *App) drawTraced() {
	if KeyTrace == nil || a.keyTimes.taken.IsZero() {
		a.draw()
		return
	}
	k, drawing := a.keyTimes, time.Now()
	a.keyTimes = keyTimes{}
	a.draw()
	KeyTrace(k.made, k.taken, drawing, time.Now())
}
