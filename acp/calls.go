package acp

import (
	"context"
	"encoding/json"
	"fmt"
)

// writeLoop writes messages to the agent one at a time, in the order they were queued.
func (c *Conn) writeLoop() {
	var failed error
	for {
		w, ok := c.outq.pop(c.done)
		if !ok {
			return
		}
		err := failed
		if err == nil {
			c.trace.sent(c.name, w.data[:len(w.data)-1])
			if _, werr := c.stdin.Write(w.data); werr != nil {
				failed = fmt.Errorf("writing to the agent: %w", werr)
				err = failed
				c.logf("%v", err)
			} else {
				c.stats.sent.Add(1)
			}
		}
		c.outq.written(w)
		if w.done != nil {
			w.done <- err
		}
	}
}

// waitWritten waits until a queued message is written, ctx is done or the connection
// ends. A write in progress when ctx is done goes on.
func (c *Conn) waitWritten(ctx context.Context, w writeRequest) error {
	select {
	case err := <-w.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	case <-c.done:
		return c.Err()
	}
}

// post queues a notification without waiting for it to be written: it goes to the agent
// after every message queued before it. It fails only when the connection has ended.
func (c *Conn) post(method string, params any) error {
	data, err := encode(outMessage{Method: method, Params: params})
	if err != nil {
		return fmt.Errorf("encoding %s: %w", method, err)
	}
	if c.isDone() {
		return fmt.Errorf("sending %s: %w", method, c.Err())
	}
	c.outq.push(writeRequest{data: data}, c.done)
	return nil
}

// queueAnswer queues an answer to one of the agent's requests without waiting for it
// to be written, unless too many answers are queued already.
func (c *Conn) queueAnswer(data []byte) {
	c.outq.push(writeRequest{data: data, answer: true}, c.done)
}

// outMessage is every message Sidekicks sends.
type outMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  any             `json:"params,omitempty"`
	Result  any             `json:"result,omitempty"`
	Error   *outError       `json:"error,omitempty"`
}

type outError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

// encode turns a message into a line.
func encode(m outMessage) ([]byte, error) {
	m.JSONRPC = "2.0"
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// call sends a request and waits for its answer. onResult, when set, runs on the
// reading goroutine with a successful result before it is delivered; its error becomes
// the call's.
func (c *Conn) call(ctx context.Context, method string, params any, onResult func(json.RawMessage) error) (json.RawMessage, error) {
	r, err := c.prepare(method, params, onResult)
	if err != nil {
		return nil, err
	}
	c.queue(r)
	return c.await(ctx, r)
}

// request is one of Sidekicks' requests, registered for its answer and encoded: queue
// sends it, await waits for its answer. Splitting the call lets a session queue its
// prompt and a following cancel in one step (see Session.Prompt).
type request struct {
	id     int64
	method string
	p      *pending
	w      writeRequest
}

// prepare registers a request for its answer and encodes it, without sending it. A
// prepared request must be queued, then awaited.
func (c *Conn) prepare(method string, params any, onResult func(json.RawMessage) error) (*request, error) {
	p := &pending{method: method, ch: make(chan callResult, 1), onResult: onResult}
	c.mu.Lock()
	if c.ended {
		err := c.err
		c.mu.Unlock()
		return nil, fmt.Errorf("sending %s: %w", method, err)
	}
	c.nextID++
	id := c.nextID
	c.pending[id] = p
	c.mu.Unlock()

	data, err := encode(outMessage{ID: json.RawMessage(fmt.Sprint(id)), Method: method, Params: params})
	if err != nil {
		c.forget(id)
		return nil, fmt.Errorf("encoding %s: %w", method, err)
	}
	return &request{id: id, method: method, p: p, w: writeRequest{data: data, done: make(chan error, 1)}}, nil
}

// queue puts a prepared request in the outbox, after every message queued before it. It
// never waits.
func (c *Conn) queue(r *request) { c.outq.push(r.w, c.done) }

// await waits until a queued request is written, then for its answer, until ctx is done
// or the connection ends.
func (c *Conn) await(ctx context.Context, r *request) (json.RawMessage, error) {
	if err := c.waitWritten(ctx, r.w); err != nil {
		// The message may be on its way still: a late answer is dropped.
		if !c.abandon(r.id) {
			res := <-r.p.ch
			return res.result, res.err
		}
		return nil, fmt.Errorf("sending %s: %w", r.method, err)
	}
	select {
	case res := <-r.p.ch:
		return res.result, res.err
	case <-ctx.Done():
		if !c.abandon(r.id) {
			// The answer (or the end of the connection) is being delivered.
			res := <-r.p.ch
			return res.result, res.err
		}
		c.cancelCall(r.id, r.method)
		return nil, fmt.Errorf("waiting for the answer to %s: %w", r.method, ctx.Err())
	}
}

// forget removes the call id, which was not sent.
func (c *Conn) forget(id int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.pending, id)
}

// abandon stops waiting for the answer to id: a late answer is dropped silently instead
// of being counted as an unknown id. It returns false when the answer was taken for
// delivery already; it then arrives on the call's channel.
func (c *Conn) abandon(id int64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.pending[id]
	if p == nil {
		return false
	}
	p.ch = nil
	p.onResult = nil
	return true
}

// take removes and returns the call waiting for id, or nil.
func (c *Conn) take(id int64) *pending {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.pending[id]
	if p != nil {
		delete(c.pending, id)
	}
	return p
}
