package agentwin

import (
	"sync"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// Service is what an agent window asks of the conversations: *chat.Service is one.
//
// Open, Send, Cancel, Unqueue, ClearQueue, LoadOlder and Close may read the store or
// write to an agent (session/cancel), so the window calls them on a goroutine of its own,
// in the order it asked; Queued, Busy and Turns only read the service's state and are
// called on the screen's goroutine.
type Service interface {
	Open(k chat.Key) (*chat.Conversation, error)
	Send(k chat.Key, text string) error
	Cancel(k chat.Key)
	Queued(k chat.Key) []string
	Unqueue(k chat.Key, i int) (string, bool)
	ClearQueue(k chat.Key)
	Busy(k chat.Key) bool
	Turns(k chat.Key) []chat.TurnInfo
	LoadOlder(k chat.Key) (int, error)
	Close(k chat.Key)
}

var _ Service = (*chat.Service)(nil)

// calls runs a window's calls to the service one after the other, off the screen's
// goroutine, in the order they were asked: a Send made before a Cancel reaches the service
// first. No goroutine lives while there is nothing to run.
type calls struct {
	app     *window.App
	mu      sync.Mutex
	queue   []func()
	running bool
	idle    *sync.Cond
}

func newCalls(app *window.App) *calls {
	c := &calls{app: app}
	c.idle = sync.NewCond(&c.mu)
	return c
}

// do queues f. It never blocks.
func (c *calls) do(f func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.queue = append(c.queue, f)
	if !c.running {
		c.running = true
		c.app.Go(c.run)
	}
}

func (c *calls) run() {
	for {
		c.mu.Lock()
		if len(c.queue) == 0 {
			c.running = false
			c.idle.Broadcast()
			c.mu.Unlock()
			return
		}
		f := c.queue[0]
		c.queue[0] = nil
		c.queue = c.queue[1:]
		c.mu.Unlock()
		f()
	}
}

// wait returns once every call queued so far has run (tests, and Closed's callers that
// need the session stopped).
func (c *calls) wait() {
	c.mu.Lock()
	for c.running {
		c.idle.Wait()
	}
	c.mu.Unlock()
}
