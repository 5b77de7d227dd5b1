package demoagent

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"sync/atomic"
)

// JSON-RPC 2.0 error codes the agent answers with.
const (
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeInternalError  = -32603
)

// maxLineBytes caps one incoming line; a longer line is skipped while it is read, never held
// whole (a prompt with embedded files can be large, but not unbounded).
const maxLineBytes = 64 << 20

// errClosed is returned by calls made after the connection ended.
var errClosed = errors.New("connection closed")

// rpcError is a JSON-RPC error object, both received and sent.
type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *rpcError) Error() string {
	return fmt.Sprintf("%s (code %d)", e.Message, e.Code)
}

// inMessage is any message the client sends: a request (method and id), a notification
// (method, no id) or a response (id, result or error).
type inMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

type outRequest struct {
	JSONRPC string `json:"jsonrpc"`
	ID      int64  `json:"id"`
	Method  string `json:"method"`
	Params  any    `json:"params"`
}

type outNotification struct {
	JSONRPC string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  any    `json:"params"`
}

type outResult struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result"`
}

type outError struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   rpcError        `json:"error"`
}

// reply is what a pending call receives: the raw result or the error.
type reply struct {
	result json.RawMessage
	err    error
}

// wire is the agent's side of the JSON-RPC connection: it writes one message per line,
// serialized by a mutex, and keeps the calls waiting for the client's responses.
type wire struct {
	mu     sync.Mutex // guards w
	w      *bufio.Writer
	closed atomic.Bool

	pmu     sync.Mutex // guards pending and nextID
	pending map[int64]chan reply
	nextID  int64
}

func newWire(out io.Writer) *wire {
	return &wire{w: bufio.NewWriterSize(out, 64<<10), pending: make(map[int64]chan reply)}
}

// writeRaw writes one line; flush says whether it must reach the client now (a flood
// leaves it to the buffer).
func (c *wire) writeRaw(line []byte, flush bool) error {
	if c.closed.Load() {
		return errClosed
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := c.w.Write(line); err != nil {
		return fmt.Errorf("writing a message: %w", err)
	}
	if err := c.w.WriteByte('\n'); err != nil {
		return fmt.Errorf("writing a message: %w", err)
	}
	if flush {
		if err := c.w.Flush(); err != nil {
			return fmt.Errorf("writing a message: %w", err)
		}
	}
	return nil
}

func (c *wire) write(msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return fmt.Errorf("encoding a message: %w", err)
	}
	return c.writeRaw(b, true)
}

// flush sends what a flood left in the buffer.
func (c *wire) flush() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.w.Flush()
}

func (c *wire) notify(method string, params any) error {
	return c.write(outNotification{JSONRPC: "2.0", Method: method, Params: params})
}

func (c *wire) respond(id json.RawMessage, result any) error {
	return c.write(outResult{JSONRPC: "2.0", ID: id, Result: result})
}

func (c *wire) respondError(id json.RawMessage, code int, message string) error {
	return c.write(outError{JSONRPC: "2.0", ID: id, Error: rpcError{Code: code, Message: message}})
}

// call sends a request to the client and waits for its response, or for ctx to end (then
// the response, when it comes, is ignored).
func (c *wire) call(ctx context.Context, method string, params, result any) error {
	ch := make(chan reply, 1)
	c.pmu.Lock()
	if c.closed.Load() {
		c.pmu.Unlock()
		return errClosed
	}
	c.nextID++
	id := c.nextID
	c.pending[id] = ch
	c.pmu.Unlock()
	defer func() {
		c.pmu.Lock()
		delete(c.pending, id)
		c.pmu.Unlock()
	}()
	if err := c.write(outRequest{JSONRPC: "2.0", ID: id, Method: method, Params: params}); err != nil {
		return err
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case r := <-ch:
		if r.err != nil {
			return r.err
		}
		if result != nil {
			if err := json.Unmarshal(r.result, result); err != nil {
				return fmt.Errorf("decoding the answer to %s: %w", method, err)
			}
		}
		return nil
	}
}

// deliver hands a response to the call waiting for it; it reports false for an id nobody
// waits for.
func (c *wire) deliver(m *inMessage) bool {
	id, err := strconv.ParseInt(string(bytes.TrimSpace(m.ID)), 10, 64)
	if err != nil {
		return false
	}
	c.pmu.Lock()
	ch, ok := c.pending[id]
	delete(c.pending, id)
	c.pmu.Unlock()
	if !ok {
		return false
	}
	if m.Error != nil {
		ch <- reply{err: m.Error}
	} else {
		ch <- reply{result: m.Result}
	}
	return true
}

// close stops every later write and fails the calls still waiting.
func (c *wire) close() {
	c.pmu.Lock()
	c.closed.Store(true)
	for id, ch := range c.pending {
		ch <- reply{err: errClosed}
		delete(c.pending, id)
	}
	c.pmu.Unlock()
}

// readLines sends each line of r to lines until r ends or done is closed. A line longer
// than limit bytes is skipped (reported through skipped) without being held in memory.
func readLines(r io.Reader, limit int, lines chan<- []byte, skipped func(n int64), done <-chan struct{}) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, over, err := readLine(br, limit)
		if over > 0 {
			skipped(over)
		} else if len(bytes.TrimSpace(line)) > 0 {
			select {
			case lines <- line:
			case <-done:
				return nil
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("reading from the client: %w", err)
		}
	}
}

// readLine returns the next line without its newline, or, for a line over limit bytes,
// nil and the number of bytes skipped.
func readLine(br *bufio.Reader, limit int) ([]byte, int64, error) {
	var line []byte
	var skipped int64
	for {
		frag, err := br.ReadSlice('\n')
		if skipped > 0 || len(line)+len(frag) > limit+1 { // +1: the newline
			skipped += int64(len(line) + len(frag))
			line = nil
		} else {
			line = append(line, frag...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if skipped > 0 {
			return nil, skipped, err
		}
		return bytes.TrimSuffix(line, []byte("\n")), 0, err
	}
}
