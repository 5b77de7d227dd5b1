package testagents

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// serveTestAgent is a small misbehaving ACP agent, in the mode named by
// SIDEKICKS_TEST_AGENT:
//   - noload: a plain agent without session/load, which answers "ok";
//   - stubborn: streams a word, then never ends its turn, ignoring session/cancel;
//   - hostile: escape sequences, C1 and bidirectional controls in every text it sends
//     (chunks, thought, tool title, plan, permission options), and on its stderr;
//   - crashy: writes escape sequences on stderr, then exits in the middle of the turn;
//   - pushy: asks permission to write asked.txt in its working directory, then writes it
//     whatever the answer, then writes other.txt (which it never asked about), and
//     replies with what became of each write ("asked.txt: written" or "asked.txt:
//     refused: <the client's message>").
//
// HostileText holds what no terminal may receive from an agent: CSI, OSC 52 (clipboard),
// OSC 0 (title), a C1 CSI, a bidirectional override, a bell, a carriage return.
const HostileText = "A\x1b[31mred\x1b[0m \x1b]52;c;SGVsbG8=\x07\x1b]0;pwned\x07\u009b2J\u202eevil\a\rB"

// modes holds the misbehaving agents kept in files of their own, by mode: each such file
// adds its agent from an init function.
var modes = map[string]func(in io.Reader, out, stderr io.Writer) int{}

func serveTestAgent(mode string, in io.Reader, out, stderr io.Writer) int {
	if serve, ok := modes[mode]; ok {
		return serve(in, out, stderr)
	}
	p := newPeer(mode, in, out)
	var promptID json.RawMessage // the prompt waiting for the permission's answer
	var promptSession string
	var pushed []string // what became of the pushy agent's writes
	pushyWrite := func(id int, name string) {
		p.request(id, "fs/write_text_file", map[string]any{
			"sessionId": promptSession, "path": p.cwd[promptSession] + "/" + name, "content": "pushed " + name,
		})
	}
	for {
		m, ok := p.next()
		if !ok {
			break
		}
		switch {
		case p.handshake(m, nil):
		case m.Method == "session/prompt":
			s := m.Params.SessionID
			switch mode {
			case "noload":
				p.say(s, "ok")
				p.endTurn(m.ID)
			case "stubborn":
				p.say(s, "working")
			case "crashy":
				p.say(s, "about to fall")
				fmt.Fprintln(stderr, "panic: "+HostileText)
				return 7
			case "hostile":
				fmt.Fprintln(stderr, HostileText)
				p.update(s, textUpdate("agent_thought_chunk", "think "+HostileText))
				p.update(s, map[string]any{"sessionUpdate": "plan", "entries": []any{
					map[string]any{"content": "step " + HostileText, "priority": "high", "status": "pending"}}})
				p.update(s, map[string]any{"sessionUpdate": "tool_call", "toolCallId": "t1", "title": "tool " + HostileText, "kind": "edit", "status": "pending"})
				p.say(s, "reply "+HostileText[:4])
				p.say(s, HostileText[4:]+"\n")
				p.request(900, "session/request_permission", map[string]any{
					"sessionId": s,
					"toolCall":  map[string]any{"toolCallId": "t1", "title": "tool " + HostileText},
					"options": []any{
						map[string]any{"optionId": "ok", "name": "Allow " + HostileText, "kind": "allow_once"},
						map[string]any{"optionId": "no", "name": "Reject " + HostileText, "kind": "reject_once"},
					},
				})
				promptID, promptSession = m.ID, s
			case "pushy":
				asked := p.cwd[s] + "/asked.txt"
				p.request(901, "session/request_permission", map[string]any{
					"sessionId": s,
					"toolCall": map[string]any{"toolCallId": "w1", "title": "Write asked.txt", "kind": "edit",
						"locations": []any{map[string]any{"path": asked}},
						"content":   []any{map[string]any{"type": "diff", "path": asked, "newText": "pushed asked.txt"}}},
					"options": []any{
						map[string]any{"optionId": "ok", "name": "Allow", "kind": "allow_once"},
						map[string]any{"optionId": "no", "name": "Reject", "kind": "reject_once"},
					},
				})
				promptID, promptSession, pushed = m.ID, s, nil
			}
		case m.isAnswerTo(901) && promptID != nil:
			pushyWrite(902, "asked.txt")
		case (m.isAnswerTo(902) || m.isAnswerTo(903)) && promptID != nil:
			name := map[string]string{"902": "asked.txt", "903": "other.txt"}[string(m.ID)]
			if m.Error != nil {
				pushed = append(pushed, name+": refused: "+m.Error.Message)
			} else {
				pushed = append(pushed, name+": written")
			}
			if m.isAnswerTo(902) {
				pushyWrite(903, "other.txt")
				continue
			}
			p.say(promptSession, strings.Join(pushed, "\n")+"\n")
			p.endTurn(promptID)
			promptID = nil
		case m.isAnswerTo(900) && promptID != nil:
			answered := "refused"
			if strings.Contains(m.line, `"optionId":"ok"`) {
				answered = "allowed"
			}
			p.update(promptSession, map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "t1", "status": "completed"})
			p.say(promptSession, "permission "+answered+"\n")
			p.endTurn(promptID)
			promptID = nil
		}
	}
	return 0
}
