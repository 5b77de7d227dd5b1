package acp

import (
	"sync"
)

// maxQueuedAnswers bounds the bytes of answers to the agent's requests waiting to be
// written (32 MiB): an agent that floods requests without reading its stdin gets its
// answers queued up to this much; beyond it, the goroutines answering wait for room.
const maxQueuedAnswers = 32 << 20

// outbox is the queue of messages to the agent, written in order by one goroutine: a
// message queued before another reaches the agent before it. Pushing never waits, except
// for an answer to one of the agent's requests while too many answers are queued.
type outbox struct {
	mu sync.Mutex
	// queue holds the messages not written yet, oldest first.
	queue []writeRequest
	// answerBytes counts the bytes of the queued answers.
	answerBytes int
	// wake tells the writer that the queue is not empty.
	wake chan struct{}
	// room is closed (and replaced) when answers have been written.
	room chan struct{}
}

type writeRequest struct {
	data []byte
	// done, when set, receives the result of the write (buffered: the writer never
	// waits for its reader).
	done chan error
	// answer marks an answer to one of the agent's requests: those count against
	// maxQueuedAnswers.
	answer bool
}

func newOutbox() *outbox {
	return &outbox{wake: make(chan struct{}, 1), room: make(chan struct{})}
}

// push queues a message behind every message queued before it. An answer waits for room
// while the queued answers are over their bound; it gives up (false) when stop is
// closed. Any other message is queued at once.
func (o *outbox) push(w writeRequest, stop <-chan struct{}) bool {
	for {
		o.mu.Lock()
		if !w.answer || o.answerBytes == 0 || o.answerBytes+len(w.data) <= maxQueuedAnswers {
			if w.answer {
				o.answerBytes += len(w.data)
			}
			o.queue = append(o.queue, w)
			o.mu.Unlock()
			select {
			case o.wake <- struct{}{}:
			default:
			}
			return true
		}
		room := o.room
		o.mu.Unlock()
		select {
		case <-room:
		case <-stop:
			return false
		}
	}
}

// pop returns the oldest message, waiting for one; false when stop is closed.
func (o *outbox) pop(stop <-chan struct{}) (writeRequest, bool) {
	for {
		o.mu.Lock()
		if len(o.queue) > 0 {
			w := o.queue[0]
			o.queue[0] = writeRequest{}
			o.queue = o.queue[1:]
			if len(o.queue) == 0 {
				o.queue = nil
			}
			o.mu.Unlock()
			return w, true
		}
		o.mu.Unlock()
		select {
		case <-o.wake:
		case <-stop:
			return writeRequest{}, false
		}
	}
}

// written releases the room an answer took.
func (o *outbox) written(w writeRequest) {
	if !w.answer {
		return
	}
	o.mu.Lock()
	o.answerBytes -= len(w.data)
	close(o.room)
	o.room = make(chan struct{})
	o.mu.Unlock()
}
