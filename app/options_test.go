package app

import (
	"testing"

	"github.com/gdamore/tcell/v2"
)

// Agent ▸ Session options… lists the session's mode and options with their values; a
// value chosen is sent to the agent, and sent again after the agent restarted and
// reloaded the session (session/load).
func TestAppSessionOptions(t *testing.T) {
	h, _, _ := signInApp(t, "modes")
	h.onUI(h.ap.sessionOptions)
	h.waitText("gate has no session in this window yet: send a message first")
	h.sendGate("hi")
	h.waitText("now: ask sonnet", "─ Sonnet · Ask ─")

	h.onUI(h.ap.sessionOptions)
	h.waitText("Session options of gate", "Mode", "Ask", "Model", "Sonnet", "Extended thinking", "off")
	h.typeText("Model")
	h.press(tcell.KeyEnter)
	h.waitText("Claude ▸ Sonnet", "current", "Claude ▸ Opus — the largest")
	h.typeText("Opus")
	h.press(tcell.KeyEnter)
	h.waitText("gate: Model is now Opus")

	h.pick(h.ap.sessionOptions, "Session options of gate", "Extended")
	h.waitText("gate: Extended thinking is now on")

	h.pick(h.ap.sessionOptions, "Session options of gate", "Mode")
	h.waitText("Code — writes code")
	h.typeText("Plan")
	h.press(tcell.KeyEnter)
	h.waitText("gate: Mode is now Plan", "─ Opus · Plan ─")

	if err := h.ap.agents.Supervisor().Stop("gate"); err != nil {
		t.Fatal(err)
	}
	h.sendGate("after the restart")
	h.waitText("session/load", "session/set_mode plan", "session/set_config_option model=opus", "session/set_config_option think=true", "now: plan opus")
}
