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

// write sends one message (a line ending in "\n"), waiting until it is written, ctx is
// done or the connection ends. A write in progress when ctx is done goes on.
func (c *Conn) write(ctx context.Context, data []byte) error {
	w := writeRequest{data: data, done: make(chan error, 1)}
	if !c.outq.push(w, c.done) {
		return c.Err()
	}
	select {
	case err := <-w.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	case <-c.done:
		return c.Err()
	}
}

// queueAnswer queues an answer to one of the agent's requests without waiting for it
// to be written, unless too many answers are queued already.
func (c *Conn) queueAnswer(data []byte) {
	c.outq.push(writeRequest{data: data}, c.done)
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
	if err := c.write(ctx, data); err != nil {
		// The message may be on its way still: a late answer is dropped.
		if !c.abandon(id) {
			r := <-p.ch
			return r.result, r.err
		}
		return nil, fmt.Errorf("sending %s: %w", method, err)
	}
	select {
	case r := <-p.ch:
		return r.result, r.err
	case <-ctx.Done():
		if !c.abandon(id) {
			// The answer (or the end of the connection) is being delivered.
			r := <-p.ch
			return r.result, r.err
		}
		return nil, fmt.Errorf("waiting for the answer to %s: %w", method, ctx.Err())
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

// notify sends a notification.
func (c *Conn) notify(ctx context.Context, method string, params any) error {
	data, err := encode(outMessage{Method: method, Params: params})
	if err != nil {
		return fmt.Errorf("encoding %s: %w", method, err)
	}
	if err := c.write(ctx, data); err != nil {
		return fmt.Errorf("sending %s: %w", method, err)
	}
	return nil
}
