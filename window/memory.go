package window

import (
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// Memory given back when the screen falls quiet.
//
// Go's runtime keeps the heap it grew for a burst of work (a flood of agent text, a
// megabyte pasted, a long history read back) and gives it back to the system only slowly,
// and not at all while the program sleeps: no collection runs in an idle program. So after
// a busy spell the process would keep, for as long as it stays idle, the memory of its
// busiest moment — several times what its conversations hold. Once the loop has been quiet
// for quietBeforeReturn after a spell that allocated at least returnAfterAllocated, the
// memory the heap no longer uses is handed back to the system (debug.FreeOSMemory: one
// collection, off the UI goroutine). A quiet spell that allocated little costs nothing,
// and an idle loop stays idle: the timer fires once per quiet spell, never again until
// the loop next works.

const (
	// quietBeforeReturn is how long the loop must have done nothing.
	quietBeforeReturn = 2 * time.Second
	// returnAfterAllocated is how much the heap must have allocated since the last return
	// for one to be worth a collection.
	returnAfterAllocated = 32 << 20
)

// memoryReturn watches the loop's activity and gives memory back when it falls quiet.
type memoryReturn struct {
	mu        sync.Mutex
	timer     *time.Timer
	quiet     time.Duration
	threshold uint64
	allocated func() uint64 // bytes allocated by the heap so far
	give      func()        // gives memory back (debug.FreeOSMemory)
	lastGiven uint64        // allocated at the last return
}

// newMemoryReturn returns the watcher with the runtime's own counter and return.
func newMemoryReturn() *memoryReturn {
	return &memoryReturn{
		quiet:     quietBeforeReturn,
		threshold: returnAfterAllocated,
		allocated: heapAllocated,
		give:      debug.FreeOSMemory,
	}
}

// active says the loop just worked: the quiet spell starts again from now. It costs a
// timer's reset, on the UI goroutine.
func (m *memoryReturn) active() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.timer == nil {
		m.timer = time.AfterFunc(m.quiet, m.quietNow)
		return
	}
	m.timer.Reset(m.quiet)
}

// quietNow runs on the timer's goroutine once the loop has been quiet long enough.
func (m *memoryReturn) quietNow() {
	now := m.allocated()
	m.mu.Lock()
	worth := now-m.lastGiven >= m.threshold
	if worth {
		m.lastGiven = now
	}
	m.mu.Unlock()
	if worth {
		m.give()
	}
}

// stop ends the watch (the screen is ending).
func (m *memoryReturn) stop() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.timer != nil {
		m.timer.Stop()
	}
}

// heapAllocated reads the bytes the heap has allocated since the program started.
func heapAllocated() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
