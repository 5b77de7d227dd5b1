package convo

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/alecthomas/chroma/v2"

	"git.rickub.com/bots-garden/sidekicks/jobs"
)

const (
	// hlCacheBytes bounds the code held by a Highlighter's results (the oldest go first).
	hlCacheBytes = 32 << 20
	// hlQueueMax bounds the requests waiting: beyond it the oldest are dropped, and a view
	// asks again when their block is on screen again.
	hlQueueMax = 64
)

// HighlighterOptions configure a Highlighter.
type HighlighterOptions struct {
	// Go starts the goroutine that highlights (a panic guard); name names it. It must return
	// without waiting for fn, and not call the Highlighter. Nil starts it with a plain go
	// statement.
	Go func(name string, fn func())
}

// Highlighter highlights the finished code blocks of views off their goroutine, and keeps
// the results by language and content. The application makes one and gives it to every
// View (Options.Highlighter), so that a block is highlighted once however many views show
// it. Blocks are highlighted one at a time on a goroutine of the Highlighter's own, which
// lives while there are blocks to highlight: the newest request first (the block just
// scrolled into view); beyond 64 waiting (hlQueueMax), the oldest are dropped. Its methods
// may be called from any goroutine.
type Highlighter struct {
	mu      sync.Mutex
	cache   map[hlKey]*hlResult
	order   []hlKey // oldest first
	bytes   int
	pending []*hlJob // newest last
	queued  map[hlKey]*hlJob
	// scheduled is set while a job of jobs highlights the pending requests, or waits to.
	scheduled bool
	jobs      *jobs.Queue
	// gen grows each time a request ends (done or dropped): a view with blocks waiting looks
	// at them again when it changes.
	gen atomic.Uint64
}

// hlJob is a request: a block to highlight, and whom to wake when it is done or dropped.
type hlJob struct {
	key  hlKey
	lx   chroma.Lexer
	code string
	wake []func()
}

// NewHighlighter returns a Highlighter with an empty cache; no goroutine runs until a block
// is asked for.
func NewHighlighter(opts HighlighterOptions) *Highlighter {
	return &Highlighter{
		cache:  make(map[hlKey]*hlResult),
		queued: make(map[hlKey]*hlJob),
		jobs:   jobs.New(jobs.Options{Name: "code highlighting", Go: opts.Go}),
	}
}

// Highlight returns code highlighted for lang: one slice of spans per line (a final newline
// makes no line of its own), with tabs expanded to TabWidth and classes from TokenClass.
// Code in a language chroma does not know, larger than MaxHighlight, or that takes longer
// than HighlightBudget comes back as plain text spans. Results are cached by language and
// content, with those of the views. It runs chroma on the calling goroutine: never call it
// on the UI goroutine (the views do not: they ask the Highlighter's goroutine).
func (h *Highlighter) Highlight(lang, code string) [][]Span {
	lx := LexerFor(lang)
	if lx == nil {
		return plainLines(code)
	}
	key := hlKeyOf(lx, code)
	if res, ok := h.lookup(key); ok {
		return res.lines(code)
	}
	res := tokenise(lx, code, time.Now().Add(HighlightBudget))
	h.store(key, res)
	return res.lines(code)
}

// Idle returns a channel closed once every block asked for before the call is highlighted,
// or dropped, and whom it wakes woken: a view's next Sync shows it. Tests wait on it.
func (h *Highlighter) Idle() <-chan struct{} { return h.jobs.Idle() }

func (h *Highlighter) lookup(key hlKey) (*hlResult, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r, ok := h.cache[key]
	return r, ok
}

// waiting reports whether key is queued or being highlighted.
func (h *Highlighter) waiting(key hlKey) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	_, ok := h.queued[key]
	return ok
}

func (h *Highlighter) store(key hlKey, r *hlResult) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.storeLocked(key, r)
}

func (h *Highlighter) storeLocked(key hlKey, r *hlResult) {
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

// request queues code for highlighting; wake is called (from the Highlighter's goroutine,
// or from this call when it drops an older request) when the result is in the cache, or the
// request was dropped. A block already waiting is not queued twice: wake joins it.
func (h *Highlighter) request(key hlKey, lx chroma.Lexer, code string, wake func()) {
	h.mu.Lock()
	if _, ok := h.cache[key]; ok {
		h.mu.Unlock()
		return
	}
	if j, ok := h.queued[key]; ok {
		if wake != nil {
			j.wake = append(j.wake, wake)
		}
		h.mu.Unlock()
		return
	}
	j := &hlJob{key: key, lx: lx, code: code}
	if wake != nil {
		j.wake = []func(){wake}
	}
	h.queued[key] = j
	h.pending = append(h.pending, j)
	var dropped []func()
	if len(h.pending) > hlQueueMax {
		old := h.pending[0]
		h.pending[0] = nil
		h.pending = h.pending[1:]
		delete(h.queued, old.key)
		h.gen.Add(1)
		dropped = old.wake
	}
	if !h.scheduled {
		// Under the lock: a call to Idle that comes after this request finds the job.
		h.scheduled = true
		h.jobs.Do(h.work)
	}
	h.mu.Unlock()
	notify(dropped)
}

// work highlights the pending requests, newest first, until none is left. It is a job of
// h.jobs, so that Idle waits until it ends.
func (h *Highlighter) work() {
	done := false
	defer func() {
		if !done { // a wake panicked: the requests left go on in another job
			h.mu.Lock()
			h.scheduled = len(h.pending) > 0
			if h.scheduled {
				h.jobs.Do(h.work)
			}
			h.mu.Unlock()
		}
	}()
	for {
		h.mu.Lock()
		if len(h.pending) == 0 {
			h.scheduled = false
			h.mu.Unlock()
			done = true
			return
		}
		j := h.pending[len(h.pending)-1]
		h.pending[len(h.pending)-1] = nil
		h.pending = h.pending[:len(h.pending)-1]
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
