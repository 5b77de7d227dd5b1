package chatwin

import (
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/window/windowtest"
)

// benchInputKey types keys into an agent window's input (200×60) that holds text, the
// cursor at its end or in its middle, each key once the one before is drawn: the time each
// took, until drawn ("key-p50-ms", "key-p99-ms", "key-max-ms").
func benchInputKey(b *testing.B, text string, middle bool) {
	wd := newWorld(b, withSize(200, 60), withoutFrameCopies())
	wd.do(func() {
		wd.w.input.set(text)
		if middle {
			wd.w.input.cursor = len(text) / 2
			for wd.w.input.cursor > 0 && text[wd.w.input.cursor] != ' ' {
				wd.w.input.cursor--
			}
		}
	})
	wd.sync()
	lat := make([]time.Duration, 0, 1024)
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		wd.injectKey(tcell.KeyRune, 'k', tcell.ModNone)
		wd.sync()
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	if got, _ := wd.input(); len(got) != len(text)+len(lat) {
		b.Fatalf("the input holds %d bytes, want %d", len(got), len(text)+len(lat))
	}
	reportLatency(b, "key", lat)
}

// BenchmarkInputKey is a key typed into an input that holds 1 MB of words (input=1MB), at
// its end and in its middle, against the same key in an input of 1 KB (input=1KB), the
// baseline: the goal is within 2× of it. Compare them with benchstat -col /input.
func BenchmarkInputKey(b *testing.B) {
	for _, at := range []struct {
		name   string
		middle bool
	}{{"end", false}, {"middle", true}} {
		b.Run("at="+at.name+"/input=1KB", func(b *testing.B) { benchInputKey(b, windowtest.Words(1<<10), at.middle) })
		b.Run("at="+at.name+"/input=1MB", func(b *testing.B) { benchInputKey(b, windowtest.Words(1<<20), at.middle) })
	}
}
