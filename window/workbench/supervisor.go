package workbench

import (
	"context"

	"git.rickub.com/bots-garden/sidekicks/runtime"
)

// Supervisor is what the Agents panel asks of the agents' supervisor; *runtime.Supervisor
// is one, and so is anything that wraps it. Every method but Subscribe may wait on
// processes: the panel calls them off the screen's goroutine.
type Supervisor interface {
	// Subscribe returns a channel of state changes, which first receives the current
	// states, and a function that ends the subscription.
	Subscribe() (<-chan runtime.Event, func())
	// Acquire starts the agent if needed and returns once it is ready; the panel releases
	// the lease at once, so the agent stays ready.
	Acquire(ctx context.Context, name string) (*runtime.Lease, error)
	Stop(name string) error
	Restart(ctx context.Context, name string) error
	// StopContainer and RemoveContainer stop the agent, then run its lifecycle.stop or
	// lifecycle.remove.
	StopContainer(ctx context.Context, name string) error
	RemoveContainer(ctx context.Context, name string) error
}

var _ Supervisor = (*runtime.Supervisor)(nil)
