package chatwin

import (
	"fmt"
	"path/filepath"
	"runtime"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/store"
)

// benchLines is how many one-line entries (34 bytes, as `make responsiveness` echoes) a long
// session streams in the benchmarks below: the most one turn may make.
const benchLines = chat.MaxTurnEntries - 2

// BenchmarkLongSessionBytesPerLine reports the heap a window over a long session holds once
// the entries far above what it shows have left memory (B/line: per displayed line, the
// text included; beyond-text-B/line: less the text's bytes), and the count of entries it
// holds.
func BenchmarkLongSessionBytesPerLine(b *testing.B) { benchSessionBytes(b, 0) }

// BenchmarkLongSessionBytesPerLineHeld is the baseline: the same session with a window that
// holds every entry, as before entries could leave.
func BenchmarkLongSessionBytesPerLineHeld(b *testing.B) { benchSessionBytes(b, 1<<30) }

func benchSessionBytes(b *testing.B, hold int) {
	for b.Loop() {
		b.StopTimer()
		st, err := store.Open(filepath.Join(b.TempDir(), "history.db"))
		if err != nil {
			b.Fatal(err)
		}
		wd := newWorld(b, withHistory(keeperHistory{st: st}, 200), withHold(hold), withSize(200, 60), withoutFrameCopies())
		wd.sync()
		before := heapInUse()
		streamLines(wd, benchLines)
		after := heapInUse()
		held := onUI(wd.harness, func() int { return wd.w.Conversation().Len() })
		perLine := float64(int64(after)-int64(before)) / benchLines
		b.ReportMetric(perLine, "B/line")
		b.ReportMetric(perLine-float64(len(lineText(0))), "beyond-text-B/line")
		b.ReportMetric(float64(held), "entries-held")
		runtime.KeepAlive(wd)
		wd.ctrl('w')
		wd.settle(wd.w)
		_ = st.Close()
		b.StartTimer()
	}
}

// lineText is the i-th line a long session streams: 34 bytes with its newline.
func lineText(i int) string { return fmt.Sprintf("line %08d of the memory test..\n", i) }

// streamLines streams n one-line entries in one turn (a reply, then a thought, in turn), with
// a frame every 100, and waits until they are saved and a last frame drawn.
func streamLines(wd *world, n int) {
	wd.do(func() { wd.w.calls.Do(func() { _ = wd.svc.Send(chat.AgentKey("alice"), "/stream") }) })
	wd.started()
	h := wd.agent.handler()
	for i := range n {
		kind := chat.ChunkAgentMessage
		if i%2 == 1 {
			kind = chat.ChunkAgentThought
		}
		h.Chunk(kind, lineText(i))
		if i%100 == 99 {
			wd.sync()
		}
	}
	close(wd.agent.release)
	wd.turnEnded()
	wd.w.Conversation().Flush()
	wd.sync()
	wd.sync()
}

func heapInUse() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}
