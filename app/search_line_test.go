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
// unfolded, not at the entry's first line; so does one beyond the part of the entry the
// snippet is made from.
func TestSearchOpensAtMatchingLine(t *testing.T) {
	dir := appEnv(t)
	path, st, conv := aliceHistory(t, dir)
	// wombat is within the part of its entry the snippet reads, numbat beyond it.
	at := time.Date(2026, 2, 3, 8, 0, 0, 0, time.Local)
	for _, c := range []struct{ word, pad string }{{"wombat", ""}, {"numbat", strings.Repeat(" padding", 12)}} {
		var b strings.Builder
		for i := 1; i <= 3000; i++ {
			if i == 2999 {
				b.WriteString("the " + c.word + " digs here\n")
				continue
			}
			fmt.Fprintf(&b, "%s line %d%s\n", c.word[:3], i, c.pad)
		}
		if _, err := st.SaveEntry(conv, chat.Entry{Kind: chat.KindUser, Text: b.String(), Created: at, Updated: at, Done: true}); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()

	h := startApp(t, path, dir)
	for _, word := range []string{"wombat", "numbat"} {
		openSearch(h, word)
		h.waitText("1 found, newest first.")
		h.press(tcell.KeyEnter)
		s := h.waitScreen("alice's window at the line of "+word, func(s string) bool {
			return strings.Contains(h.focusedTitle(), "Alice") && !strings.Contains(s, "Search history") &&
				strings.Contains(s, "the "+word+" digs here")
		})
		if !strings.Contains(s, word[:3]+" line 2998") {
			t.Errorf("the lines around the match are not shown:\n%s", s)
		}
	}
	h.quit()
}
