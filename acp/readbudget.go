package acp

import (
	"context"
	"sync"
)

// MaxReadInFlight is how many bytes the fs/read_text_file answers of one agent may hold at
// once (64 MiB): eight whole reads of MaxReadContent, or one read of MaxReadSource to pick
// lines from. Past it, a read waits for others to finish, so an agent that sends hundreds of
// reads at once holds no more memory than that.
const MaxReadInFlight = MaxReadSource

// readBudget bounds the bytes the reads of one connection hold at once: a read reserves the
// most it may load before it starts, and gives it back once its answer is made.
type readBudget struct {
	mu   sync.Mutex
	free int64
	wake chan struct{} // closed, then replaced, each time bytes are given back
}

func newReadBudget(n int64) *readBudget {
	return &readBudget{free: n, wake: make(chan struct{})}
}

// acquire reserves n bytes, waiting until they are free or ctx ends.
func (b *readBudget) acquire(ctx context.Context, n int64) error {
	for {
		b.mu.Lock()
		if b.free >= n {
			b.free -= n
			b.mu.Unlock()
			return nil
		}
		wake := b.wake
		b.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// release gives back n bytes reserved with acquire.
func (b *readBudget) release(n int64) {
	b.mu.Lock()
	b.free += n
	close(b.wake)
	b.wake = make(chan struct{})
	b.mu.Unlock()
}
