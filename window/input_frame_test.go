package window_test

import (
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	. "git.rickub.com/bots-garden/sidekicks/window"
)

// TestInputDrawnAtOnce checks that the frame after a key, a paste, a click or a resize is
// drawn at once, while a redraw asked by another goroutine still waits for the frame's
// time: typing while a stream redraws, or within 16 ms of the last key, is never shown late.
func TestInputDrawnAtOnce(t *testing.T) {
	for _, tc := range []struct {
		name  string
		input func(h *harness)
	}{
		{"key", func(h *harness) { h.sim.InjectKey(tcell.KeyRune, 'x', tcell.ModNone) }},
		{"paste", func(h *harness) {
			h.sim.PostEventWait(tcell.NewEventPaste(true))
			h.sim.InjectKey(tcell.KeyRune, 'y', tcell.ModNone)
			h.sim.PostEventWait(tcell.NewEventPaste(false))
		}},
		{"click", func(h *harness) { h.sim.InjectMouse(5, 5, tcell.Button1, tcell.ModNone) }},
		{"resize", func(h *harness) { h.sim.PostEventWait(tcell.NewEventResize(70, 20)) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 80, 24)
			h.addWindows(1)
			// frames reads through posted work, which asks for no frame at once either.
			frames := func() (n uint64) {
				h.Post(func() { n = FramesDrawn(h.app) })
				return n
			}
			// The next frame is due in an hour: a redraw asked now waits.
			h.Post(func() { HoldFrames(h.app, time.Hour) })
			before := frames()
			h.app.Invalidate()
			if n := frames(); n != before {
				t.Fatalf("%d frames drawn for a redraw asked within the frame's time", n-before)
			}
			tc.input(h)
			select {
			case <-h.app.Idle():
			case <-time.After(10 * time.Second):
				t.Fatal("the frame after the input was held back")
			}
			if n := frames(); n == before {
				t.Fatal("no frame drawn after the input")
			}
		})
	}
}
