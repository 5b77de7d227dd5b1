package convo

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/window/markdown"
)

// TestLineSize pins what a line and a run weigh: a view holds a line for each line it has
// laid out (96 bytes a line before the classes were numbered and the raw text kept only
// when it differs from the text shown).
func TestLineSize(t *testing.T) {
	if got := unsafe.Sizeof(line{}); got > 48 {
		t.Errorf("a line takes %d bytes, more than 48", got)
	}
	if got := unsafe.Sizeof(run{}); got > 24 {
		t.Errorf("a run takes %d bytes, more than 24", got)
	}
}

// TestDoneEntryKeepsNoRoom streams a long reply in chunks (its slices grow by appending),
// ends it, then lays it out again at a narrower width: each time it is done, its lines, rows
// and line index are kept at their length, not at the capacity appending grew them to.
func TestDoneEntryKeepsNoRoom(t *testing.T) {
	var text strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&text, "line %05d of a reply, **bold** and `code` now and then %d\n", i, i%7)
	}
	v, _ := streamReply(text.String(), 997, func(*View, int) {})
	v.RowsAt(v.Top(), 20)
	ev := v.ents[0]
	if ev.renders != 1 {
		t.Fatalf("the reply was read whole %d times: it was not streamed", ev.renders)
	}
	checkFitted(t, "streamed, then done", ev)
	v.SetSize(30, 20) // more rows than lines: the rows grow past the lines' count
	v.RowsAt(v.Top(), 20)
	v.ensure(0)
	if ev.width != 30 || len(ev.rows) <= len(ev.lines) {
		t.Fatalf("width %d, %d rows for %d lines: not wrapped again at 30", ev.width, len(ev.rows), len(ev.lines))
	}
	checkFitted(t, "wrapped again", ev)
}

func checkFitted(t *testing.T, when string, ev *entryView) {
	t.Helper()
	for _, s := range []struct {
		name     string
		len, cap int
	}{{"lines", len(ev.lines), cap(ev.lines)}, {"rows", len(ev.rows), cap(ev.rows)}, {"lineRow", len(ev.lineRow), cap(ev.lineRow)}} {
		if s.len < 3000 {
			t.Errorf("%s: %d %s, fewer than the reply's 3000 lines", when, s.len, s.name)
		}
		if s.cap > s.len+s.len/16 {
			t.Errorf("%s: %s holds %d of room for %d", when, s.name, s.cap, s.len)
		}
	}
}

// TestClassNames checks that a class gives its name back, for the names the view knows and
// for one met for the first time by several goroutines at once (a Highlighter's results are
// read on its own goroutine).
func TestClassNames(t *testing.T) {
	for _, name := range []string{"", ClassText, ClassKeyword, ClassError, ClassAdded, IconClass(7),
		markdown.ClassLink, markdown.ClassMarker} {
		if got := classNamed(name).name(); got != name {
			t.Errorf("class of %q is named %q", name, got)
		}
	}
	if classNamed(ClassText) != classText {
		t.Errorf("ClassText is class %d, not %d", classNamed(ClassText), classText)
	}
	names := []string{"test.one", "test.two", "test.three", "test.four"}
	got := make([][]class, 8)
	var wg sync.WaitGroup
	for g := range got {
		wg.Go(func() {
			for _, n := range names {
				got[g] = append(got[g], classNamed(n))
			}
		})
	}
	wg.Wait()
	for g := range got {
		for i, c := range got[g] {
			if c != got[0][i] || c.name() != names[i] {
				t.Errorf("goroutine %d: %q is class %d named %q; goroutine 0 has %d", g, names[i], c, c.name(), got[0][i])
			}
		}
	}
}

// TestStreamingStateHoldsOpenLines streams a long reply: the Markdown state of the entry
// holds the lines of its open segment only, not every line again (the view holds those).
func TestStreamingStateHoldsOpenLines(t *testing.T) {
	var text strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&text, "line %05d of a reply, **bold** and `code`\n", i)
		if i%50 == 49 {
			text.WriteString("\n```zz\nfunc f() {}\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n")
		}
	}
	v, src := streamReply(text.String(), 1009, func(v *View, at int) {
		ev := v.ents[0]
		if held := len(ev.md.Lines()); held > 100 {
			t.Fatalf("at byte %d the Markdown state holds %d lines for the view's %d", at, held, len(ev.lines))
		}
	})
	if got, want := snapshot(t, v), freshSnapshot(t, src, 80); got != want {
		t.Errorf("the streamed reply is not laid out as read whole")
	}
}

// streamReply streams full as a reply, chunk bytes at a time, into a view 80 cells wide,
// calling each after each chunk is laid out and shown (at: the bytes streamed), then ends
// it.
func streamReply(full string, chunk int, each func(v *View, at int)) (*View, *fakeSource) {
	src := &fakeSource{}
	src.add(chat.Entry{Kind: chat.KindAgent, Author: "alice"})
	v := New(src, Options{})
	v.SetSize(80, 20)
	v.Sync()
	for n := chunk; n < len(full); n += chunk {
		src.set(0, chat.Entry{Kind: chat.KindAgent, Author: "alice", Text: full[:n]})
		v.Sync()
		v.RowsAt(v.Top(), 20)
		each(v, n)
	}
	src.set(0, chat.Entry{Kind: chat.KindAgent, Author: "alice", Text: full, Done: true})
	v.Sync()
	return v, src
}

// TestDoneReplyHoldsOnlyItsText streams a reply the way the conversation grows it (a
// buffer that is copied into one twice as large when full, each chunk's text a view of the
// buffer then, the final text a copy at its length): once it is done, every line's text and
// raw text that are parts of the reply point into its final text, so that no older buffer
// stays alive. Before, the lines kept them all: a long reply's text was held 3-4 times.
func TestDoneReplyHoldsOnlyItsText(t *testing.T) {
	var parts []string
	for i := range 2000 {
		switch i % 4 {
		case 0:
			parts = append(parts, fmt.Sprintf("plain line %05d of a long reply\n", i))
		case 1:
			parts = append(parts, fmt.Sprintf("a line with **bold** and `code` %d\n", i))
		case 2:
			parts = append(parts, fmt.Sprintf("## heading %d\n", i))
		default:
			parts = append(parts, fmt.Sprintf("- a point of a list %d\n", i))
		}
	}
	src := &fakeSource{}
	src.add(chat.Entry{Kind: chat.KindAgent, Author: "alice"})
	v := New(src, Options{})
	v.SetSize(80, 20)
	v.Sync()
	var b strings.Builder
	for i, p := range parts {
		b.WriteString(p)
		if i%7 == 0 {
			src.set(0, chat.Entry{Kind: chat.KindAgent, Author: "alice", Text: b.String()})
			v.Sync()
			v.RowsAt(v.Top(), 20)
		}
	}
	final := strings.Clone(b.String())
	src.set(0, chat.Entry{Kind: chat.KindAgent, Author: "alice", Text: final, Done: true})
	v.Sync()
	v.RowsAt(v.Top(), 20)
	ev := v.ents[0]
	if ev.renders != 1 {
		t.Fatalf("the reply was read whole %d times: it was not streamed", ev.renders)
	}
	start := uintptr(unsafe.Pointer(unsafe.StringData(final)))
	inFinal := func(s string) bool {
		p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		return p >= start && p+uintptr(len(s)) <= start+uintptr(len(final))
	}
	checked := 0
	for i := ev.nHead; i < ev.nHead+ev.nBody+ev.nProv; i++ {
		l := &ev.lines[i]
		raw := l.raw()
		if raw == "" {
			continue
		}
		checked++
		if !inFinal(raw) {
			t.Fatalf("line %d's raw text %q is in another buffer than the reply's final text", i, raw)
		}
		if strings.Contains(raw, l.text) && l.text != "" && !inFinal(l.text) {
			t.Fatalf("line %d's text %q, a part of its raw text, is in another buffer", i, l.text)
		}
	}
	if checked < 2000 {
		t.Fatalf("%d lines checked, fewer than the reply's", checked)
	}
}
