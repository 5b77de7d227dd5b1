package store

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// The benchmark fixture: a history of benchEntries entries across benchChannels channels,
// built once per test process in a temporary folder.
const (
	benchChannels = 100
	benchEntries  = 100_000
)

var (
	fixtureOnce sync.Once
	fixtureDir  string
	fixturePath string
	fixtureErr  error
)

// removeFixture deletes the fixture's folder; TestMain calls it at the end.
func removeFixture() {
	if fixtureDir != "" {
		os.RemoveAll(fixtureDir)
	}
}

// benchWords is a vocabulary of made-up words; benchText draws from it with a Zipf law, so
// that some words are in most entries and many in few, as in real text.
var benchWords = func() []string {
	r := rand.New(rand.NewPCG(1, 2))
	const letters = "abcdefghijklmnopqrstuvwxyz"
	words := make([]string, 5000)
	for i := range words {
		var b strings.Builder
		for range 3 + r.IntN(7) {
			b.WriteByte(letters[r.IntN(len(letters))])
		}
		words[i] = b.String()
	}
	return words
}()

// benchText is an entry's text of 20 to 80 words.
func benchText(r *rand.Rand, z *rand.Zipf) string {
	var b strings.Builder
	for i := range 20 + r.IntN(60) {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(benchWords[z.Uint64()])
	}
	return b.String()
}

// fixture returns the path of the benchmark history, closed, building it the first time.
func fixture(b *testing.B) string {
	b.Helper()
	fixtureOnce.Do(func() {
		fixtureDir, fixtureErr = os.MkdirTemp("", "sidekicks-store-bench-")
		if fixtureErr != nil {
			return
		}
		fixturePath = filepath.Join(fixtureDir, "bench.db")
		start := time.Now()
		fixtureErr = buildFixture(fixturePath)
		fmt.Fprintf(os.Stderr, "store benchmarks: %d entries in %d channels built in %v\n", benchEntries, benchChannels, time.Since(start).Round(time.Millisecond))
	})
	if fixtureErr != nil {
		b.Fatal(fixtureErr)
	}
	return fixturePath
}

// buildFixture writes the fixture, round-robin over the channels as a real history
// interleaves them, 10,000 entries per transaction.
func buildFixture(path string) error {
	s, err := Open(path)
	if err != nil {
		return err
	}
	defer s.Close()
	convs := make([]ConvID, benchChannels)
	for i := range convs {
		ch, err := s.CreateChannel(fmt.Sprintf("channel %d", i), "")
		if err != nil {
			return err
		}
		for _, a := range []string{"alice", "bob", "carol"} {
			if err := s.AddMember(ch.ID, a); err != nil {
				return err
			}
		}
		if convs[i], err = s.ChannelConversation(ch.ID); err != nil {
			return err
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	z := rand.NewZipf(r, 1.1, 1, uint64(len(benchWords)-1))
	t0 := time.Now().Add(-benchEntries * time.Second)
	w := NewWriter(s)
	for i := range benchEntries {
		at := t0.Add(time.Duration(i) * time.Second)
		e := chat.Entry{Kind: chat.KindAgent, Author: "alice", Turn: int64(i / 2), Created: at, Updated: at, Text: benchText(r, z), Done: true}
		if i%2 == 0 {
			e.Kind, e.Author = chat.KindUser, ""
		}
		w.Save(convs[i%benchChannels], e)
		if i%10_000 == 9_999 {
			if err := w.Flush(); err != nil {
				return err
			}
		}
	}
	return w.Close()
}

// openFixture opens the fixture, closed at the end of the benchmark.
func openFixture(b *testing.B) *Store {
	b.Helper()
	s, err := Open(fixture(b))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

// BenchmarkAppendEntry adds one finished entry per transaction (goal: ≤ 100 µs).
func BenchmarkAppendEntry(b *testing.B) {
	s := openFixture(b)
	chans, err := s.Channels()
	if err != nil {
		b.Fatal(err)
	}
	conv, _ := s.ChannelConversation(chans[len(chans)/2].ID)
	r := rand.New(rand.NewPCG(5, 6))
	z := rand.NewZipf(r, 1.1, 1, uint64(len(benchWords)-1))
	texts := make([]string, 256)
	for i := range texts {
		texts[i] = benchText(r, z)
	}
	now := time.Now()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		e := chat.Entry{Kind: chat.KindAgent, Author: "bob", Created: now, Updated: now, Text: texts[i%len(texts)], Done: true}
		if _, err := s.SaveEntry(conv, e); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendBaseline inserts one row per transaction in a bare table of the same
// database: what SQLite itself costs, to compare BenchmarkAppendEntry with.
func BenchmarkAppendBaseline(b *testing.B) {
	s := openFixture(b)
	if _, err := s.db.Exec(`CREATE TABLE IF NOT EXISTS bench_baseline(id INTEGER PRIMARY KEY, v TEXT)`); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.db.Exec(`INSERT INTO bench_baseline(v) VALUES (?)`, "one row"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriterSave is what handing a streaming entry to the Writer costs its caller.
func BenchmarkWriterSave(b *testing.B) {
	s := openFixture(b)
	conv, _ := s.AgentConversation("bench")
	w := NewWriter(s)
	e := chat.Entry{Kind: chat.KindAgent, Author: "bench", Text: strings.Repeat("streamed text ", 100)}
	e.ID = w.Save(conv, e)
	for b.Loop() {
		w.Save(conv, e)
	}
	b.StopTimer()
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkLastPage reads a channel's last 50 entries, as a window opens (goal: ≤ 2 ms).
func BenchmarkLastPage(b *testing.B) {
	s := openFixture(b)
	chans, _ := s.Channels()
	convs := make([]ConvID, len(chans))
	for i, ch := range chans {
		convs[i], _ = s.ChannelConversation(ch.ID)
	}
	for i := 0; b.Loop(); i++ {
		page, err := s.LastPage(convs[i%len(convs)], 50)
		if err != nil || len(page) != 50 {
			b.Fatalf("%d entries, %v", len(page), err)
		}
	}
}

// BenchmarkSearch searches the whole history (goal: ≤ 100 ms): a word in most entries, a
// rare one, two words with the last one a prefix.
func BenchmarkSearch(b *testing.B) {
	s := openFixture(b)
	for _, q := range []struct{ name, query string }{
		{"common", benchWords[1]},
		{"rare", benchWords[4000]},
		{"two-words-prefix", benchWords[2] + " " + benchWords[30][:3]},
	} {
		b.Run(q.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := s.Search(q.query, 50); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkOpen opens the history (lock, schema version check, WAL) and closes it (goal:
// ≤ 20 ms).
func BenchmarkOpen(b *testing.B) {
	path := fixture(b)
	for b.Loop() {
		s, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSaveLongReply saves a streaming reply of 700 KB again, as it grows, once a second
// (the writer's batch: the row updated, then the C allocator's free regions given back).
func BenchmarkSaveLongReply(b *testing.B) {
	s := openFixture(b)
	conv, _ := s.AgentConversation("bench-long")
	w := NewWriter(s)
	text := strings.Repeat("line of the memory test, 34 bytes\n", 700_000/34)
	e := chat.Entry{Kind: chat.KindAgent, Author: "bench", Text: text[:len(text)-34]}
	e.ID = w.Save(conv, e)
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	for i := 0; b.Loop(); i++ {
		e.Text = text[:len(text)-34*(i%2)] // a save changes the text, as a growing reply does
		w.Save(conv, e)
		if err := w.Flush(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
}
