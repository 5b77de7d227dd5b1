package convo

import (
	"runtime"
	"testing"
)

// laidOut counts the entries of a view that hold a layout, and the lines and rows of it.
func laidOut(v *View) (entries, weight int) {
	for _, ev := range v.ents {
		if ev.lines != nil || ev.rows != nil {
			entries++
			weight += ev.cost()
		}
	}
	return entries, weight
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
	v.keep = 200 // a small bound: almost everything is parked
	ref := New(c, Options{})
	ref.keep = 1 << 30
	for _, x := range []*View{v, ref} {
		x.SetSize(100, 30)
		x.Sync()
		x.Frame()
	}
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
	check("after a resize")
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
