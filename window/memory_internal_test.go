package window

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestMemoryGivenBackOnceQuiet: after a busy spell that allocated enough, a quiet spell
// gives the memory back; a quiet spell after little allocation gives nothing back, and the
// next return counts from the last one. The quiet spells are called here; the timer that
// calls them is TestQuietSpellComesAfterTheLastWork's.
func TestMemoryGivenBackOnceQuiet(t *testing.T) {
	var allocated atomic.Uint64
	var given atomic.Int32
	m := &memoryReturn{
		quiet:     time.Hour, // never by itself here
		threshold: 32 << 20,
		allocated: allocated.Load,
		give:      func() { given.Add(1) },
	}
	defer m.stop()
	for _, step := range []struct {
		what  string
		alloc uint64
		want  int32
	}{
		{"after a spell that allocated 64 MiB", 64 << 20, 1},
		{"after a spell that allocated 1 MiB more", 1 << 20, 1},
		{"after 40 MiB more, counted from the last return", 40 << 20, 2},
	} {
		allocated.Add(step.alloc)
		m.active()
		m.quietNow()
		if n := given.Load(); n != step.want {
			t.Fatalf("%s, memory was given back %d times, want %d", step.what, n, step.want)
		}
	}
}

// TestQuietSpellComesAfterTheLastWork: the quiet spell comes once the loop has stopped
// working, once, and not before: work keeps putting it off.
func TestQuietSpellComesAfterTheLastWork(t *testing.T) {
	checked := make(chan struct{}, 16)
	m := &memoryReturn{
		quiet:     30 * time.Millisecond,
		threshold: 1,
		allocated: func() uint64 { checked <- struct{}{}; return 0 },
		give:      func() {},
	}
	defer m.stop()
	m.active()
	select {
	case <-checked:
	case <-time.After(10 * time.Second):
		t.Fatal("the quiet spell never came after the loop's work")
	}
	if len(checked) != 0 {
		t.Fatalf("%d more quiet spells after one stretch of work", len(checked))
	}
}

// TestHeapAllocatedGrows: the runtime's counter the return reads moves with allocation.
func TestHeapAllocatedGrows(t *testing.T) {
	before := heapAllocated()
	sink := make([]byte, 8<<20)
	sink[len(sink)-1] = 1
	if after := heapAllocated(); after-before < 8<<20 {
		t.Fatalf("8 MiB allocated, the counter moved by %d bytes", after-before)
	}
}
