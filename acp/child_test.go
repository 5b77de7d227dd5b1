package acp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
)

// This file is the framework of the test agents: a re-executed test binary that speaks
// just enough ACP, with its own framing, to misbehave on purpose. The scenarios are in
// scenarios_test.go; the prompt's first word picks one.

// cmsg is any message, as a test agent sees it.
type cmsg struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *cerr           `json:"error,omitempty"`
}

type cerr struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// child is a test agent.
type child struct {
	behaviour string

	wmu sync.Mutex
	w   *bufio.Writer

	// gate, while held, stops the reading of stdin after at most one more line.
	gate sync.Mutex

	pmu      sync.Mutex
	nextID   int
	pending  map[int]chan cmsg
	incoming chan cmsg

	tmu      sync.Mutex
	cancel   context.CancelFunc
	sessions int

	// wire is the order in which the agent read the client's prompts ("prompt"), cancels
	// ("cancel") and answers to its own requests ("answer").
	lmu  sync.Mutex
	wire []string
}

// heard records one message in c.wire.
func (c *child) heard(what string) {
	c.lmu.Lock()
	c.wire = append(c.wire, what)
	c.lmu.Unlock()
}

// wireLog returns c.wire so far.
func (c *child) wireLog() []string {
	c.lmu.Lock()
	defer c.lmu.Unlock()
	return append([]string(nil), c.wire...)
}

func runChild(behaviour string) {
	c := &child{
		behaviour: behaviour,
		w:         bufio.NewWriterSize(os.Stdout, 1<<20),
		pending:   map[int]chan cmsg{},
		incoming:  make(chan cmsg, 64),
	}
	go c.readLoop(os.Stdin)
	c.serve()
}

func (c *child) readLoop(in io.Reader) {
	br := bufio.NewReaderSize(in, 1<<20)
	for {
		line, err := br.ReadBytes('\n')
		c.gate.Lock()
		c.gate.Unlock() //nolint:staticcheck // an empty critical section: waiting for the gate
		if len(strings.TrimSpace(string(line))) > 0 {
			var m cmsg
			if json.Unmarshal(line, &m) == nil {
				switch m.Method {
				case "":
					c.heard("answer")
				case "session/prompt":
					c.heard("prompt")
				case "session/cancel":
					c.heard("cancel")
				}
				if m.Method == "" {
					id, _ := strconv.Atoi(string(m.ID))
					c.pmu.Lock()
					ch := c.pending[id]
					delete(c.pending, id)
					c.pmu.Unlock()
					if ch != nil {
						ch <- m
					}
				} else {
					c.incoming <- m
				}
			}
		}
		if err != nil {
			close(c.incoming)
			return
		}
	}
}

// raw writes one line as it is.
func (c *child) raw(line string) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.w.WriteString(line)
	c.w.WriteByte('\n')
	c.w.Flush()
}

// rawNoFlush writes one line and flushes only when the buffer is full.
func (c *child) rawNoFlush(line []byte) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.w.Write(line)
}

func (c *child) flush() {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.w.Flush()
}

func (c *child) send(m cmsg) {
	m.JSONRPC = "2.0"
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	c.raw(string(b))
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func (c *child) reply(id json.RawMessage, result any) {
	c.send(cmsg{ID: id, Result: mustJSON(result)})
}

func (c *child) replyErr(id json.RawMessage, code int, msg string) {
	c.send(cmsg{ID: id, Error: &cerr{Code: code, Message: msg}})
}

func (c *child) notify(method string, params any) {
	c.send(cmsg{Method: method, Params: mustJSON(params)})
}

// update sends a session/update.
func (c *child) update(sid string, u map[string]any) {
	c.notify("session/update", map[string]any{"sessionId": sid, "update": u})
}

// chunk sends a text chunk of a kind.
func (c *child) chunk(sid, kind, text string) {
	c.update(sid, map[string]any{"sessionUpdate": kind, "content": map[string]any{"type": "text", "text": text}})
}

// callAsync sends a request and returns where its answer will arrive.
func (c *child) callAsync(method string, params any) chan cmsg {
	ch := make(chan cmsg, 1)
	c.pmu.Lock()
	c.nextID++
	id := c.nextID
	c.pending[id] = ch
	c.pmu.Unlock()
	c.send(cmsg{ID: json.RawMessage(strconv.Itoa(id)), Method: method, Params: mustJSON(params)})
	return ch
}

// call sends a request and waits for its answer (an empty message when stdin ends).
func (c *child) call(method string, params any) cmsg {
	return <-c.callAsync(method, params)
}

func (c *child) serve() {
	for m := range c.incoming {
		switch m.Method {
		case "initialize":
			c.initialize(m)
		case "session/new":
			if c.behaviour == "auth" {
				c.replyErr(m.ID, -32000, "Authentication required")
				continue
			}
			c.tmu.Lock()
			c.sessions++
			sid := fmt.Sprintf("s%d", c.sessions)
			c.tmu.Unlock()
			c.reply(m.ID, map[string]any{"sessionId": sid})
		case "session/load":
			var p struct {
				SessionID string `json:"sessionId"`
			}
			json.Unmarshal(m.Params, &p)
			c.chunk(p.SessionID, "user_message_chunk", "earlier question")
			c.chunk(p.SessionID, "agent_message_chunk", "earlier answer")
			c.reply(m.ID, map[string]any{})
		case "session/prompt":
			ctx, cancel := context.WithCancel(context.Background())
			c.tmu.Lock()
			c.cancel = cancel
			c.tmu.Unlock()
			go c.prompt(ctx, m)
		case "session/cancel":
			c.tmu.Lock()
			if c.cancel != nil {
				c.cancel()
			}
			c.tmu.Unlock()
		default:
			if len(m.ID) > 0 {
				c.replyErr(m.ID, -32601, "method not found")
			}
		}
	}
}

func (c *child) initialize(m cmsg) {
	result := map[string]any{
		"protocolVersion":   1,
		"agentCapabilities": map[string]any{"loadSession": c.behaviour == "load", "promptCapabilities": map[string]any{"embeddedContext": true}},
		"agentInfo":         map[string]any{"name": "test-agent", "version": "0.1"},
		"authMethods":       []any{},
	}
	switch c.behaviour {
	case "silent":
		return
	case "version2":
		result["protocolVersion"] = 2
	case "versionstring":
		result["protocolVersion"] = "2025-\x1b[31m01"
	case "auth", "authprompt":
		result["authMethods"] = []any{
			map[string]any{"id": "browser", "name": "Log in \x1b[31mwith a browser", "description": "opens a browser"},
			map[string]any{"id": "key", "name": "API key"},
		}
	}
	c.reply(m.ID, result)
}

// prompt runs one turn: the first word of the prompt's text names the scenario.
func (c *child) prompt(ctx context.Context, m cmsg) {
	var p struct {
		SessionID string `json:"sessionId"`
		Prompt    []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"prompt"`
	}
	json.Unmarshal(m.Params, &p)
	if c.behaviour == "authprompt" {
		c.replyErr(m.ID, -32000, "Authentication required")
		return
	}
	var words []string
	if len(p.Prompt) > 0 {
		words = strings.Fields(p.Prompt[0].Text)
	}
	if len(words) == 0 {
		words = []string{"echo"}
	}
	t := &childTurn{c: c, ctx: ctx, id: m.ID, sid: p.SessionID, args: words[1:]}
	if len(p.Prompt) > 0 {
		t.text = strings.TrimSpace(strings.TrimPrefix(p.Prompt[0].Text, words[0]))
	}
	run := scenarios[words[0]]
	if run == nil {
		c.replyErr(m.ID, -32602, "no scenario "+words[0])
		return
	}
	run(t)
}

// childTurn is one prompt turn of a test agent.
type childTurn struct {
	c    *child
	ctx  context.Context
	id   json.RawMessage
	sid  string
	args []string
	text string // the prompt's text after the scenario's name
}

func (t *childTurn) end(reason string) { t.c.reply(t.id, map[string]any{"stopReason": reason}) }

func (t *childTurn) say(text string) { t.c.chunk(t.sid, "agent_message_chunk", text) }

func (t *childTurn) argInt(i int) int {
	if i >= len(t.args) {
		return 0
	}
	n, _ := strconv.Atoi(t.args[i])
	return n
}
