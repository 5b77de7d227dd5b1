package demoagent

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"
)

// wait is how long a test waits for any one event before failing.
const wait = 10 * time.Second

// received is one message the agent wrote, decoded as JSON-RPC.
type received struct {
	raw    string
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

func (r received) isResponse() bool { return r.Method == "" && len(r.ID) > 0 }

// handler answers one of the agent's requests: a result, or an error sent back to it.
type handler func(params json.RawMessage) (any, *rpcError)

// testClient is a tiny ACP client that drives Run through pipes. Every line the agent
// writes is kept, and validated against the official schema when the test ends.
type testClient struct {
	t        *testing.T
	in       *io.PipeWriter
	msgs     chan received
	done     chan error
	cancel   context.CancelFunc
	handlers map[string]handler

	mu      sync.Mutex
	nextID  int64
	methods map[string]string // id sent → method, to know what a response answers
	lines   []string
}

func startAgent(t *testing.T, opts Options) *testClient {
	t.Helper()
	if opts.StateDir == "" {
		opts.StateDir = t.TempDir()
	}
	if opts.Exit == nil {
		opts.Exit = func(code int) { t.Errorf("unexpected exit(%d)", code) }
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	c := &testClient{
		t: t, in: inW, msgs: make(chan received, 1<<16), done: make(chan error, 1), cancel: cancel,
		handlers: map[string]handler{}, methods: map[string]string{},
	}
	go func() {
		err := Run(ctx, inR, outW, opts)
		outW.Close()
		inR.Close()
		c.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			line := sc.Text()
			c.mu.Lock()
			c.lines = append(c.lines, line)
			c.mu.Unlock()
			var r received
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Errorf("the agent wrote a line that is not JSON: %q", line)
				continue
			}
			r.raw = line
			c.msgs <- r
		}
		close(c.msgs)
	}()
	t.Cleanup(func() {
		c.close()
		c.validateAll()
	})
	return c
}

// close ends the agent's input and waits for Run to return.
func (c *testClient) close() error {
	c.in.Close()
	select {
	case err := <-c.done:
		c.done <- err
		return err
	case <-time.After(wait):
		c.t.Errorf("Run did not return after its input closed")
		c.cancel()
		return nil
	}
}

func (c *testClient) writeLine(v any) {
	c.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		c.t.Fatalf("encoding: %v", err)
	}
	c.writeRaw(string(b))
}

func (c *testClient) writeRaw(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatalf("writing to the agent: %v", err)
	}
}

// request sends a request and returns its id.
func (c *testClient) request(method string, params any) string {
	c.mu.Lock()
	c.nextID++
	id := fmt.Sprint(c.nextID)
	c.methods[id] = method
	c.mu.Unlock()
	c.writeLine(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "method": method, "params": params})
	return id
}

func (c *testClient) notify(method string, params any) {
	c.writeLine(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

func (c *testClient) respond(id json.RawMessage, result any, rerr *rpcError) {
	if rerr != nil {
		c.writeLine(map[string]any{"jsonrpc": "2.0", "id": id, "error": rerr})
		return
	}
	c.writeLine(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
}

// next returns the agent's next message, failing the test after the deadline.
func (c *testClient) next() received {
	c.t.Helper()
	select {
	case r, ok := <-c.msgs:
		if !ok {
			c.t.Fatalf("the agent's output ended")
		}
		return r
	case <-time.After(wait):
		c.t.Fatalf("no message from the agent within %s", wait)
		return received{}
	}
}

// turnLog is what arrived until a response: the session updates in order, and the
// requests the agent made.
type turnLog struct {
	updates  []sdk.SessionUpdate
	requests []received
	resp     received
}

// until reads messages until the response to id, answering the agent's requests with the
// handlers (a request without one fails the test).
func (c *testClient) until(id string) turnLog {
	c.t.Helper()
	var log turnLog
	for {
		r := c.next()
		switch {
		case r.isResponse():
			if string(r.ID) != id {
				c.t.Fatalf("response to id %s while waiting for %s: %s", r.ID, id, r.raw)
			}
			log.resp = r
			return log
		case len(r.ID) > 0:
			log.requests = append(log.requests, r)
			h, ok := c.handlers[r.Method]
			if !ok {
				c.t.Fatalf("unexpected request from the agent: %s", r.raw)
			}
			res, rerr := h(r.Params)
			c.respond(r.ID, res, rerr)
		case r.Method == sdk.ClientMethodSessionUpdate:
			log.updates = append(log.updates, decodeUpdate(c.t, r))
		default:
			c.t.Fatalf("unexpected notification: %s", r.raw)
		}
	}
}

func decodeUpdate(t *testing.T, r received) sdk.SessionUpdate {
	t.Helper()
	var n sdk.SessionNotification
	if err := json.Unmarshal(r.Params, &n); err != nil {
		t.Fatalf("decoding a session/update: %v: %s", err, r.raw)
	}
	return n.Update
}

func (c *testClient) initialize() sdk.InitializeResponse {
	c.t.Helper()
	id := c.request(sdk.AgentMethodInitialize, sdk.InitializeRequest{
		ProtocolVersion:    sdk.ProtocolVersionNumber,
		ClientCapabilities: sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true}},
	})
	log := c.until(id)
	var resp sdk.InitializeResponse
	c.result(log.resp, &resp)
	return resp
}

// newSession opens a session in cwd and returns its id and the updates that followed.
func (c *testClient) newSession(cwd string) (string, []sdk.SessionUpdate) {
	c.t.Helper()
	id := c.request(sdk.AgentMethodSessionNew, sdk.NewSessionRequest{Cwd: cwd, McpServers: []sdk.McpServer{}})
	log := c.until(id)
	var resp sdk.NewSessionResponse
	c.result(log.resp, &resp)
	// The commands are announced right after the answer.
	r := c.next()
	if r.Method != sdk.ClientMethodSessionUpdate {
		c.t.Fatalf("expected the commands after session/new, got %s", r.raw)
	}
	return string(resp.SessionId), append(log.updates, decodeUpdate(c.t, r))
}

func (c *testClient) result(r received, v any) {
	c.t.Helper()
	if r.Error != nil {
		c.t.Fatalf("the agent answered an error: %s", r.raw)
	}
	if err := json.Unmarshal(r.Result, v); err != nil {
		c.t.Fatalf("decoding the result: %v: %s", err, r.raw)
	}
}

// prompt sends a prompt made of blocks and returns what the turn produced.
func (c *testClient) prompt(sessionID string, blocks ...sdk.ContentBlock) turnLog {
	c.t.Helper()
	return c.until(c.sendPrompt(sessionID, blocks...))
}

func (c *testClient) sendPrompt(sessionID string, blocks ...sdk.ContentBlock) string {
	return c.request(sdk.AgentMethodSessionPrompt, sdk.PromptRequest{SessionId: sdk.SessionId(sessionID), Prompt: blocks})
}

func (c *testClient) stopReason(log turnLog) sdk.StopReason {
	c.t.Helper()
	var resp sdk.PromptResponse
	c.result(log.resp, &resp)
	return resp.StopReason
}

// replyText joins the agent_message_chunks of a turn.
func (l turnLog) replyText() string {
	var b strings.Builder
	for _, u := range l.updates {
		if u.AgentMessageChunk != nil && u.AgentMessageChunk.Content.Text != nil {
			b.WriteString(u.AgentMessageChunk.Content.Text.Text)
		}
	}
	return b.String()
}

func (l turnLog) count(pred func(sdk.SessionUpdate) bool) int {
	n := 0
	for _, u := range l.updates {
		if pred(u) {
			n++
		}
	}
	return n
}
