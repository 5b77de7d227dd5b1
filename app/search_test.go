package app

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"github.com/gdamore/tcell/v2"
)

// Search history finds an entry of an agent's conversation that no window shows, two pages
// back in its history, and Enter opens the agent's window at it, the cursor on it.
func TestSearchOpensAgentWindowAtEntry(t *testing.T) {
	dir := appEnv(t)
	path, st, conv := aliceHistory(t, dir)
	at := time.Date(2026, 2, 3, 8, 0, 0, 0, time.Local)
	for i := 0; i < 2*chat.DefaultPageSize+20; i++ {
		text := fmt.Sprintf("line %d", i)
		if i == 3 {
			text = "A quokka smiles at the camera."
		}
		if _, err := st.SaveEntry(conv, chat.Entry{Kind: chat.KindUser, Text: text, Created: at, Updated: at, Done: true}); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()

	h := startApp(t, path, dir)
	h.alt('s')
	h.waitText("Search history…")
	h.typeText("s")
	h.waitText("Type words to find them in every conversation.")
	h.typeText("QUOK")
	s := h.waitText("1 found, newest first.")
	if !strings.Contains(s, "A Alice  2026-02-03 08:00  You") || !strings.Contains(s, "A quokka smiles at the camera.") {
		t.Fatalf("the hit:\n%s", s)
	}
	h.press(tcell.KeyEnter)
	h.waitScreen("alice's window at the entry", func(s string) bool {
		return strings.Contains(h.focusedTitle(), "Alice") && strings.Contains(s, "A quokka smiles at the camera.") &&
			!strings.Contains(s, "Search history")
	})
	var onEntry bool
	h.onUI(func() {
		w := h.ap.find(winAgent, 0, "alice")
		onEntry = w != nil && w.agentWin.widget.Conversation().Len() > 2*chat.DefaultPageSize
	})
	if !onEntry {
		t.Error("the older pages were not loaded")
	}
	// A word found nowhere.
	h.alt('s')
	h.typeText("s")
	h.typeText("zzyzx")
	h.waitText("Nothing found.")
}
