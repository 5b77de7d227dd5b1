package convo

import (
	"fmt"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// An entry taller than the layout's bound, read whole (a long message, a reply that came in
// one piece), is laid out once to be shown, its lines made at their count: laying it out,
// parking it at once because no frame had shown it yet, and laying it out again made the
// garbage of three layouts, which a process keeps as resident memory.
func TestLongEntryLaidOutOnce(t *testing.T) {
	var text strings.Builder
	const lines = keepLayout + keepLayout/4
	for i := range lines {
		fmt.Fprintf(&text, "line %08d of the memory test..\n", i)
	}
	c := chat.New(chat.Options{})
	c.AddUser(text.String())
	c.AddNotice("and after it")
	v := New(c, Options{})
	v.SetSize(100, 60)
	v.Sync()
	v.Frame()
	v.Sync()
	v.Frame()
	ev := v.ents[0]
	if ev.parked || ev.renders != 1 || ev.wraps != 1 {
		t.Fatalf("the entry was rendered %d times and wrapped %d (parked %v), want once", ev.renders, ev.wraps, ev.parked)
	}
	if len(ev.lines) < lines || cap(ev.lines) > len(ev.lines)+4 {
		t.Fatalf("%d lines with room for %d: grown rather than made at their count", len(ev.lines), cap(ev.lines))
	}
}
