package window

import (
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// TestTypingAfterInput: Typing holds right after a key, a paste or the mouse, and not once
// typingWindow has passed since the last.
func TestTypingAfterInput(t *testing.T) {
	sim := tcell.NewSimulationScreen("UTF-8")
	if err := sim.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sim.Fini)
	a, err := New(Options{Screen: sim})
	if err != nil {
		t.Fatal(err)
	}
	if a.Typing() {
		t.Fatal("Typing before any input")
	}
	for _, ev := range []tcell.Event{
		tcell.NewEventKey(tcell.KeyRune, 'k', tcell.ModNone),
		tcell.NewEventPaste(true),
		tcell.NewEventMouse(1, 1, tcell.ButtonNone, tcell.ModNone),
	} {
		a.lastInput = time.Now().Add(-typingWindow - time.Millisecond)
		if a.Typing() {
			t.Fatal("Typing once typingWindow has passed")
		}
		a.handle(ev)
		if !a.Typing() {
			t.Fatalf("not Typing right after %T", ev)
		}
	}
}
