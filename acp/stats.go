package acp

import (
	"sync"
	"sync/atomic"
)

// Stats counts what a connection received and what it could not use, for the Agent
// status view. Strings in it come from the agent, with control characters removed.
type Stats struct {
	// Received counts the messages (lines) read from the agent; Sent those written.
	Received int64
	Sent     int64
	// Malformed counts lines that are not JSON objects.
	Malformed int64
	// Oversize counts lines over the line limit, skipped without being read whole.
	Oversize int64
	// Ignored counts well-formed messages there was nothing to do with: batches,
	// responses with an unknown or repeated id, messages for an unknown session,
	// notifications Sidekicks does not handle, messages of the wrong shape.
	Ignored int64
	// LastIgnored says why the last ignored message was ignored.
	LastIgnored string
	// UnknownUpdates counts session updates of a kind Sidekicks does not know, or that
	// did not decode; LastUnknownKind and LastUnknownError describe the last one.
	UnknownUpdates   int64
	LastUnknownKind  string
	LastUnknownError string
}

// counters are a connection's statistics as they are kept.
type counters struct {
	received, sent                        atomic.Int64
	malformed, oversize, ignored, unknown atomic.Int64

	mu               sync.Mutex
	lastIgnored      string
	lastUnknownKind  string
	lastUnknownError string
}

func (s *counters) setLastIgnored(why string) {
	s.mu.Lock()
	s.lastIgnored = why
	s.mu.Unlock()
}

// recordUnknown counts an unknown update and returns the new count.
func (s *counters) recordUnknown(kind, err string) int64 {
	s.mu.Lock()
	s.lastUnknownKind = kind
	s.lastUnknownError = err
	s.mu.Unlock()
	return s.unknown.Add(1)
}

// Stats returns the connection's statistics so far.
func (c *Conn) Stats() Stats {
	s := &c.stats
	s.mu.Lock()
	defer s.mu.Unlock()
	return Stats{
		Received:         s.received.Load(),
		Sent:             s.sent.Load(),
		Malformed:        s.malformed.Load(),
		Oversize:         s.oversize.Load(),
		Ignored:          s.ignored.Load(),
		LastIgnored:      s.lastIgnored,
		UnknownUpdates:   s.unknown.Load(),
		LastUnknownKind:  s.lastUnknownKind,
		LastUnknownError: s.lastUnknownError,
	}
}
