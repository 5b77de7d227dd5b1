package acp

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"

	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// fastMessage is the first decoding of a line that scanChunk did not recognize: a
// session/update notification whose update is a text chunk is handled from these few
// fields alone, without the SDK's generic SessionUpdate decoding (about 4 times slower,
// with 4 times the allocations); another update, from its kind and session.
type fastMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		SessionID string `json:"sessionId"`
		Update    struct {
			Kind    string `json:"sessionUpdate"`
			Content struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		} `json:"update"`
	} `json:"params"`
}

// envelope is any JSON-RPC message, its parts left undecoded.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// isChunkKind reports whether kind is delivered through SessionHandler.Chunk.
func isChunkKind(kind string) bool {
	return kind == AgentMessageChunk || kind == AgentThoughtChunk || kind == UserMessageChunk
}

// handleLine handles one line of the agent's output, on the reading goroutine.
func (c *Conn) handleLine(data []byte) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return
	}
	c.stats.received.Add(1)
	switch data[0] {
	case '{':
	case '[':
		c.ignore("a batch (JSON-RPC batches are not supported)")
		return
	default:
		c.malformed(data, "not a JSON object")
		return
	}
	if chunk, ok := scanChunk(data); ok {
		s := c.sessionBytes(chunk.sessionID)
		if s == nil {
			c.ignore("an update for an unknown session")
			return
		}
		s.h.Chunk(chunk.kind, chunk.text)
		return
	}
	m := &c.fast
	*m = fastMessage{}
	err := json.Unmarshal(data, m)
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) {
		c.malformed(data, syntax.Error())
		return
	}
	// A field of another type than fastMessage expects (a tool call's content list, say)
	// is skipped by Unmarshal, which fills in the others: they still say whether this is
	// an update, of which session and kind.
	if m.ID == nil && m.Method == "session/update" && m.Params.Update.Kind != "" {
		s := c.session(m.Params.SessionID)
		if s == nil {
			c.ignore("an update for an unknown session")
			return
		}
		u := &m.Params.Update
		if err == nil && u.Content.Type == "text" && isChunkKind(u.Kind) {
			s.h.Chunk(u.Kind, u.Content.Text)
			return
		}
		c.applyUpdateOf(s, data, u.Kind)
		return
	}
	c.handleGeneral(data)
}

// handleGeneral handles any message but a text chunk.
func (c *Conn) handleGeneral(data []byte) {
	var env envelope
	if err := json.Unmarshal(data, &env); err != nil {
		c.ignore("a message of the wrong shape")
		return
	}
	hasID := len(env.ID) > 0 && string(env.ID) != "null"
	switch {
	case env.Method != "" && hasID:
		c.handleRequest(env)
	case env.Method != "":
		c.handleNotification(env)
	case hasID && (env.Result != nil || env.Error != nil):
		c.handleResponse(env)
	default:
		c.ignore("a message that is neither a request, a notification nor a response")
	}
}

// handleResponse delivers the answer to a call.
func (c *Conn) handleResponse(env envelope) {
	id, err := strconv.ParseInt(string(env.ID), 10, 64)
	if err != nil {
		c.ignore("a response with an id Sidekicks never sent")
		return
	}
	p := c.take(id)
	if p == nil {
		c.ignore("a response with an unknown or repeated id")
		return
	}
	if p.ch == nil {
		return // the caller stopped waiting
	}
	if len(env.Error) > 0 && string(env.Error) != "null" {
		p.ch <- callResult{err: decodeRPCError(p.method, env.Error)}
		return
	}
	var r callResult
	r.result = env.Result
	if p.onResult != nil {
		r.err = p.onResult(env.Result)
	}
	p.ch <- r
}

// decodeRPCError turns a JSON-RPC error object into an *RPCError.
func decodeRPCError(method string, raw json.RawMessage) error {
	var e struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(raw, &e); err != nil {
		return &RPCError{Method: method, Code: codeInternalError, Message: "an error of the wrong shape"}
	}
	return &RPCError{Method: method, Code: e.Code, Message: safetext.Snippet(e.Message, maxQuoted), Data: e.Data}
}

// handleNotification handles a notification from the agent.
func (c *Conn) handleNotification(env envelope) {
	switch env.Method {
	case CancelRequestMethod:
		c.handleCancelRequest(env.Params)
		return
	case ElicitationCompleteMethod:
		c.handleElicitationComplete(env.Params)
		return
	}
	if env.Method != "session/update" {
		c.ignore("a notification Sidekicks does not handle")
		return
	}
	var p struct {
		SessionID string          `json:"sessionId"`
		Update    json.RawMessage `json:"update"`
	}
	if err := json.Unmarshal(env.Params, &p); err != nil || p.Update == nil {
		c.ignore("a session/update of the wrong shape")
		return
	}
	s := c.session(p.SessionID)
	if s == nil {
		c.ignore("an update for an unknown session")
		return
	}
	c.applyUpdate(s, p.Update)
}

// handleSkipped handles a line over the limit, of which only the first bytes were kept.
func (c *Conn) handleSkipped(ln line) {
	c.stats.received.Add(1)
	c.trace.skipped(c.name, ln.size, c.opts.MaxLine)
	n := c.stats.oversize.Add(1)
	if isPowerOfTwo(n) {
		c.logf("skipped a line of %d bytes, over the %d-byte limit (%d so far)", ln.size, c.opts.MaxLine, n)
	}
	peek := peekMessage(ln.data)
	switch {
	case peek.request && peek.id != nil:
		c.answerLater(peek.id, nil, &outError{
			Code:    codeInvalidRequest,
			Message: "the request is over the client's " + byteSize(int64(c.opts.MaxLine)) + " limit and was not read",
		})
	case peek.response && peek.id != nil:
		id, err := strconv.ParseInt(string(peek.id), 10, 64)
		if err != nil {
			return
		}
		if p := c.take(id); p != nil && p.ch != nil {
			p.ch <- callResult{err: &OversizeError{Method: p.method, Size: ln.size, Limit: c.opts.MaxLine}}
		}
	}
}

// peeked is what the first bytes of a skipped line say about it.
type peeked struct {
	id       json.RawMessage
	request  bool
	response bool
}

// peekMessage reads the top-level keys at the start of a (truncated) message until the
// first structured value: "id" gives the id, "method" or "params" make it a request,
// "result" or "error" a response.
func peekMessage(prefix []byte) peeked {
	var p peeked
	dec := json.NewDecoder(bytes.NewReader(prefix))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return p
	}
	for {
		t, err := dec.Token()
		if err != nil {
			return p
		}
		key, ok := t.(string)
		if !ok {
			return p
		}
		switch key {
		case "params":
			p.request = true
			return p
		case "result", "error":
			p.response = true
			return p
		}
		v, err := dec.Token()
		if err != nil {
			return p
		}
		switch key {
		case "id":
			switch v := v.(type) {
			case json.Number:
				p.id = json.RawMessage(v.String())
			case string:
				p.id, _ = json.Marshal(v)
			}
		case "method":
			p.request = true
		}
		if _, structured := v.(json.Delim); structured {
			return p
		}
	}
}

// ignore counts a message that was well-formed JSON but not something to act on.
func (c *Conn) ignore(why string) {
	n := c.stats.ignored.Add(1)
	c.stats.setLastIgnored(why)
	if isPowerOfTwo(n) {
		c.logf("ignored %s (%d ignored so far)", why, n)
	}
}

// malformed counts a line that is not JSON.
func (c *Conn) malformed(data []byte, why string) {
	n := c.stats.malformed.Add(1)
	if isPowerOfTwo(n) {
		c.logf("malformed line (%s), %d so far: %s", safetext.Snippet(why, 100), n, safetext.Snippet(string(data), 100))
	}
}

func isPowerOfTwo(n int64) bool { return n > 0 && n&(n-1) == 0 }
