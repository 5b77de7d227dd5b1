package testagents

import (
	"encoding/json"
	"io"
)

// The agents that fail the way real ones do, so that the errors Sidekicks shows can be
// checked:
//   - rpcerror: answers every prompt with the JSON-RPC error a TypeScript agent sends when
//     its upstream fails: code -32603, message "Internal error", and the cause in its data
//     (RPCErrorData);
//   - nokey: refuses session/new with error -32000 and its own message (NoKeyMessage),
//     as gemini does without an API key;
//   - version2: answers initialize with protocol version 2, then waits for its stdin to
//     close and exits with status 0;
//   - mute: never answers anything, and exits with status 0 when its stdin closes.
//
// The last two exit by themselves as soon as the client gives up on them: the exit must
// not hide why it gave up.
const (
	RPCErrorDetails = "upstream 529 overloaded"
	NoKeyMessage    = "Gemini API key is missing or not configured."
)

// RPCErrorData is the data of rpcerror's error: the cause, then a hint in escape
// sequences that must reach no screen.
var RPCErrorData = map[string]any{"details": RPCErrorDetails, "hint": "\x1b[31mretry\x1b[0m later"}

func init() {
	for _, mode := range []string{"rpcerror", "nokey", "version2", "mute"} {
		modes[mode] = func(in io.Reader, out, _ io.Writer) int { return serveErrors(mode, in, out) }
	}
}

func serveErrors(mode string, in io.Reader, out io.Writer) int {
	p := newPeer(mode, in, out)
	fail := func(id json.RawMessage, e map[string]any) {
		p.send(map[string]any{"jsonrpc": "2.0", "id": id, "error": e})
	}
	for {
		m, ok := p.next()
		if !ok {
			return 0
		}
		switch {
		case mode == "mute":
		case m.Method == "initialize":
			version := 1
			if mode == "version2" {
				version = 2
			}
			p.answer(m.ID, map[string]any{"protocolVersion": version, "agentCapabilities": map[string]any{"loadSession": false},
				"authMethods": []any{map[string]any{"id": "gemini-api-key", "name": "Use Gemini API key"}}})
		case m.Method == "session/new" && mode == "nokey":
			fail(m.ID, map[string]any{"code": -32000, "message": NoKeyMessage})
		case p.handshake(m, nil):
		case m.Method == "session/prompt":
			fail(m.ID, map[string]any{"code": -32603, "message": "Internal error", "data": RPCErrorData})
		}
	}
}
