package chatwin

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/demoagent"
	"git.rickub.com/bots-garden/sidekicks/window"
	"git.rickub.com/bots-garden/sidekicks/window/windowtest"
)

// history returns entries of about lines lines: turns of a one-line question and a
// 37-line reply (prose, and a Go code block).
func history(lines int) []chat.Entry {
	var reply strings.Builder
	for i := 0; i < 12; i++ {
		fmt.Fprintf(&reply, "Line %d of the explanation, with enough words to look like prose.\n", i)
	}
	reply.WriteString("\n```go\n")
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&reply, "\tx%d := compute(%d) // step\n", i, i)
	}
	reply.WriteString("```\n\nThat is all.\n")
	var out []chat.Entry
	for n, turn := 0, int64(1); n < lines; n, turn = n+38, turn+1 {
		out = append(out,
			chat.Entry{Kind: chat.KindUser, Text: fmt.Sprintf("question %d", n), Turn: turn, Done: true},
			chat.Entry{Kind: chat.KindAgent, Author: "alice", Text: reply.String(), Turn: turn, Done: true})
	}
	return out
}

// streaming opens a 200×60 agent window over a conversation of about lines lines, starts a
// turn and returns the handler the reply streams through.
func streaming(b *testing.B, lines int) (*world, chat.SessionHandler) {
	b.Helper()
	return streamingOver(b, history(lines))
}

// streamingOver is streaming over these entries.
func streamingOver(b *testing.B, entries []chat.Entry) (*world, chat.SessionHandler) {
	b.Helper()
	wd := newWorld(b, withSize(200, 60), withoutFrameCopies())
	wd.w.Conversation().Load(entries)
	wd.sync()
	wd.do(func() { wd.w.calls.Do(func() { _ = wd.svc.Send(chat.AgentKey("alice"), "/stream") }) })
	wd.started()
	b.Cleanup(func() { close(wd.agent.release) })
	h := wd.agent.handler()
	h.Chunk(chat.ChunkAgentMessage, "Streaming: ")
	wd.sync()
	return wd, h
}

// chunkAt is the i-th chunk of a streamed reply: a new line every eight chunks, and a new
// entry (after a thought) every 40,000, below the 1 MiB cap of an entry.
func chunkAt(h chat.SessionHandler, i int) {
	switch {
	case i%40_000 == 39_999:
		h.Chunk(chat.ChunkAgentThought, "thinking again\n")
	case i%8 == 7:
		h.Chunk(chat.ChunkAgentMessage, "jumps over the dog.\n")
	default:
		h.Chunk(chat.ChunkAgentMessage, "the quick brown fox ")
	}
}

// benchFrame measures one whole frame of the screen (the menu bar, the window's frame,
// the agent window, the status bar, shown on the simulation screen) while a reply
// streams: a chunk through the agent's handler, then the frame. It reports, as "x-tcell",
// the frame's time over tcell's own full redraw measured in the same run.
func benchFrame(b *testing.B, lines int) {
	wd, h := streaming(b, lines)
	framesWhile(b, wd, h, chunkAt)
}

// framesWhile measures frames of wd, each after chunk i through h, and reports them.
func framesWhile(b *testing.B, wd *world, h chat.SessionHandler, chunk func(chat.SessionHandler, int)) {
	total := onUI(wd.harness, func() int { return wd.w.view.Total() })
	done := make(chan time.Duration)
	b.ReportAllocs()
	b.ResetTimer()
	wd.app.Post(func() {
		start := time.Now()
		for i := 0; i < b.N; i++ {
			chunk(h, i)
			wd.app.DrawFrame()
		}
		done <- time.Since(start)
	})
	elapsed := <-done
	b.StopTimer()
	if rows := onUI(wd.harness, func() int { return wd.w.cur.n }); rows < 50 {
		b.Fatalf("%d rows drawn", rows)
	}
	b.ReportMetric(float64(total), "rows")
	b.ReportMetric(float64(elapsed)/float64(b.N)/float64(tcellRedraw(b)), "x-tcell")
}

// tcellRedraw is the time of one full redraw of a 200×60 simulation screen by tcell
// itself: every cell changed, then shown.
func tcellRedraw(b *testing.B) time.Duration {
	sim := tcell.NewSimulationScreen("UTF-8")
	if err := sim.Init(); err != nil {
		b.Fatal(err)
	}
	defer sim.Fini()
	sim.SetSize(200, 60)
	st := tcell.StyleDefault.Foreground(tcell.ColorSilver).Background(tcell.ColorNavy)
	const n = 300
	start := time.Now()
	for i := 0; i < n; i++ {
		for y := 0; y < 60; y++ {
			for x := 0; x < 200; x++ {
				sim.SetContent(x, y, rune('a'+(x+y+i)%26), nil, st)
			}
		}
		sim.Show()
	}
	return time.Since(start) / n
}

// BenchmarkAgentWindowFrame100k is a frame of an agent window over 100,000 lines while a
// reply streams: the goal is the cost of the same frame over 100 lines, and at most 1.5×
// tcell's full redraw (x-tcell ≤ 1.5).
func BenchmarkAgentWindowFrame100k(b *testing.B) { benchFrame(b, 100_000) }

// BenchmarkAgentWindowFrame100 is the same frame over 100 lines.
func BenchmarkAgentWindowFrame100(b *testing.B) { benchFrame(b, 100) }

// BenchmarkTcellFullRedraw is tcell's own cost of changing every cell of a 200×60
// simulation screen and showing it: the baseline of the frames above, measured in the
// same run.
func BenchmarkTcellFullRedraw(b *testing.B) { windowtest.TcellFullRedraw(b) }

// floodChunk is the i-th chunk (from 0) of the demo agent's /floodlines: one line each, and
// a thought every demoagent.FloodEntryLines lines, which starts a new entry.
func floodChunk(h chat.SessionHandler, i int) {
	h.Chunk(chat.ChunkAgentMessage, demoagent.FloodLine(i+1))
	if (i+1)%demoagent.FloodEntryLines == 0 {
		h.Chunk(chat.ChunkAgentThought, demoagent.FloodThought(i+1))
	}
}

// BenchmarkAgentWindowFlood measures the chunks per second an open agent window absorbs
// from a flooding agent, the lines of the demo agent's /floodlines (run it with
// -benchtime=400000x for the 400,000 lines of tools/responsiveness): the agent's goroutine
// applies each chunk to the conversation and asks for a redraw; the screen's goroutine
// draws at most 60 frames a second. Meanwhile
// keys are typed into the window, one every 10,000 chunks, each once the one before is
// drawn; "key-p50-ms", "key-p99-ms" and "key-max-ms" are the times they took to be handled
// and drawn. BenchmarkAgentWindowKeys is the baseline: the same keys with no flood.
func BenchmarkAgentWindowFlood(b *testing.B) {
	wd, h := streaming(b, 10_000)
	floodWhileTyping(b, wd, h, func() string { text, _ := wd.input(); return text })
}

// floodWhileTyping sends b.N chunks of the flood through h while keys are typed into the
// focused window, one every 10,000 chunks, and reports the chunks per second and the keys'
// times; input returns what the focused window's input holds, every key typed.
func floodWhileTyping(b *testing.B, wd *world, h chat.SessionHandler, input func() string) {
	keys := make(chan []time.Duration, 1)
	flood := make(chan time.Duration, 1)
	b.ResetTimer()
	go func() {
		start := time.Now()
		for i := 0; i < b.N; i++ {
			floodChunk(h, i)
		}
		flood <- time.Since(start)
	}()
	go func() { keys <- typeKeys(wd, b.N/10_000) }()
	elapsed := <-flood
	b.StopTimer()
	lat := <-keys
	wd.sync()
	if text := input(); len(text) != len(lat) {
		b.Fatalf("%d keys typed, %d reached the input", len(lat), len(text))
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "chunks/s")
	reportLatency(b, "key", lat)
}

// BenchmarkAgentWindowFloodOther is BenchmarkAgentWindowFlood with the keys typed into
// another window, Bob's, beside the flooding one (as tools/responsiveness types them): the
// issue's case, whose goal is a worst key within 3× the median of the same keys with no
// flood (BenchmarkAgentWindowKeysOther, its baseline).
func BenchmarkAgentWindowFloodOther(b *testing.B) {
	wd, h := streaming(b, 10_000)
	bob := otherWindow(b, wd)
	floodWhileTyping(b, wd, h, func() string { return onUI(wd.harness, func() string { return bob.input.text }) })
}

// BenchmarkAgentWindowKeysOther is the baseline of BenchmarkAgentWindowFloodOther: the same
// two windows, Alice's reply started, keys typed into Bob's with no flood.
func BenchmarkAgentWindowKeysOther(b *testing.B) {
	wd, _ := streaming(b, 10_000)
	otherWindow(b, wd)
	b.ResetTimer()
	lat := typeKeys(wd, b.N)
	b.StopTimer()
	reportLatency(b, "key", lat)
}

// otherWindow opens Bob's window beside Alice's, with the focus, and returns its widget.
func otherWindow(b *testing.B, wd *world) *Widget {
	b.Helper()
	var bob *Widget
	wd.do(func() {
		bob = New(wd.app, wd.svc, chat.AgentKey("bob"), AgentInfo{Name: "bob", Title: "Bob"}, Options{Highlighter: wd.hl})
		win, err := wd.app.AddWindow("Bob", bob)
		if err != nil {
			b.Fatal(err)
		}
		bob.SetWindow(win)
		win.OnClose(bob.Closed)
	})
	wd.settled(bob, "conversation", func() bool { return bob.Conversation() != nil })
	if f := onUI(wd.harness, func() *window.Window { return wd.app.Focused() }); f == nil || f.Title() != "Bob" {
		b.Fatal("Bob's window does not have the focus")
	}
	wd.sync()
	return bob
}

// BenchmarkAgentWindowKeys is the baseline of BenchmarkAgentWindowFlood's keys: the same
// window, the same reply started, keys typed one after the other's frame with no flood.
func BenchmarkAgentWindowKeys(b *testing.B) {
	wd, _ := streaming(b, 10_000)
	b.ResetTimer()
	lat := typeKeys(wd, b.N)
	b.StopTimer()
	reportLatency(b, "key", lat)
}

// typeKeys types n keys into the window, each once the one before is handled and drawn,
// and returns the time each took.
func typeKeys(wd *world, n int) []time.Duration {
	lat := make([]time.Duration, 0, n)
	for i := 0; i < n; i++ {
		start := time.Now()
		wd.injectKey(tcell.KeyRune, 'k', tcell.ModNone)
		wd.sync()
		lat = append(lat, time.Since(start))
	}
	return lat
}

// reportLatency reports the median, the 99th percentile and the maximum of lat, in ms.
func reportLatency(b *testing.B, name string, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	s := slices.Clone(lat)
	slices.Sort(s)
	at := func(q float64) float64 {
		i := min(max(int(math.Ceil(q*float64(len(s))))-1, 0), len(s)-1)
		return float64(s[i]) / float64(time.Millisecond)
	}
	b.ReportMetric(at(0.5), name+"-p50-ms")
	b.ReportMetric(at(0.99), name+"-p99-ms")
	b.ReportMetric(at(1), name+"-max-ms")
}
