package workbench

import (
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"github.com/gdamore/tcell/v2"
)

// The keys the actions list shows run their action there, as in the panel: the list has
// no filter for them to fall into.
func TestPanelActionsListKeysRunTheActions(t *testing.T) {
	s := newPanelSetup(t, i18n.English, false)
	h := s.h
	s.selectAgent("alice")
	h.typeText("s")
	waitState(t, s.sup, "alice", runtime.Ready)

	h.press(tcell.KeyEnter)
	f := h.waitText("— actions", "■ Stop", "x")
	if list := dialogText(f, "— actions"); strings.Contains(list, "Filter") {
		t.Errorf("the actions list has a filter:\n%s", list)
	}
	h.typeText("x")
	h.waitGone("— actions")
	waitState(t, s.sup, "alice", runtime.Stopped)
}
