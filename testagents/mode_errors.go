package testagents

import (
	"bufio"
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
	modes["rpcerror"] = func(in io.Reader, out, _ io.Writer) int { return serveErrors("rpcerror", in, out) }
	modes["nokey"] = func(in io.Reader, out, _ io.Writer) int { return serveErrors("nokey", in, out) }
	modes["version2"] = func(in io.Reader, out, _ io.Writer) int { return serveErrors("version2", in, out) }
	modes["mute"] = func(in io.Reader, out, _ io.Writer) int { return serveErrors("mute", in, out) }
}

func serveErrors(mode string, in io.Reader, out io.Writer) int {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	send := func(v any) {
		b, _ := json.Marshal(v)
		_, _ = out.Write(append(b, '\n'))
	}
	answer := func(id json.RawMessage, result any) {
		send(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
	}
	fail := func(id json.RawMessage, e map[string]any) {
		send(map[string]any{"jsonrpc": "2.0", "id": id, "error": e})
	}
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil || mode == "mute" {
			continue
		}
		switch m.Method {
		case "initialize":
			version := 1
			if mode == "version2" {
				version = 2
			}
			answer(m.ID, map[string]any{"protocolVersion": version, "agentCapabilities": map[string]any{"loadSession": false},
				"authMethods": []any{map[string]any{"id": "gemini-api-key", "name": "Use Gemini API key"}}})
		case "session/new":
			if mode == "nokey" {
				fail(m.ID, map[string]any{"code": -32000, "message": NoKeyMessage})
				continue
			}
			answer(m.ID, map[string]any{"sessionId": mode + "-1"})
		case "session/prompt":
			fail(m.ID, map[string]any{"code": -32603, "message": "Internal error", "data": RPCErrorData})
		}
	}
	return 0
}
