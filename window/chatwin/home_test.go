package chatwin

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/store"
)

// Home in a conversation longer than what the window holds reads the older pages, one at
// a time, and ends on the very first entry: one press, however many pages there are.
func TestHomeGoesToTheFirstEntry(t *testing.T) {
	t.Parallel()
	st, err := store.Open(filepath.Join(t.TempDir(), "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	wd := newWorld(t, withHistory(storeHistory{st}, 4), withSize(60, 20))
	const turns = 9 // 18 entries: the last page and four before it
	for i := 1; i <= turns; i++ {
		wd.send(fmt.Sprintf("kiwi%d", i))
		wd.turnEnded()
	}
	w2 := wd.reopen()
	wd.waitText(fmt.Sprintf("kiwi%d", turns))
	wd.press(tcell.KeyTab)
	wd.press(tcell.KeyHome)
	wd.waitFor("the whole history", func() bool { return w2.olderDone && !w2.olderLoading && !w2.homing })
	wd.sync()
	rows := wd.rows()
	first := -1
	for y, r := range rows {
		if strings.Contains(r, "kiwi") {
			first = y
			break
		}
	}
	if first < 0 || !strings.Contains(rows[first], "kiwi1 ") && !strings.HasSuffix(strings.TrimRight(rows[first], " ║"), "kiwi1") {
		t.Fatalf("Home does not show the first entry:\n%s", wd.text())
	}
	if n := onUI(wd.harness, func() int { return w2.Conversation().Len() }); n != 2*turns {
		t.Fatalf("the window holds %d entries of %d", n, 2*turns)
	}
}

// reopen closes alice's window and opens another on her conversation, which reads it from
// the history again, and returns it.
func (wd *world) reopen() *Widget {
	wd.t.Helper()
	wd.ctrl('w')
	wd.settle(wd.w)
	var w2 *Widget
	wd.do(func() {
		w2 = New(wd.app, wd.svc, chat.AgentKey("alice"), AgentInfo{Name: "alice", Title: "Alice"}, Options{})
		win, err := wd.app.AddWindow("Alice", w2)
		if err != nil {
			wd.t.Fatal(err)
		}
		w2.SetWindow(win)
		win.OnClose(w2.Closed)
	})
	wd.settled(w2, "conversation", func() bool { return w2.Conversation() != nil })
	return w2
}
