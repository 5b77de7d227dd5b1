package convo

import (
	"runtime"
	"slices"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// laidOut counts the entries of a view that hold a layout, and the lines and rows of it.
func laidOut(v *View) (entries, weight int) {
	for _, ev := range v.ents {
		if ev != nil && (ev.lines != nil || ev.rows != nil) {
			entries++
			weight += ev.cost()
		}
	}
	return entries, weight
}

// checkHeld checks the view's account of the layout it keeps: what the queue says it holds
// is what the entries in it weigh, and every entry laid out is in the queue.
func checkHeld(t *testing.T, v *View) {
	t.Helper()
	held := 0
	for _, ev := range v.queue[v.qHead:] {
		if !ev.parked {
			held += ev.held
			if ev.held != ev.cost() && ev.done {
				t.Errorf("an entry in the queue is counted for %d, weighs %d", ev.held, ev.cost())
			}
		}
	}
	for _, ev := range v.ents {
		if ev != nil && !ev.parked && !ev.queued {
			t.Fatalf("an entry laid out is not in the queue")
		}
	}
	if held != v.held {
		t.Errorf("the queue holds %d lines and rows, the view counts %d", held, v.held)
	}
}

// TestViewResizeCostsWhatIsNear: a resize of a long conversation that was scrolled through
// re-wraps about openLines lines from the end, not all the layout the view keeps; the rest
// comes back at the new width when it is shown.
func TestViewResizeCostsWhatIsNear(t *testing.T) {
	c, _ := conversation(t, 100_000)
	v := New(c, Options{})
	v.SetSize(100, 60)
	v.Sync()
	for top := 0; top < v.Total(); top += 60 * 20 { // the view keeps keepLayout lines
		v.RowsAt(top, 60)
		v.Sync()
	}
	v.ScrollToBottom()
	v.Sync()
	v.Frame()
	if _, w := laidOut(v); w < keepLayout/2 {
		t.Fatalf("the view keeps %d lines and rows after scrolling through", w)
	}
	wraps := func() (n int) {
		for _, ev := range v.ents {
			if ev != nil {
				n += ev.wraps
			}
		}
		return n
	}
	before := wraps()
	v.SetSize(77, 60)
	for v.Sync() && v.stale > 0 {
	}
	v.Frame()
	if n, limit := wraps()-before, 2*(openLines+60)/38+4; n > limit {
		t.Errorf("a resize re-wrapped %d entries, more than %d", n, limit)
	}
	checkHeld(t, v)
	ref := New(c, Options{})
	ref.keep, ref.openAt = 1<<30, 1<<30
	ref.SetSize(77, 60)
	ref.Sync()
	for _, x := range []*View{v, ref} {
		x.ScrollBy(-1000)
		x.Sync()
	}
	_, got := v.Frame()
	gotDump := dump(got)
	_, want := ref.Frame()
	if gotDump != dump(want) {
		t.Errorf("1000 rows up after the resize:\n%s\nwant:\n%s", gotDump, dump(want))
	}
	checkHeld(t, v)
}

// TestViewLayoutIsBounded: however long the conversation, the view keeps the layout of about
// keepLayout lines and rows, the viewport's included; the rest is parked.
func TestViewLayoutIsBounded(t *testing.T) {
	var weights []int
	for _, lines := range []int{20_000, 80_000} {
		c, _ := conversation(t, lines)
		v := New(c, Options{})
		v.SetSize(100, 60)
		v.Sync()
		v.Frame()
		v.ScrollTo(v.Total() / 2) // a page in the middle, then back to the end
		v.Sync()
		v.Frame()
		v.ScrollToBottom()
		v.Sync()
		v.Frame()
		v.Sync()
		checkHeld(t, v)
		n, w := laidOut(v)
		if w > keepLayout+2*60*4 {
			t.Errorf("%d lines: %d entries keep a layout of %d lines and rows, more than the bound %d",
				lines, n, w, keepLayout)
		}
		if n >= len(v.ents)/2 {
			t.Errorf("%d lines: %d of %d entries keep their layout", lines, n, len(v.ents))
		}
		weights = append(weights, w)
	}
	if weights[1] > weights[0]*5/4 {
		t.Errorf("the layout kept grows with the conversation: %d for 20k lines, %d for 80k", weights[0], weights[1])
	}
}

// TestViewParkedEntriesComeBack: scrolling up far brings parked entries back from the source,
// row for row what a view that never parked anything shows, at the current width too.
func TestViewParkedEntriesComeBack(t *testing.T) {
	c, _ := conversation(t, 4_000)
	v := New(c, Options{})
	v.openAt = 1 << 30 // all read at first, then parked
	ref := New(c, Options{})
	ref.keep, ref.openAt = 1<<30, 1<<30 // reads and keeps everything
	for _, x := range []*View{v, ref} {
		x.SetSize(100, 30)
		x.Sync()
		x.Frame()
	}
	v.keep = 200 // a small bound: almost everything is parked
	v.Sync()
	n, _ := laidOut(v)
	if n > 20 {
		t.Fatalf("%d entries keep their layout with a bound of 200 lines", n)
	}
	check := func(what string) {
		t.Helper()
		if v.Total() != ref.Total() {
			t.Fatalf("%s: %d rows, want %d", what, v.Total(), ref.Total())
		}
		for _, top := range []int{0, 1, 37, v.Total() / 3, v.Total()/2 + 5, v.Total() - 30} {
			got := dump(v.RowsAt(top, 30))
			want := dump(ref.RowsAt(top, 30))
			if got != want {
				t.Fatalf("%s: rows from %d:\n%s\nwant:\n%s", what, top, got, want)
			}
			v.Sync()
			ref.Sync()
		}
		a := v.AnchorAt(v.Total() / 4)
		if got, want := v.RowOf(a), ref.RowOf(ref.AnchorAt(ref.Total()/4)); got != want {
			t.Fatalf("%s: an anchor in a parked entry is at row %d, want %d", what, got, want)
		}
		if got, want := fmtCopy(v.CopySelection(3, 120)), fmtCopy(ref.CopySelection(3, 120)); got != want {
			t.Fatalf("%s: copying parked entries gave %q, want %q", what, got, want)
		}
	}
	check("at the first width")
	for _, x := range []*View{v, ref} { // a resize: parked entries come back at the new width
		x.SetSize(61, 30)
		for x.Sync() && x.stale > 0 {
		}
	}
	// Parked entries are counted at their old width until they are on screen again.
	for top := 0; top < v.Total(); top += 30 {
		v.RowsAt(top, 30)
		v.Sync()
	}
	check("after a resize")
	checkHeld(t, v)
	if n, w := laidOut(v); w > 200+4*30*4 {
		t.Errorf("after scrolling and a resize, %d entries keep %d lines and rows", n, w)
	}
}

func fmtCopy(text string, lines int) string { return text + "|" + string(rune('0'+lines%10)) }

// heapInUse returns the heap in use after a collection.
func heapInUse() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// BenchmarkViewBytesPerLine reports the heap a view over 100,000 lines holds, per line of the
// conversation (view-B/line), beside what the conversation itself holds per line beyond its
// text (conv-B/line): the conversation's heap less the text's bytes.
func BenchmarkViewBytesPerLine(b *testing.B) { benchBytesPerLine(b, 100_000) }

// BenchmarkViewBytesPerLine1k is the same over 1,000 lines.
func BenchmarkViewBytesPerLine1k(b *testing.B) { benchBytesPerLine(b, 1_000) }

func benchBytesPerLine(b *testing.B, lines int) {
	for b.Loop() {
		b.StopTimer()
		before := heapInUse()
		c, _ := conversation(b, lines)
		text := 0
		for _, e := range c.Snapshot() {
			text += len(e.Text)
		}
		withConv := heapInUse()
		b.StartTimer()
		v := New(c, Options{})
		v.SetSize(100, 60)
		v.Sync()
		v.Frame()
		v.Sync()
		b.StopTimer()
		withView := heapInUse()
		total := float64(v.Total())
		b.ReportMetric(float64(int64(withView)-int64(withConv))/total, "view-B/line")
		b.ReportMetric(float64(int64(withConv)-int64(before)-int64(text))/total, "conv-B/line")
		runtime.KeepAlive(v)
		runtime.KeepAlive(c)
		b.StartTimer()
	}
}

// TestViewOpensWhatItShows: opening a view on a long conversation reads the entries that fill
// about half the layout's bound, not the conversation; scrolling to the top shows the first
// entries as a view that read everything does, and once every entry has been on screen the
// row count is exact.
func TestViewOpensWhatItShows(t *testing.T) {
	open := func(c *chat.Conversation) (*View, int) {
		src := &countingSource{Source: c}
		v := New(src, Options{})
		v.SetSize(100, 30)
		v.Sync()
		v.Frame()
		return v, src.reads
	}
	_, short := open(first(conversation(t, 20_000)))
	c, _ := conversation(t, 200_000)
	v, long := open(c)
	if long > short+short/10 || long > 2*keepLayout/38 {
		t.Fatalf("opening a view on %d entries read %d of them, %d for a tenth of them", c.Len(), long, short)
	}
	ref := New(c, Options{})
	ref.keep, ref.openAt = 1<<30, 1<<30 // reads and keeps everything
	ref.SetSize(100, 30)
	ref.Sync()
	if got, want := dump(v.RowsAt(0, 30)), dump(ref.RowsAt(0, 30)); got != want {
		t.Fatalf("the top of the conversation:\n%s\nwant:\n%s", got, want)
	}
	for top := 0; top < v.Total(); top += 30 { // every entry on screen once
		v.RowsAt(top, 30)
		v.Sync()
	}
	if v.Total() != ref.Total() {
		t.Fatalf("after every entry was shown: %d rows, want %d", v.Total(), ref.Total())
	}
	for _, top := range []int{0, 77, ref.Total() / 2, ref.Total() - 30} {
		if got, want := dump(v.RowsAt(top, 30)), dump(ref.RowsAt(top, 30)); got != want {
			t.Fatalf("rows from %d:\n%s\nwant:\n%s", top, got, want)
		}
	}
	if n, w := laidOut(v); w > keepLayout+4*30*4 {
		t.Errorf("after scrolling through the conversation, %d entries keep %d lines and rows", n, w)
	}
}

func first[A, B any](a A, _ B) A { return a }

// TestViewScrollsUpThroughUnread: from the end of a long conversation opened at once, paging
// up to the top shows every row once, in order, as a view that read everything does.
func TestViewScrollsUpThroughUnread(t *testing.T) {
	c, _ := conversation(t, 60_000)
	v := New(c, Options{})
	ref := New(c, Options{})
	ref.keep, ref.openAt = 1<<30, 1<<30 // reads and keeps everything
	for _, x := range []*View{v, ref} {
		x.SetSize(90, 40)
		x.Sync()
	}
	for page := 0; ; page++ {
		vt, vrows := v.Frame()
		got := dump(vrows)
		rt, rrows := ref.Frame()
		if want := dump(rrows); got != want {
			t.Fatalf("page %d up (row %d, want %d):\n%s\nwant:\n%s", page, vt, rt, got, want)
		}
		if rt == 0 {
			if vt != 0 {
				t.Fatalf("the top of the conversation is at row %d", vt)
			}
			break
		}
		for _, x := range []*View{v, ref} {
			x.ScrollBy(-40)
			x.Sync()
		}
	}
}

// TestViewHistoryBeforeUnread: a page of history loaded before a long conversation opened
// at once keeps the counts of the entries parked or unread, and the viewport where it was.
func TestViewHistoryBeforeUnread(t *testing.T) {
	c, _ := conversation(t, 60_000)
	v := New(c, Options{})
	v.SetSize(90, 40)
	v.Sync()
	_, rows := v.Frame()
	bottom := dump(rows)
	counts := append([]int(nil), v.fw.vals...)
	c.Load([]chat.Entry{
		{Kind: chat.KindUser, Text: "an old question", Done: true},
		{Kind: chat.KindAgent, Author: "alice", Text: "an old answer", Done: true},
	})
	v.Sync()
	// The first entry before the page is read again (its head changes); the others keep
	// their counts, estimates included.
	if got := v.fw.vals[3:]; !slices.Equal(got, counts[1:]) {
		t.Fatalf("the counts of the entries held changed with a page of history before them")
	}
	if _, rows := v.Frame(); dump(rows) != bottom {
		t.Fatalf("the viewport moved:\n%s\nwant:\n%s", dump(rows), bottom)
	}
	if top := dump(v.RowsAt(0, 4)); !strings.Contains(top, "an old question") {
		t.Fatalf("the top of the conversation:\n%s", top)
	}
}

// BenchmarkViewOpen1k opens a view on a conversation of 1,000 lines: the baseline of
// BenchmarkViewOpen1M, the same on 1,000,000 lines (goal: at most twice the cost).
func BenchmarkViewOpen1k(b *testing.B) { benchOpen(b, 1_000) }
func BenchmarkViewOpen1M(b *testing.B) { benchOpen(b, 1_000_000) }

func benchOpen(b *testing.B, lines int) {
	c, _ := conversation(b, lines)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		v := New(c, Options{})
		v.SetSize(100, 60)
		v.Sync()
		if _, rows := v.Frame(); len(rows) != 60 {
			b.Fatalf("%d rows", len(rows))
		}
	}
}

// BenchmarkViewRelayout1k re-lays out a view of 1,000 lines at a new width, all of it: the
// frame of the resize and every Sync until nothing is left to re-wrap. BenchmarkViewRelayout1M
// is the same on 1,000,000 lines, scrolled through once (goal: at most twice the cost).
func BenchmarkViewRelayout1k(b *testing.B) { benchRelayout(b, 1_000) }
func BenchmarkViewRelayout1M(b *testing.B) { benchRelayout(b, 1_000_000) }

func benchRelayout(b *testing.B, lines int) {
	c, _ := conversation(b, lines)
	v := New(c, Options{})
	v.SetSize(100, 60)
	v.Sync()
	for top := 0; top < v.Total(); top += 60 * 50 { // visit the whole conversation
		v.RowsAt(top, 60)
		v.Sync()
	}
	v.ScrollToBottom()
	b.ReportAllocs()
	b.ResetTimer()
	w := 100
	for b.Loop() {
		w = 199 - w
		v.SetSize(w, 60)
		for v.Sync() && v.stale > 0 {
		}
		if _, rows := v.Frame(); len(rows) != 60 {
			b.Fatalf("%d rows", len(rows))
		}
	}
}
