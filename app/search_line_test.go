package app

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"github.com/gdamore/tcell/v2"
)

// A hit on line 2,999 of a 3,000-line entry opens the window at that line, the folded entry
// unfolded, not at the entry's first line.
func TestSearchOpensAtMatchingLine(t *testing.T) {
	dir := appEnv(t)
	path, st, conv := aliceHistory(t, dir)
	var b strings.Builder
	for i := 1; i <= 3000; i++ {
		if i == 2999 {
			b.WriteString("the wombat digs here\n")
			continue
		}
		fmt.Fprintf(&b, "pasted line %d\n", i)
	}
	at := time.Date(2026, 2, 3, 8, 0, 0, 0, time.Local)
	if _, err := st.SaveEntry(conv, chat.Entry{Kind: chat.KindUser, Text: b.String(), Created: at, Updated: at, Done: true}); err != nil {
		t.Fatal(err)
	}
	st.Close()

	h := startApp(t, path, dir)
	openSearch(h, "wombat")
	h.waitText("1 found, newest first.")
	h.press(tcell.KeyEnter)
	s := h.waitScreen("alice's window at the matching line", func(s string) bool {
		return strings.Contains(h.focusedTitle(), "Alice") && !strings.Contains(s, "Search history") &&
			strings.Contains(s, "the wombat digs here")
	})
	if !strings.Contains(s, "pasted line 2998") {
		t.Errorf("the lines around the match are not shown:\n%s", s)
	}
	h.quit()
}
