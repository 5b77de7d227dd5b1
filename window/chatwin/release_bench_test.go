package chatwin

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/store"
)

// benchLines is how many one-line entries (34 bytes, as `make responsiveness` echoes) a long
// session streams in the benchmarks below: the most one turn may make.
const benchLines = chat.MaxTurnEntries - 2

// BenchmarkLongSessionBytesPerLine reports the heap a window over a long session (10,000
// one-line entries, one turn) holds once the entries far above what it shows have left
// memory: B/line per displayed line, the text included (the text of the entries held is
// all that is left of it), held-KiB in all, and the count of entries held.
func BenchmarkLongSessionBytesPerLine(b *testing.B) { benchSessionBytes(b, 0, benchLines) }

// BenchmarkLongSessionBytesPerLine3x is the same session three times as long: held-KiB, the
// ceiling, does not grow with it.
func BenchmarkLongSessionBytesPerLine3x(b *testing.B) { benchSessionBytes(b, 0, 3*benchLines) }

// BenchmarkLongSessionBytesPerLineHeld is the baseline: the session of
// BenchmarkLongSessionBytesPerLine in a window that holds every entry, as before entries
// could leave memory.
func BenchmarkLongSessionBytesPerLineHeld(b *testing.B) { benchSessionBytes(b, 1<<30, benchLines) }

func benchSessionBytes(b *testing.B, hold, lines int) {
	for b.Loop() {
		b.StopTimer()
		st, err := store.Open(filepath.Join(b.TempDir(), "history.db"))
		if err != nil {
			b.Fatal(err)
		}
		wd := newWorld(b, withHistory(keeperHistory{st: st}, 200), withHold(hold), withSize(200, 60), withoutFrameCopies())
		wd.sync()
		before := heapInUse()
		streamLines(wd, lines)
		after := heapInUse()
		held := onUI(wd.harness, func() int { return wd.w.Conversation().Len() })
		perLine := float64(int64(after)-int64(before)) / float64(lines)
		b.ReportMetric(float64(int64(after)-int64(before))/1024, "held-KiB")
		b.ReportMetric(perLine, "B/line")
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

// streamLines streams n one-line entries (a reply, then a thought, in turn), in turns of at
// most benchLines, with a frame every 100, and waits until they are saved and a last frame
// drawn.
func streamLines(wd *world, n int) {
	for from := 0; from < n; from += benchLines {
		wd.agent.release = make(chan struct{}) // ends this turn's /stream
		wd.do(func() { wd.w.calls.Do(func() { _ = wd.svc.Send(chat.AgentKey("alice"), "/stream") }) })
		wd.started()
		h := wd.agent.handler()
		for i := from; i < min(n, from+benchLines); i++ {
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
	}
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

// BenchmarkEchoBytesPerLine is the memory figure of `make responsiveness` in the process: a
// pasted message of 20,000 lines of 34 bytes, echoed whole by the agent, is 40,000 displayed
// lines. It reports per line the live heap the window holds once the turn is over
// (heap-B/line, the text included), and the memory the runtime took from the system
// meanwhile (sys-B/line): what the garbage of the turn left resident. sys-B/line means
// something in the first run of a process only (later ones reuse what it took): compare runs
// of -count=1.
func BenchmarkEchoBytesPerLine(b *testing.B) {
	const lines = 20_000
	var text strings.Builder
	text.WriteString("/echo ")
	for i := range lines {
		text.WriteString(lineText(i))
	}
	for b.Loop() {
		b.StopTimer()
		st, err := store.Open(filepath.Join(b.TempDir(), "history.db"))
		if err != nil {
			b.Fatal(err)
		}
		wd := newWorld(b, withHistory(keeperHistory{st: st}, 200), withSize(200, 60), withoutFrameCopies())
		wd.sync()
		before := heapInUse()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		sys := ms.Sys
		b.StartTimer()
		wd.paste(text.String())
		wd.press(tcell.KeyEnter)
		wd.started()
		wd.turnEnded()
		wd.w.Conversation().Flush()
		wd.sync()
		wd.sync()
		b.StopTimer()
		after := heapInUse()
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(int64(after)-int64(before))/(2*lines), "heap-B/line")
		b.ReportMetric(float64(int64(ms.Sys)-int64(sys))/(2*lines), "sys-B/line")
		wd.ctrl('w')
		wd.settle(wd.w)
		_ = st.Close()
		b.StartTimer()
	}
}
