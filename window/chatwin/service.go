package chatwin

import (
	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/jobs"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// Service is what an agent window asks of the conversations: *chat.Service is one.
//
// Open, Send, Cancel, Abandon, Unqueue, ClearQueue, LoadOlder and Close may read the store or
// write to an agent (session/cancel), so the window calls them on a goroutine of its own,
// in the order it asked; Queued, Busy and Turns only read the service's state and are
// called on the screen's goroutine.
type Service interface {
	Open(k chat.Key) (*chat.Conversation, error)
	Send(k chat.Key, text string) error
	Cancel(k chat.Key)
	Abandon(k chat.Key, agent string) bool
	Queued(k chat.Key) []string
	Unqueue(k chat.Key, i int) (string, bool)
	ClearQueue(k chat.Key)
	Busy(k chat.Key) bool
	Turns(k chat.Key) []chat.TurnInfo
	LoadOlder(k chat.Key) (int, error)
	Close(k chat.Key)
}

var _ Service = (*chat.Service)(nil)

// newCalls returns the queue of a window's calls to the service: they run one after the
// other, in the order asked, on a goroutine the screen guards (App.Go) that lives while
// there are calls to make.
func newCalls(app *window.App, key chat.Key) *jobs.Queue {
	return jobs.New(jobs.Options{
		Name: "calls of the window of " + key.String(),
		Go:   func(_ string, fn func()) { app.Go(fn) },
	})
}
