package convo

import (
	"fmt"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

func manyEntries(n int) []chat.Entry {
	es := make([]chat.Entry, n)
	for i := range es {
		es[i] = agentEntry(fmt.Sprintf("entry %d says a few words that wrap at a narrow width", i))
		if i%2 == 0 {
			es[i] = chat.Entry{Kind: chat.KindUser, Text: fmt.Sprintf("question %d", i), Done: true}
		}
	}
	return es
}

func TestCacheByRev(t *testing.T) {
	v, src := viewOf(t, 30, manyEntries(6)...)
	if v.Sync() {
		t.Errorf("Sync reports a change when the conversation has none")
	}
	before := make([]int, len(v.ents))
	for i, ev := range v.ents {
		before[i] = ev.renders
	}
	// Change entry 3 (in the tail), and bump the conversation's revision without changing
	// any entry (commands, usage).
	src.set(3, agentEntry("changed"))
	src.rev++
	if !v.Sync() {
		t.Fatalf("Sync reports no change")
	}
	for i, ev := range v.ents {
		want := before[i]
		if i == 3 {
			want++
		}
		if ev.renders != want {
			t.Errorf("entry %d rendered %d times, want %d", i, ev.renders, want)
		}
	}
	if !strings.Contains(dump(all(t, v)), "  changed\n") {
		t.Errorf("the change is not shown")
	}
	total := v.Total()
	src.set(3, agentEntry("changed\nand now two lines"))
	v.Sync()
	if v.Total() != total+1 {
		t.Errorf("total %d, want %d", v.Total(), total+1)
	}
}

func TestCacheByWidth(t *testing.T) {
	v, _ := viewOf(t, 30, manyEntries(200)...)
	v.SetSize(30, 5)
	v.Frame()
	wraps := 0
	for _, ev := range v.ents {
		wraps += ev.wraps
	}
	// A resize re-wraps what is on screen at once, the rest over the next frames.
	v.SetSize(20, 5)
	_, rows := v.Frame()
	if len(rows) != 5 {
		t.Fatalf("%d rows, want 5", len(rows))
	}
	rewrapped := 0
	for _, ev := range v.ents {
		if ev.width == 20 {
			rewrapped++
		}
	}
	if rewrapped == 0 || rewrapped > 5 {
		t.Errorf("%d entries re-wrapped for a 5-row frame, want the few on screen", rewrapped)
	}
	for v.stale > 0 {
		v.Sync()
	}
	fresh, _ := viewOf(t, 20, manyEntries(200)...)
	if v.Total() != fresh.Total() {
		t.Errorf("total %d after the resize settled, want %d", v.Total(), fresh.Total())
	}
	if snapshot(t, v) != snapshot(t, fresh) {
		t.Errorf("rows after a resize differ from a fresh layout")
	}
	after := 0
	for _, ev := range v.ents {
		after += ev.wraps
		if ev.renders != 1 {
			t.Fatalf("a resize rendered an entry again: it only re-wraps")
		}
	}
	if after != wraps+200 {
		t.Errorf("%d re-wraps for a resize of 200 entries, want 200", after-wraps)
	}
	// Back to the first width: same rows as at first.
	v.SetSize(30, 5)
	for v.stale > 0 {
		v.Sync()
	}
	first, _ := viewOf(t, 30, manyEntries(200)...)
	if snapshot(t, v) != snapshot(t, first) {
		t.Errorf("rows differ after resizing back")
	}
}

func TestResizeAsksForFramesUntilSettled(t *testing.T) {
	woken := 0
	src := &fakeSource{}
	src.add(manyEntries(3000)...)
	v := New(src, Options{Wake: func() { woken++ }})
	v.openAt = 1 << 30 // all read at once: the resize leaves work for several frames
	v.SetSize(40, 10)
	v.Sync()
	v.SetSize(41, 10)
	frames := 0
	for v.Sync() && v.stale > 0 {
		frames++
		if frames > 1000 {
			t.Fatal("the resize never settles")
		}
	}
	if woken == 0 || woken != frames {
		t.Errorf("woken %d times over %d frames that left work", woken, frames)
	}
}

func TestFollowAndScroll(t *testing.T) {
	c := chat.New(chat.Options{})
	h := c.Handler("alice", nil)
	c.BeginTurn("alice", "start")
	for i := range 50 {
		h.Chunk(chat.ChunkAgentMessage, fmt.Sprintf("line %d\n", i))
	}
	v := New(c, Options{})
	v.SetSize(30, 10)
	v.Sync()
	top, rows := v.Frame()
	if !v.Following() || top != v.Total()-10 || rows[9].Text() != "line 49" {
		t.Fatalf("following: top %d of %d, last row %q", top, v.Total(), rows[9].Text())
	}
	// Streaming keeps the bottom in view while following.
	h.Chunk(chat.ChunkAgentMessage, "line 50\n")
	v.Sync()
	if _, rows = v.Frame(); rows[9].Text() != "line 50" {
		t.Fatalf("last row %q, want line 50", rows[9].Text())
	}
	// Scrolling up stops following: what is on screen stays while the reply streams.
	v.ScrollBy(-5)
	if v.Following() {
		t.Fatal("still following after scrolling up")
	}
	top, rows = v.Frame()
	firstText := rows[0].Text()
	for i := 51; i < 80; i++ {
		h.Chunk(chat.ChunkAgentMessage, fmt.Sprintf("line %d\n", i))
		v.Sync()
		t2, rows := v.Frame()
		if t2 != top || rows[0].Text() != firstText {
			t.Fatalf("the view moved while scrolled up: top %d → %d, %q → %q", top, t2, firstText, rows[0].Text())
		}
	}
	// Scrolling to the end follows again.
	v.ScrollBy(1000)
	if !v.Following() {
		t.Fatal("not following after scrolling to the end")
	}
	if _, rows = v.Frame(); rows[9].Text() != "line 79" {
		t.Fatalf("last row %q", rows[9].Text())
	}
	v.ScrollTo(0)
	if top, rows = v.Frame(); top != 0 || rows[0].Text() != "You" {
		t.Fatalf("top %d, first row %q", top, rows[0].Text())
	}
	v.ScrollToShow(25)
	if top, _ = v.Frame(); top != 16 {
		t.Errorf("ScrollToShow(25) puts row %d at the top, want 16", top)
	}
	v.ScrollToShow(3)
	if top, _ = v.Frame(); top != 3 {
		t.Errorf("ScrollToShow(3) puts row %d at the top, want 3", top)
	}
	v.ScrollToBottom()
	if !v.Following() {
		t.Error("ScrollToBottom does not follow")
	}
}

func TestAnchorSurvivesResizeAndHistory(t *testing.T) {
	c := chat.New(chat.Options{})
	c.AddUser("hello")
	h := c.Handler("alice", nil)
	c.BeginAgentTurn("alice")
	h.Chunk(chat.ChunkAgentMessage, "a reply long enough to be wrapped over several rows of a narrow view\nMARK here\n")
	c.EndTurn("alice", chat.StopEndTurn, nil)
	v := New(c, Options{})
	v.SetSize(20, 4)
	v.Sync()
	rows := all(t, v)
	a := v.AnchorAt(rowWith(t, rows, "MARK"))
	v.SetSize(12, 4)
	if got := all(t, v)[v.RowOf(a)].Text(); got != "MARK here" {
		t.Errorf("after a resize the anchor is on %q", got)
	}
	// History loaded before the first entry.
	c.Load([]chat.Entry{{Kind: chat.KindUser, Text: "old question"}, {Kind: chat.KindAgent, Author: "alice", Text: "old answer"}})
	v.Sync()
	rows = all(t, v)
	if got := rows[v.RowOf(a)].Text(); got != "MARK here" {
		t.Errorf("after loading history the anchor is on %q", got)
	}
	if rows[0].Text() != "You" || rows[1].Text() != "old" || rows[2].Text() != "question" {
		t.Errorf("history not shown first: %q %q %q", rows[0].Text(), rows[1].Text(), rows[2].Text())
	}
	if got, want := snapshot(t, v), freshView(t, c, 12); got != want {
		t.Errorf("after loading history:\n%s\nfrom scratch:\n%s", got, want)
	}
}

// TestLateToolUpdateOffScreen checks that a tool call that changes after it is done, far
// above the viewport and the last entries, is seen within a few frames.
func TestLateToolUpdateOffScreen(t *testing.T) {
	src := &fakeSource{}
	src.add(toolEntry(&chat.ToolCall{Title: "Build", Status: "completed"}))
	src.add(manyEntries(300)...)
	v := New(src, Options{})
	v.SetSize(40, 10)
	v.Sync()
	v.Frame()
	src.set(0, toolEntry(&chat.ToolCall{Title: "Build", Status: "completed", Content: []chat.ToolContent{{Type: "content", Text: "late output"}}}))
	for frames := 0; ; frames++ {
		v.Sync()
		v.Frame()
		if v.ents[0].rev == src.entries[0].Rev {
			break
		}
		if frames > 300/sweepChecks+2 {
			t.Fatalf("the late update is not seen after %d frames", frames)
		}
	}
	if !strings.Contains(dump(v.RowsAt(0, 5)), "late output") {
		t.Errorf("the late output is not shown")
	}
}

func TestEmptyAndTinyViews(t *testing.T) {
	v := New(&fakeSource{}, Options{})
	v.SetSize(0, 0)
	v.Sync()
	if top, rows := v.Frame(); top != 0 || len(rows) != 0 {
		t.Errorf("empty view: top %d, %d rows", top, len(rows))
	}
	if s, n := v.CopyRegion(0); s != "" || n != 0 {
		t.Errorf("empty view copies %q", s)
	}
	if s, n := v.CopySelection(0, 10); s != "" || n != 0 {
		t.Errorf("empty view copies %q", s)
	}
	v.ScrollBy(-3)
	v.ScrollToShow(4)
	_ = v.RowOf(v.AnchorAt(3))
	// A notice with no text as the first entry has no rows at all.
	v2, _ := viewOf(t, 10, chat.Entry{Kind: chat.KindNotice, Done: true}, agentEntry("x"))
	if rows := all(t, v2); len(rows) == 0 || rows[0].Entry != 1 {
		t.Errorf("rows %v", rows)
	}
}

func TestRealConversation(t *testing.T) {
	c := chat.New(chat.Options{Lang: i18n.French})
	h := c.Handler("alice", nil)
	v := New(c, Options{Labels: Labels{You: "Vous", Thought: "Réflexion"}})
	v.SetSize(50, 40)
	c.BeginTurn("alice", "Écris une fonction")
	h.Chunk(chat.ChunkAgentThought, "Je réfléchis…")
	h.Chunk(chat.ChunkAgentMessage, "Voici :\n```python\ndef f():\n")
	v.Sync()
	h.Chunk(chat.ChunkAgentMessage, "    return 1\n```\n")
	c.EndTurn("alice", chat.StopEndTurn, nil)
	v.Sync()
	_, rows := v.Frame()
	want := "" +
		"label      |Vous\n" +
		"prose      |  Écris une fonction\n" +
		"blank      |\n" +
		"label      |A alice\n" +
		"label      |  Réflexion\n" +
		"prose      |  Je réfléchis…\n" +
		"blank      |\n" +
		"prose      |  Voici :\n" +
		"fence      |  ── python ──\n" +
		"code       |  def f():\n" +
		"code       |      return 1\n" +
		"fence      |  \n"
	if got := dump(rows); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// countingSource counts the entries a view reads.
type countingSource struct {
	Source
	reads int
}

func (s *countingSource) Entry(i int) (chat.Entry, bool) {
	s.reads++
	return s.Source.Entry(i)
}

// TestFrameReadsWhatIsVisible checks the work of a frame without timing it: while a reply
// streams at the end of 5,000 entries, each Sync reads a bounded number of entries and
// re-wraps only the streaming one.
func TestFrameReadsWhatIsVisible(t *testing.T) {
	c, h := conversation(t, 20_000)
	for range 30 { // a few tool calls and notices, which the sweep visits
		c.AddNotice("a notice")
	}
	c.BeginTurn("alice", "go on")
	h.Chunk(chat.ChunkAgentMessage, "the reply starts. ")
	src := &countingSource{Source: c}
	v := New(src, Options{})
	v.SetSize(80, 60)
	v.Sync()
	v.Frame()
	wraps := func() int {
		n := 0
		for _, ev := range v.ents {
			if ev != nil { // nil: never read
				n += ev.wraps + ev.renders
			}
		}
		return n
	}
	before := wraps()
	for i := range 200 {
		h.Chunk(chat.ChunkAgentMessage, fmt.Sprintf("chunk %d ", i))
		src.reads = 0
		v.Sync()
		v.Frame()
		if limit := 2 + tailChecks + sweepChecks + 60; src.reads > limit {
			t.Fatalf("a frame read %d entries of %d, want at most %d", src.reads, len(v.ents), limit)
		}
	}
	if got := wraps() - before; got != 0 {
		t.Errorf("%d entries were rendered or wrapped from scratch while one reply streamed", got)
	}
}
