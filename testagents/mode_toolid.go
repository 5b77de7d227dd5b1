package testagents

import (
	"io"
	"strings"
)

// The sameid agent gives every tool call the same id, as an agent that numbers its calls
// from 1 in each turn or each process does: on session/prompt it sends a tool_call "call-1"
// titled "Tool <text>", completed with the prompt's text as content, then replies
// "done <text>". It cannot load sessions.
func init() { modes["sameid"] = serveSameID }

func serveSameID(in io.Reader, out, _ io.Writer) int {
	p := newPeer("sameid", in, out)
	for {
		m, ok := p.next()
		if !ok {
			return 0
		}
		if p.handshake(m, nil) || m.Method != "session/prompt" {
			continue
		}
		sid, text := m.Params.SessionID, strings.TrimSpace(m.promptText())
		p.update(sid, map[string]any{"sessionUpdate": "tool_call", "toolCallId": "call-1",
			"title": "Tool " + text, "kind": "read", "status": "in_progress"})
		p.update(sid, map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "call-1", "status": "completed",
			"content": []any{map[string]any{"type": "content", "content": map[string]any{"type": "text", "text": text}}}})
		p.say(sid, "done "+text)
		p.endTurn(m.ID)
	}
}
