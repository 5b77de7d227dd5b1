package app

import (
	"path/filepath"
	"testing"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

func TestAppCancelTurn(t *testing.T) {
	dir := appEnv(t)
	path := filepath.Join(dir, "c.yaml")
	// One word a second: the reply would last far longer than the test's deadline.
	writeFile(t, path, "version: 1\nagents:\n"+demoAgentYAMLDelay(t, "alice", "Alice", "A", "", "1s"))
	h := startApp(t, path, dir)
	h.onUI(func() { h.ap.openAgent("alice") })
	h.waitTitles("A Alice")
	// Nothing runs: Cancel turn is disabled, and says so when run anyway.
	var can bool
	h.onUI(func() { can = h.ap.canCancel() })
	if can {
		t.Fatal("Cancel turn is enabled with no turn running")
	}
	h.onUI(h.ap.cancelTurn)
	h.waitText("No turn is running here")

	svc := h.ap.agents.Service()
	if err := svc.Send(chat.AgentKey("alice"), "hello"); err != nil {
		t.Fatal(err)
	}
	h.waitText("the agent is working")
	h.onUI(func() { can = h.ap.canCancel() })
	if !can {
		t.Fatal("Cancel turn is disabled while alice answers")
	}
	h.alt('a')
	h.waitText("Cancel turn")
	h.typeText("c")
	h.waitText("alice: turn cancelled")
	if svc.Busy(chat.AgentKey("alice")) {
		t.Error("the turn still runs after Cancel turn")
	}
	h.press(tcell.KeyEscape)
}
