package testagents

import (
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
	p := newPeer("tools", in, out)
	for {
		m, ok := p.next()
		if !ok {
			return 0
		}
		if p.handshake(m, nil) || m.Method != "session/prompt" {
			continue
		}
		s := m.Params.SessionID
		file := p.cwd[s] + "/" + ToolsFile
		p.update(s, map[string]any{"sessionUpdate": "tool_call", "toolCallId": "run", "title": "Run the build",
			"kind": "execute", "status": "pending", "rawInput": map[string]any{"command": ToolsCommand}})
		p.update(s, map[string]any{"sessionUpdate": "tool_call", "toolCallId": "edit", "title": "Modifying critical configuration file",
			"kind": "edit", "status": "in_progress",
			"locations": []any{map[string]any{"path": file, "line": 12}},
			"content":   []any{map[string]any{"type": "diff", "path": file, "oldText": "{\"port\": 80}\n", "newText": "{\"port\": 8080}\n"}}})
		p.update(s, map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "ghost", "title": "Ghost call", "status": "in_progress"})
		p.update(s, map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "edit", "status": "completed"})
		p.say(s, "tools done")
		p.endTurn(m.ID)
	}
}
