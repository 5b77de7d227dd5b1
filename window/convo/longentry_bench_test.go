package convo

import (
	"fmt"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// BenchmarkStreamLongEntry streams one reply of 40,000 lines (760 KB, an entry of
// /floodlines) 4 KiB at a time, as a window lays out a flood, into a view of 100×58 that
// follows it: B/op is what the layout allocates for it, the garbage a flood makes the
// collector chase (its stops of the UI goroutine were the flood's worst keys).
func BenchmarkStreamLongEntry(b *testing.B) {
	var text strings.Builder
	for i := range 40_000 {
		fmt.Fprintf(&text, "flood line %07d\n", i)
	}
	full := text.String()
	b.SetBytes(int64(len(full)))
	b.ReportAllocs()
	for b.Loop() {
		src := &fakeSource{}
		src.add(chat.Entry{Kind: chat.KindAgent, Author: "alice"})
		v := New(src, Options{})
		v.SetSize(100, 58)
		v.Sync()
		for end := 4 << 10; ; end += 4 << 10 {
			e := src.entries[0]
			e.Text = full[:min(end, len(full))]
			e.Done = end >= len(full)
			src.set(0, e)
			v.Sync()
			v.Frame()
			if e.Done {
				break
			}
		}
	}
}
