package chatwin

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// TestNewTextLaidOutInSlices checks that text an agent sends between two frames reaches the
// view a slice per frame, so that no frame holds the screen for the layout of all of it,
// that the window draws the next frames by itself until the whole text is shown, and that
// the history a window opens on is read whole in its first frame.
func TestNewTextLaidOutInSlices(t *testing.T) {
	wd := newWorld(t, withSize(100, 30))
	wd.w.Conversation().Load(history(2000))
	wd.sync()
	rows := func() int { return onUI(wd.harness, func() int { return wd.w.view.Total() }) }
	opened := rows()
	if onUI(wd.harness, func() bool { return wd.w.pace.Behind() }) {
		t.Fatal("the history the window opened on was not read whole by its first frame")
	}
	wd.do(func() { wd.w.calls.Do(func() { _ = wd.svc.Send(chat.AgentKey("alice"), "/stream") }) })
	wd.started()
	t.Cleanup(func() { close(wd.agent.release) })
	h := wd.agent.handler()

	// 45,000 lines of 20 bytes in one chunk: about 28 frames' worth.
	const lines = 45_000
	var b strings.Builder
	for i := 0; i < lines; i++ {
		fmt.Fprintf(&b, "line %06d of text\n", i)
	}
	h.Chunk(chat.ChunkAgentMessage, b.String())
	if got := rows() - opened; got > lines/2 {
		t.Errorf("%d rows of %d laid out by the first frames after the chunk, want a slice", got, lines)
	}
	select {
	case <-wd.app.Idle():
	case <-time.After(deadline):
		t.Fatal("the window did not settle")
	}
	if got := onUI(wd.harness, func() int { return wd.w.view.Total() }) - opened; got < lines {
		t.Errorf("%d rows of %d once the window was idle: it stopped asking for frames", got, lines)
	}
	wd.waitText(fmt.Sprintf("line %06d of text", lines-1))
}
