package testagents

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
)

// ToolsCommand is the command of the "tools" agent's execute call: escape sequences (a
// colour, a window title, a clipboard write), a newline, then a line far longer than a
// screen, whose end (ToolsCommandEnd) no screen may show.
var ToolsCommand = "echo \x1b[31mred\x1b[0m\x1b]0;pwned\x07\x1b]52;c;SGVsbG8=\x07\nrm -rf build && " +
	strings.Repeat("x", 5000) + ToolsCommandEnd

// ToolsCommandEnd ends ToolsCommand.
const ToolsCommandEnd = " && echo THE-END"

// ToolsFile is the file the "tools" agent's edit call works on, in its working directory,
// at line 12.
const ToolsFile = "config.json"

func init() { modes["tools"] = serveTools }

// serveTools is the "tools" agent: to every prompt it answers with tool calls that say
// what they do, and ends its turn leaving two of them unfinished:
//   - "run", an execute call whose rawInput is {"command": ToolsCommand}, left pending;
//   - "edit", titled "Modifying critical configuration file", an edit of ToolsFile at
//     line 12 with its diff, then completed;
//   - "ghost", a tool_call_update for an id it never announced ("Ghost call", in progress);
//
// then the reply "tools done".
func serveTools(in io.Reader, out, _ io.Writer) int {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	w := bufio.NewWriter(out)
	send := func(v any) {
		b, _ := json.Marshal(v)
		_, _ = w.Write(append(b, '\n'))
		_ = w.Flush()
	}
	var cwd string
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				SessionID string `json:"sessionId"`
				Cwd       string `json:"cwd"`
			} `json:"params"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		answer := func(result any) { send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result}) }
		update := func(u map[string]any) {
			send(map[string]any{"jsonrpc": "2.0", "method": "session/update",
				"params": map[string]any{"sessionId": m.Params.SessionID, "update": u}})
		}
		switch m.Method {
		case "initialize":
			answer(map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{"loadSession": false}})
		case "session/new":
			cwd = m.Params.Cwd
			answer(map[string]any{"sessionId": "tools-1"})
		case "session/prompt":
			file := cwd + "/" + ToolsFile
			update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": "run", "title": "Run the build",
				"kind": "execute", "status": "pending", "rawInput": map[string]any{"command": ToolsCommand}})
			update(map[string]any{"sessionUpdate": "tool_call", "toolCallId": "edit", "title": "Modifying critical configuration file",
				"kind": "edit", "status": "in_progress",
				"locations": []any{map[string]any{"path": file, "line": 12}},
				"content":   []any{map[string]any{"type": "diff", "path": file, "oldText": "{\"port\": 80}\n", "newText": "{\"port\": 8080}\n"}}})
			update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "ghost", "title": "Ghost call", "status": "in_progress"})
			update(map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "edit", "status": "completed"})
			update(map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": "tools done"}})
			answer(map[string]any{"stopReason": "end_turn"})
		}
	}
	return 0
}
