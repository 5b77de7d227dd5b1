package acp

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
)

// This file is $/cancel_request, in both directions (the protocol-level notification of
// the stable v1 schema). From the agent: the request it names, if Sidekicks is still
// answering it, has its context cancelled, which closes the permission or elicitation
// dialog waiting for the user; the request is then answered as the user's giving up
// would answer it ("cancelled" outcome, "cancel" action). From Sidekicks: a call whose
// caller stops waiting (its context done) is followed by $/cancel_request with its id,
// so that the agent can stop working on it. session/prompt is the exception: a turn is
// ended with session/cancel, as the protocol asks.

// CancelRequestMethod is the protocol-level notification that cancels a request.
const CancelRequestMethod = "$/cancel_request"

// served is the agent's requests being answered, by id, each with the function that
// cancels its context.
type served struct {
	mu sync.Mutex
	m  map[string]context.CancelFunc
}

// requestKey is the form an id is looked up under: a number as its digits, a string as
// its JSON text (so that 1 and "1" stay apart).
func requestKey(id json.RawMessage) string { return strings.TrimSpace(string(id)) }

// beginRequest returns the context the agent's request id is answered under: done when
// the connection ends or the agent cancels the request. done must be called once the
// answer is computed.
func (c *Conn) beginRequest(id json.RawMessage) (ctx context.Context, done func()) {
	ctx, cancel := context.WithCancel(c.ctx)
	key := requestKey(id)
	c.served.mu.Lock()
	if c.served.m == nil {
		c.served.m = make(map[string]context.CancelFunc)
	}
	// A repeated id (a misbehaving agent) cancels nothing of the first request's.
	_, dup := c.served.m[key]
	if !dup {
		c.served.m[key] = cancel
	}
	c.served.mu.Unlock()
	return ctx, func() {
		if !dup {
			c.served.mu.Lock()
			delete(c.served.m, key)
			c.served.mu.Unlock()
		}
		cancel()
	}
}

// handleCancelRequest cancels the request the agent names, when it is still being
// answered; an unknown or finished one is ignored, as the protocol allows.
func (c *Conn) handleCancelRequest(params json.RawMessage) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if err := json.Unmarshal(params, &p); err != nil || !validID(p.RequestID) {
		c.ignore("a $/cancel_request of the wrong shape")
		return
	}
	c.served.mu.Lock()
	cancel := c.served.m[requestKey(p.RequestID)]
	c.served.mu.Unlock()
	if cancel == nil {
		c.ignore("a $/cancel_request for a request not being answered")
		return
	}
	cancel()
}

// cancelCall tells the agent that Sidekicks gave up its request id (method): it no longer
// waits for the answer. A prompt is not cancelled this way (session/cancel ends a turn).
func (c *Conn) cancelCall(id int64, method string) {
	if method == "session/prompt" {
		return
	}
	_ = c.post(CancelRequestMethod, cancelRequestParams{RequestID: id})
}

// cancelRequestParams are the parameters of $/cancel_request as Sidekicks sends them.
type cancelRequestParams struct {
	RequestID int64 `json:"requestId"`
}
