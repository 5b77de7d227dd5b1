package window

import (
	"time"

	"github.com/gdamore/tcell/v2"
)

// KeyTrace, when set before Run, is told for each frame drawn after a key: when tcell made
// the first key's event from the terminal's bytes, when the loop took it, when the frame
// began to be drawn and when it had been handed to the terminal; and, of the loop's turn
// before the one that took the key, when it began, ended its posted work and ended its
// frame (LoopTurn). It is a developer's measuring hook (the binary built with -tags profile
// sets it); nil costs nothing.
var KeyTrace func(made, taken, drawing, shown time.Time, before LoopTurn)

// FrameTrace, when set before Run, is told of every frame's phases as they pass: its start,
// every cell painted (the layout of what streams included), the cells that changed handed
// to tcell (sent: how many), and tcell's writing them to the terminal. A developer's
// measuring hook, like KeyTrace: it takes its own clocks.
var FrameTrace func(phase FramePhase, sent int)

// FramePhase is a point of a frame FrameTrace is told of.
type FramePhase int

// The phases of a frame, in order.
const (
	FrameStart FramePhase = iota
	FramePainted
	FrameFlushed
	FrameShown
)

func traceFrame(phase FramePhase, sent int) {
	if FrameTrace != nil {
		FrameTrace(phase, sent)
	}
}

// LoopTurn is when a turn of the loop began, ended running posted work and ended drawing.
type LoopTurn struct{ Start, Posts, Drawn time.Time }

// keyTimes is what KeyTrace is told of the key waiting for its frame.
type keyTimes struct {
	made, taken time.Time
	before      LoopTurn
}

// traceKey notes a key's times, when KeyTrace is set and no earlier key waits for a frame.
func (a *App) traceKey(ev *tcell.EventKey) {
	if KeyTrace != nil && a.keyTimes.taken.IsZero() {
		a.keyTimes = keyTimes{made: ev.When(), taken: time.Now(), before: a.lastTurn}
	}
}

// traceTurn notes a phase of the loop's turn for KeyTrace: 0 its start, 1 the end of its
// posted work, 2 the end of its frame.
func (a *App) traceTurn(phase int) {
	if KeyTrace == nil {
		return
	}
	switch now := time.Now(); phase {
	case 0:
		a.turn = LoopTurn{Start: now}
	case 1:
		a.turn.Posts = now
	default:
		a.turn.Drawn = now
		a.lastTurn = a.turn
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
	KeyTrace(k.made, k.taken, drawing, time.Now(), k.before)
}
