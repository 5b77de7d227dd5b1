package convo

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/alecthomas/chroma/v2"
)

// The highlighting cache and its worker, shared by every view of the process: one goroutine
// that highlights the blocks views ask for, newest request first (the one just scrolled into
// view), and exits when there is nothing left to do.

const (
	// hlCacheBytes bounds the code held by the cache's results (the oldest go first).
	hlCacheBytes = 32 << 20
	// hlQueueMax bounds the requests waiting: beyond it the oldest are dropped, and a view
	// asks again when their block is on screen again.
	hlQueueMax = 64
)

type hlJob struct {
	key  hlKey
	lx   chroma.Lexer
	code string
	wake []func()
}

type highlighter struct {
	mu      sync.Mutex
	cache   map[hlKey]*hlResult
	order   []hlKey // oldest first
	bytes   int
	queue   []*hlJob // newest last
	queued  map[hlKey]*hlJob
	running bool
	// gen grows each time a job ends (done or dropped): a view with blocks waiting looks at
	// them again when it changes.
	gen atomic.Uint64
}

var hlShared = &highlighter{cache: make(map[hlKey]*hlResult), queued: make(map[hlKey]*hlJob)}

func (h *highlighter) lookup(key hlKey) (*hlResult, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r, ok := h.cache[key]
	return r, ok
}

// waiting reports whether key is queued or being highlighted.
func (h *highlighter) waiting(key hlKey) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	_, ok := h.queued[key]
	return ok
}

func (h *highlighter) store(key hlKey, r *hlResult) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.storeLocked(key, r)
}

func (h *highlighter) storeLocked(key hlKey, r *hlResult) {
	if _, ok := h.cache[key]; ok {
		return
	}
	h.cache[key] = r
	h.order = append(h.order, key)
	h.bytes += key.size
	for h.bytes > hlCacheBytes && len(h.order) > 1 {
		old := h.order[0]
		h.order = h.order[1:]
		delete(h.cache, old)
		h.bytes -= old.size
	}
}

// request queues code for highlighting; wake is called (from the worker's goroutine) when
// the result is in the cache, or the request was dropped.
func (h *highlighter) request(key hlKey, lx chroma.Lexer, code string, wake func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.cache[key]; ok {
		return
	}
	if j, ok := h.queued[key]; ok {
		if wake != nil {
			j.wake = append(j.wake, wake)
		}
		return
	}
	j := &hlJob{key: key, lx: lx, code: code}
	if wake != nil {
		j.wake = []func(){wake}
	}
	h.queued[key] = j
	h.queue = append(h.queue, j)
	if len(h.queue) > hlQueueMax {
		dropped := h.queue[0]
		h.queue = h.queue[1:]
		delete(h.queued, dropped.key)
		h.gen.Add(1)
		defer notify(dropped.wake)
	}
	if !h.running {
		h.running = true
		go h.work()
	}
}

func (h *highlighter) work() {
	for {
		h.mu.Lock()
		if len(h.queue) == 0 {
			h.running = false
			h.mu.Unlock()
			return
		}
		j := h.queue[len(h.queue)-1]
		h.queue = h.queue[:len(h.queue)-1]
		h.mu.Unlock()

		res := tokenise(j.lx, j.code, time.Now().Add(HighlightBudget))

		h.mu.Lock()
		h.storeLocked(j.key, res)
		delete(h.queued, j.key)
		wake := j.wake
		h.gen.Add(1)
		h.mu.Unlock()
		notify(wake)
	}
}

func notify(fs []func()) {
	for _, f := range fs {
		f()
	}
}
