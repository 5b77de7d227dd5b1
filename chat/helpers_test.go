package chat_test

import (
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/safetext/safetexttest"
)

// fakeClock is a clock the test moves by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *fakeClock {
	return &fakeClock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// recordSink keeps every entry it is asked to save, in order.
type recordSink struct {
	mu    sync.Mutex
	saves []chat.Entry
	// during, when set, runs inside Save (to check that no lock is held then).
	during func()
}

func (s *recordSink) Save(e chat.Entry) {
	if s.during != nil {
		s.during()
	}
	s.mu.Lock()
	s.saves = append(s.saves, e)
	s.mu.Unlock()
}

func (s *recordSink) all() []chat.Entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]chat.Entry(nil), s.saves...)
}

// latest returns what a history would hold: the last save of each entry, in the order of
// their numbers.
func (s *recordSink) latest() []chat.Entry {
	last := map[int64]chat.Entry{}
	var seqs []int64
	for _, e := range s.all() {
		if _, ok := last[e.Seq]; !ok {
			seqs = append(seqs, e.Seq)
		}
		last[e.Seq] = e
	}
	slices.Sort(seqs)
	out := make([]chat.Entry, len(seqs))
	for i, seq := range seqs {
		out[i] = last[seq]
	}
	return out
}

// of returns the saves of the entry numbered seq, in order.
func (s *recordSink) of(seq int64) []chat.Entry {
	var out []chat.Entry
	for _, e := range s.all() {
		if e.Seq == seq {
			out = append(out, e)
		}
	}
	return out
}

// newConv returns a conversation on a fake clock, saving to a recording sink.
func newConv(t testing.TB, lang i18n.Lang) (*chat.Conversation, *fakeClock, *recordSink) {
	t.Helper()
	clock := newClock()
	c := chat.New(chat.Options{Now: clock.Now, Lang: lang})
	sink := &recordSink{}
	c.SetSink(sink)
	return c, clock, sink
}

// assertSafe fails when s holds anything safetext.Text must remove, or invalid UTF-8; with line,
// newlines and tabs too.
func assertSafe(t testing.TB, where, s string, line bool) {
	t.Helper()
	if msg := safetexttest.Reason(s, line); msg != "" {
		t.Errorf("%s: %s in %q", where, msg, s)
	}
}

// walkStrings calls f with every string reachable from v (fields, pointers, slices).
func walkStrings(v reflect.Value, path string, f func(path, s string)) {
	switch v.Kind() {
	case reflect.String:
		f(path, v.String())
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walkStrings(v.Elem(), path, f)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				walkStrings(v.Field(i), path+"."+v.Type().Field(i).Name, f)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			walkStrings(v.Index(i), path+"[]", f)
		}
	}
}

// assertAllSafe checks every string of v. Fields that are single-line by contract are
// checked as such.
func assertAllSafe(t testing.TB, v any) int {
	t.Helper()
	n := 0
	walkStrings(reflect.ValueOf(v), reflect.TypeOf(v).String(), func(path, s string) {
		n++
		multiLine := strings.HasSuffix(path, ".Text") || strings.HasSuffix(path, ".NewText") || strings.HasSuffix(path, ".OldText")
		if strings.HasSuffix(path, "Options[].ID") {
			return // the agent's own id, given back raw and never shown
		}
		assertSafe(t, path, s, !multiLine)
	})
	return n
}

// waitFor runs f on another goroutine and fails if it has not returned by the deadline
// (a deadlock, typically a lock held while calling out).
func waitFor(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("%s did not return within 20s", what)
	}
}
