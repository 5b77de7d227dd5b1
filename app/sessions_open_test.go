package app

import (
	"context"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// Agent ▸ Sessions… marks the session open in the window; choosing it changes nothing and
// says so, and neither that nor a session that fails to open loses the window's session:
// Agent ▸ Session options… still finds it, and its title stays on the window's edge.
func TestAppSessionOpenHereStays(t *testing.T) {
	h, _, _ := signInApp(t, "sessions")
	h.sendGate("title First steps")
	h.waitText("gate — First steps")
	h.pick(h.ap.showSessions, "Sessions of gate", "Write")
	h.waitText("gate continues its session “Write the docs”", "gate — Write the docs")

	h.onUI(h.ap.showSessions)
	h.waitText("Sessions of gate", "(open here)")
	h.typeText("Write")
	h.press(tcell.KeyEnter)
	h.waitText("The session “Write the docs” is already the one open in this window")
	h.onUI(h.ap.sessionOptions)
	h.waitText("gate offers no mode and no option in this session")

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := h.ap.agents.ContinueSession(ctx, "gate", "no-such", ""); err == nil {
		t.Fatal("the agent continued a session it does not have")
	}
	if _, ok := h.ap.agents.SessionState(chat.AgentKey("gate"), "gate"); !ok {
		t.Fatal("a session that failed to open lost the window's session")
	}
	h.waitText("gate — Write the docs")
	h.sendGate("heard")
	h.waitText("heard: resumed past-2, closed sessions-1")
}
