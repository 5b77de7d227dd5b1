package convo

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// pyBlock returns the i-th of distinct Python blocks, with its key.
func pyBlock(i int) (hlKey, string) {
	code := fmt.Sprintf("x = %d\n", i)
	return hlKeyOf(LexerFor("python"), code), code
}

// hold asks hl for a block whose wake blocks the Highlighter's goroutine until the returned
// function is called; it returns once the goroutine is held.
func hold(t *testing.T, hl *Highlighter, i int, then func()) (release func()) {
	t.Helper()
	held, free := make(chan struct{}), make(chan struct{})
	k, code := pyBlock(i)
	hl.request(k, LexerFor("python"), code, func() {
		close(held)
		<-free
		if then != nil {
			then()
		}
	})
	select {
	case <-held:
	case <-time.After(30 * time.Second):
		t.Fatal("the Highlighter did not start")
	}
	return func() { close(free) }
}

// Requests that wait are done newest first (the block just scrolled into view); beyond
// hlQueueMax the oldest are dropped and their views woken at once; a block asked for twice
// is highlighted once, and wakes both.
func TestHighlighterNewestFirstAndBounded(t *testing.T) {
	hl := NewHighlighter(HighlighterOptions{})
	release := hold(t, hl, 0, nil)
	var mu sync.Mutex
	var woken []int
	wake := func(i int) func() {
		return func() {
			mu.Lock()
			woken = append(woken, i)
			mu.Unlock()
		}
	}
	n := hlQueueMax + 3
	for i := 1; i <= n; i++ {
		k, code := pyBlock(i)
		hl.request(k, LexerFor("python"), code, wake(i))
	}
	k, code := pyBlock(n)
	hl.request(k, LexerFor("python"), code, wake(-n))
	mu.Lock()
	dropped := slices.Clone(woken)
	mu.Unlock()
	if !slices.Equal(dropped, []int{1, 2, 3}) {
		t.Errorf("woken while the Highlighter was held: %v, want the three oldest, dropped", dropped)
	}
	release()
	waitIdle(t, hl)
	want := []int{1, 2, 3, n, -n}
	for i := n - 1; i > 3; i-- {
		want = append(want, i)
	}
	mu.Lock()
	got := slices.Clone(woken)
	mu.Unlock()
	if !slices.Equal(got, want) {
		t.Errorf("woken in the order %v, want %v", got, want)
	}
	for i := 1; i <= n; i++ {
		k, _ := pyBlock(i)
		if _, ok := hl.lookup(k); ok != (i > 3) {
			t.Errorf("block %d in the cache: %v", i, ok)
		}
		if hl.waiting(k) {
			t.Errorf("block %d still waiting", i)
		}
	}
}

// The goroutine is started through HighlighterOptions.Go. A wake that panics ends it; the
// requests left are done on another one, and later requests too.
func TestHighlighterAfterAPanic(t *testing.T) {
	panics := make(chan any, 4)
	hl := NewHighlighter(HighlighterOptions{Go: func(_ string, fn func()) {
		go func() {
			defer func() {
				if r := recover(); r != nil {
					panics <- r
				}
			}()
			fn()
		}()
	}})
	release := hold(t, hl, 0, func() { panic("wake failed") })
	k1, code1 := pyBlock(1)
	hl.request(k1, LexerFor("python"), code1, nil)
	release()
	select {
	case r := <-panics:
		if r != "wake failed" {
			t.Fatalf("the guard saw %v", r)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the panic did not reach the guard")
	}
	waitIdle(t, hl)
	if _, ok := hl.lookup(k1); !ok {
		t.Error("the block asked for before the panic was not highlighted")
	}
	k2, code2 := pyBlock(2)
	hl.request(k2, LexerFor("python"), code2, nil)
	waitIdle(t, hl)
	if _, ok := hl.lookup(k2); !ok {
		t.Error("a block asked for after the panic was not highlighted")
	}
}

// Views given the same Highlighter share its cache: a block the one highlighted is
// highlighted at once in the other; a view with a Highlighter of its own does not see it.
func TestViewsShareTheirHighlighter(t *testing.T) {
	code := "def shared():\n\treturn 1\n"
	hl := NewHighlighter(HighlighterOptions{})
	view := func(hl *Highlighter) *View {
		src := &fakeSource{}
		src.add(agentEntry("```python\n" + code + "```\n"))
		v := New(src, Options{Highlighter: hl})
		v.SetSize(40, 20)
		v.Sync()
		return v
	}
	first := view(hl)
	first.Frame()
	waitIdle(t, hl)
	first.Sync()
	if _, rows := first.Frame(); codeColours(rows) != "colour colour" {
		t.Fatalf("the first view's block is not highlighted: %s", codeColours(rows))
	}
	if _, rows := view(hl).Frame(); codeColours(rows) != "colour colour" {
		t.Errorf("a second view on the same Highlighter: %s, want the block from the cache at once", codeColours(rows))
	}
	if _, rows := view(nil).Frame(); codeColours(rows) != "plain plain" {
		t.Errorf("a view with a Highlighter of its own: %s, want plain until its own goroutine runs", codeColours(rows))
	}
}
