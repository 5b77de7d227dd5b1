package window

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestMemoryGivenBackOnceQuiet: after a busy spell that allocated enough, the memory is
// given back once the loop falls quiet; a quiet spell after little allocation gives
// nothing back, and the next return counts from the last one.
func TestMemoryGivenBackOnceQuiet(t *testing.T) {
	var allocated atomic.Uint64
	checked := make(chan struct{}, 16)
	var given atomic.Int32
	m := &memoryReturn{
		quiet:     20 * time.Millisecond,
		threshold: 32 << 20,
		allocated: func() uint64 {
			defer func() { checked <- struct{}{} }()
			return allocated.Load()
		},
		give: func() { given.Add(1) },
	}
	defer m.stop()
	wait := func(what string) {
		t.Helper()
		select {
		case <-checked:
		case <-time.After(10 * time.Second):
			t.Fatalf("the quiet spell %s never came", what)
		}
	}

	// A busy spell: the loop works while 64 MiB are allocated.
	for range 64 {
		allocated.Add(1 << 20)
		m.active()
	}
	wait("after 64 MiB")
	if n := given.Load(); n != 1 {
		t.Fatalf("after a spell that allocated 64 MiB, memory was given back %d times, want once", n)
	}

	// A little work (1 MiB): nothing to give back.
	allocated.Add(1 << 20)
	m.active()
	wait("after 1 MiB")
	if n := given.Load(); n != 1 {
		t.Fatalf("after a spell that allocated 1 MiB, memory was given back again (%d)", n)
	}

	// Enough again, counted from the last return.
	allocated.Add(40 << 20)
	m.active()
	wait("after 40 MiB more")
	if n := given.Load(); n != 2 {
		t.Fatalf("after 40 MiB more, memory was given back %d times, want 2", n)
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
