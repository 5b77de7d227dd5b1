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
		a.lastInput.Store(time.Now().Add(-typingWindow - time.Millisecond).UnixNano())
		if a.Typing() {
			t.Fatal("Typing once typingWindow has passed")
		}
		a.handle(ev)
		if !a.Typing() {
			t.Fatalf("not Typing right after %T", ev)
		}
	}
}

// TestReaderRestOnlyWhileTyping: an agent's reader rests twice its busy time while the
// user types, and not at all otherwise.
func TestReaderRestOnlyWhileTyping(t *testing.T) {
	a, err := New(Options{Screen: tcell.NewSimulationScreen("UTF-8")})
	if err != nil {
		t.Fatal(err)
	}
	if d := a.ReaderRest(time.Millisecond); d != 0 {
		t.Errorf("the reader rests %v before any input, want 0", d)
	}
	a.handle(tcell.NewEventKey(tcell.KeyRune, 'k', tcell.ModNone))
	if d := a.ReaderRest(time.Millisecond); d != 2*time.Millisecond {
		t.Errorf("the reader rests %v after 1 ms of work while the user types, want 2 ms", d)
	}
	if d := a.ReaderRest(5 * time.Second); d != maxReaderRest {
		t.Errorf("the reader rests %v after 5 s of work (a wait for a free slot among them), want %v", d, maxReaderRest)
	}
	a.lastInput.Store(time.Now().Add(-typingWindow - time.Millisecond).UnixNano())
	if d := a.ReaderRest(time.Millisecond); d != 0 {
		t.Errorf("the reader rests %v once the typing stopped, want 0", d)
	}
}
