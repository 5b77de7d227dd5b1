package chatwin

import (
	"sync"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// Request is one permission request waiting for its answer.
type Request struct {
	// Key is the conversation's, Agent the name of the agent that asks, Who how it is named
	// on screen (its title).
	Key   chat.Key
	Agent string
	Who   string
	// Req is what it asks, sanitized by chat.
	Req chat.PermissionRequest

	win     func() *window.Window
	answers chan answer // capacity 1: answered once, never blocks
	done    bool
}

// window returns the conversation's window, nil when none is open.
func (r *Request) window() *window.Window {
	if r.win == nil {
		return nil
	}
	return r.win()
}

// Requests is the board of the permission requests waiting for an answer, every
// conversation's: each conversation's window shows the first of its own (with how many
// more wait), the application lists them in a menu and says on the status bar who asks.
// A flood of requests is one queue per conversation, never one thing on screen per
// request. Its methods run on the screen's goroutine.
type Requests struct {
	app    *window.App
	queues map[chat.Key]*requestQueue
	order  []chat.Key // the conversations with requests, in the order their first came
	onAsk  func(r *Request)
	// rejecting holds, per conversation, which requests "reject all" still rejects as they
	// come: a flood arrives in waves (the connection reads only so many requests at a time).
	// It says no once the turns it was given for are over, and the next "reject all"
	// replaces it.
	rejecting map[chat.Key]func(r *Request) bool
}

// requestQueue is one conversation's requests, oldest first; those answered out of order
// (their turn was cancelled) stay marked done until they reach the front.
type requestQueue struct {
	items []*Request
	n     int // the requests not done
}

// boards holds each App's board (RequestsOf).
var boards sync.Map // *window.App → *Requests

// RequestsOf returns the App's board of permission requests, made on first use: the one
// Permissions and the windows use when their options name none, so that every
// conversation of the application is on the same board.
func RequestsOf(app *window.App) *Requests {
	if b, ok := boards.Load(app); ok {
		return b.(*Requests)
	}
	b, _ := boards.LoadOrStore(app, NewRequests(app))
	return b.(*Requests)
}

// NewRequests returns an empty board.
func NewRequests(app *window.App) *Requests {
	return &Requests{app: app, queues: map[chat.Key]*requestQueue{}, rejecting: map[chat.Key]func(*Request) bool{}}
}

// OnAsk sets what runs when a conversation that had no request waiting gets one (the
// application says on the status bar who asks and how to get there). The requests that
// follow while it waits do not call it again: a flood says so once.
func (b *Requests) OnAsk(f func(r *Request)) { b.onAsk = f }

// add puts a request at the end of its conversation's queue; the first marks the window
// and rings the bell when the window is not in front.
func (b *Requests) add(r *Request) {
	if still := b.rejecting[r.Key]; still != nil && still(r) {
		r.done = true
		r.answers <- rejection(r)
		return
	}
	q := b.queues[r.Key]
	if q == nil {
		q = &requestQueue{}
		b.queues[r.Key] = q
		b.order = append(b.order, r.Key)
	}
	q.items = append(q.items, r)
	q.n++
	if q.n == 1 {
		if w := r.window(); w != nil {
			w.SetAttention(true)
			if !w.Focused() {
				b.app.Bell()
			}
		}
		if b.onAsk != nil {
			b.onAsk(r)
		}
	}
	b.app.Invalidate()
}

// answer gives r its answer and takes it off the board; a request answered already is
// left as it is.
func (b *Requests) answer(r *Request, id string, ok bool) {
	if r.done {
		return
	}
	r.done = true
	r.answers <- answer{id, ok} // the only send once done is set: never blocks
	q := b.queues[r.Key]
	if q == nil {
		return
	}
	q.n--
	b.trim(r.Key, q)
	if q.n == 0 {
		if w := r.window(); w != nil {
			w.SetAttention(false)
		}
	}
	b.app.Invalidate()
}

// trim drops the answered requests at the front of a queue, and the queue once empty.
func (b *Requests) trim(k chat.Key, q *requestQueue) {
	i := 0
	for i < len(q.items) && q.items[i].done {
		q.items[i] = nil
		i++
	}
	q.items = q.items[i:]
	if q.n > 0 {
		return
	}
	delete(b.queues, k)
	for i, o := range b.order {
		if o == k {
			b.order = append(b.order[:i], b.order[i+1:]...)
			break
		}
	}
}

// Head returns the request a conversation's window shows, the oldest, and how many wait
// in all; nil and 0 when none.
func (b *Requests) Head(k chat.Key) (*Request, int) {
	q := b.queues[k]
	if q == nil || q.n == 0 {
		return nil, 0
	}
	return q.items[0], q.n
}

// Pending is one conversation's waiting requests as the application lists them.
type Pending struct {
	// Head is the oldest request, Count how many wait.
	Head  *Request
	Count int
}

// Pending returns the conversations with requests waiting, one each, in the order their
// first request came.
func (b *Requests) Pending() []Pending {
	out := make([]Pending, 0, len(b.order))
	for _, k := range b.order {
		if r, n := b.Head(k); r != nil {
			out = append(out, Pending{Head: r, Count: n})
		}
	}
	return out
}

// rejectAll answers every request of a conversation with a rejection, and the requests
// that come after them while still says so. It returns how many it answered at once.
func (b *Requests) rejectAll(k chat.Key, still func(r *Request) bool) int {
	b.rejecting[k] = still
	q := b.queues[k]
	if q == nil {
		return 0
	}
	items := q.items
	n := 0
	for _, r := range items {
		if r == nil || r.done {
			continue
		}
		a := rejection(r)
		b.answer(r, a.id, a.ok)
		n++
	}
	return n
}

// rejection is r's first "reject once" option, or no answer (cancelled) when it offers
// none.
func rejection(r *Request) answer {
	for _, o := range r.Req.Options {
		if o.Kind == "reject_once" {
			return answer{o.ID, true}
		}
	}
	return answer{}
}
