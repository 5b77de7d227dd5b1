package chatwin

import (
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/window/windowtest"
)

// benchPasteThenKey pastes text into an agent window's input on a 200×60 screen, as tmux
// does (a bracketed paste, one key event per character), then types one key: the time of
// the whole, until the key is drawn. It reports the frames drawn per paste ("frames") and
// the key's own time after the paste ("key-p50-ms", "key-p99-ms", "key-max-ms").
func benchPasteThenKey(b *testing.B, text string) {
	wd := newWorld(b, withSize(200, 60), withoutFrameCopies())
	var lat []time.Duration
	var frames uint64
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		wd.do(func() { wd.w.input.set("") })
		before := shown(wd)
		b.StartTimer()
		wd.Paste(text)
		start := time.Now()
		wd.injectKey(tcell.KeyRune, 'k', tcell.ModNone)
		wd.sync()
		lat = append(lat, time.Since(start))
		b.StopTimer()
		frames += shown(wd) - before
		if got, _ := wd.input(); len(got) != len(text)+1 {
			b.Fatalf("the input holds %d bytes, want %d", len(got), len(text)+1)
		}
		b.StartTimer()
	}
	b.StopTimer()
	b.ReportMetric(float64(frames)/float64(b.N), "frames")
	reportLatency(b, "key", lat)
}

// BenchmarkPasteThenKey is a paste of 1 MiB into the input, then a key: text=words is
// ordinary words, the baseline; text=longword one word with no space, and text=command the
// same after "/echo " (what tools/responsiveness pastes: a key then completes a command, and
// a mention, from the text before the cursor), which should each cost within 2× the
// baseline measured in the same run. Compare them with benchstat -col /text.
func BenchmarkPasteThenKey(b *testing.B) {
	b.Run("text=words", func(b *testing.B) { benchPasteThenKey(b, windowtest.Words(1<<20)) })
	b.Run("text=longword", func(b *testing.B) { benchPasteThenKey(b, windowtest.LongWord(1<<20)) })
	b.Run("text=command", func(b *testing.B) { benchPasteThenKey(b, "/echo "+windowtest.LongWord(1<<20-6)) })
}

// shown is the number of frames the window's screen has shown so far.
func shown(wd *world) uint64 {
	f, _ := wd.Screen.Last()
	return f.N
}
