package testagents

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
)

// peer is the JSON-RPC side every test agent shares: it reads the client's messages a line
// at a time and writes its own, one a line, unbuffered.
type peer struct {
	mode     string
	sc       *bufio.Scanner
	enc      *json.Encoder
	sessions int
	cwd      map[string]string // each session's working directory
	calls    int               // the requests call sent
	sending  sync.Mutex        // an agent may send from a timer too
}

// message is one message from the client, as much of it as the test agents read.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		SessionID string        `json:"sessionId"`
		Cwd       string        `json:"cwd"`
		Prompt    []promptBlock `json:"prompt"`
	} `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
	line string // the message as it came
}

// promptBlock is a block of a prompt: text, a link, or an embedded resource.
type promptBlock struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	URI      string `json:"uri"`
	Resource struct {
		URI  string `json:"uri"`
		Text string `json:"text"`
	} `json:"resource"`
}

func newPeer(mode string, in io.Reader, out io.Writer) *peer {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	return &peer{mode: mode, sc: sc, enc: enc, cwd: map[string]string{}}
}

// next returns the client's next message, skipping lines that are not JSON; false when the
// client closed the connection.
func (p *peer) next() (*message, bool) {
	for p.sc.Scan() {
		var m message
		if json.Unmarshal(p.sc.Bytes(), &m) == nil {
			m.line = p.sc.Text()
			return &m, true
		}
	}
	return nil, false
}

// send writes one message.
func (p *peer) send(v any) {
	p.sending.Lock()
	defer p.sending.Unlock()
	_ = p.enc.Encode(v)
}

// answer answers the request id with result.
func (p *peer) answer(id json.RawMessage, result any) {
	p.send(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
}

// request sends the client a request.
func (p *peer) request(id int, method string, params any) {
	p.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

// call sends the client a request and waits for its answer, skipping what comes
// meanwhile; false when the client went away first.
func (p *peer) call(method string, params any) (*message, bool) {
	p.calls++
	id := 1000 + p.calls
	p.request(id, method, params)
	for {
		m, ok := p.next()
		if !ok || m.isAnswerTo(id) {
			return m, ok
		}
	}
}

// update sends a session/update of session.
func (p *peer) update(session string, u map[string]any) {
	p.send(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{"sessionId": session, "update": u}})
}

// say sends text as a message chunk of session.
func (p *peer) say(session, text string) { p.update(session, textUpdate("agent_message_chunk", text)) }

// endTurn answers the prompt id: the turn ended normally.
func (p *peer) endTurn(id json.RawMessage) { p.answer(id, map[string]any{"stopReason": "end_turn"}) }

// textUpdate is a session update of kind (a message or thought chunk) holding text.
func textUpdate(kind, text string) map[string]any {
	return map[string]any{"sessionUpdate": kind, "content": map[string]any{"type": "text", "text": text}}
}

// handshake answers initialize (protocol version 1, no session/load, and capabilities
// added to the agent's capabilities) and session/new (the session "MODE-N", whose working
// directory it keeps); it says whether m was one of them.
func (p *peer) handshake(m *message, capabilities map[string]any) bool {
	switch m.Method {
	case "initialize":
		caps := map[string]any{"loadSession": false}
		for k, v := range capabilities {
			caps[k] = v
		}
		p.answer(m.ID, map[string]any{"protocolVersion": 1, "agentCapabilities": caps})
	case "session/new":
		p.sessions++
		id := fmt.Sprintf("%s-%d", p.mode, p.sessions)
		p.cwd[id] = m.Params.Cwd
		p.answer(m.ID, map[string]any{"sessionId": id})
	default:
		return false
	}
	return true
}

// promptText is the text of a prompt's text blocks, each followed by a space.
func (m *message) promptText() string {
	var b strings.Builder
	for _, block := range m.Params.Prompt {
		if block.Type == "text" {
			b.WriteString(block.Text + " ")
		}
	}
	return b.String()
}

// isAnswerTo says whether m is the client's answer to the request id.
func (m *message) isAnswerTo(id int) bool {
	return m.Method == "" && string(m.ID) == fmt.Sprint(id)
}
