package testagents

import (
	"bufio"
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
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	w := bufio.NewWriter(out)
	send := func(v any) {
		b, _ := json.Marshal(v)
		_, _ = w.Write(append(b, '\n'))
		_ = w.Flush()
	}
	answer := func(id json.RawMessage, result any) {
		send(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
	}
	update := func(session string, u map[string]any) {
		send(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{"sessionId": session, "update": u}})
	}
	text := func(kind, s string) map[string]any {
		return map[string]any{"sessionUpdate": kind, "content": map[string]any{"type": "text", "text": s}}
	}
	sessions := 0
	var promptID json.RawMessage // the prompt waiting for the permission's answer
	var promptSession string
	cwd := map[string]string{} // each session's working directory
	var pushed []string        // what became of the pushy agent's writes
	pushyWrite := func(id int, name string) {
		send(map[string]any{"jsonrpc": "2.0", "id": id, "method": "fs/write_text_file", "params": map[string]any{
			"sessionId": promptSession, "path": cwd[promptSession] + "/" + name, "content": "pushed " + name,
		}})
	}
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				SessionID string `json:"sessionId"`
				Cwd       string `json:"cwd"`
			} `json:"params"`
			Error *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		switch {
		case m.Method == "initialize":
			answer(m.ID, map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{"loadSession": false}})
		case m.Method == "session/new":
			sessions++
			id := fmt.Sprintf("%s-%d", mode, sessions)
			cwd[id] = m.Params.Cwd
			answer(m.ID, map[string]any{"sessionId": id})
		case m.Method == "session/prompt":
			s := m.Params.SessionID
			switch mode {
			case "noload":
				update(s, text("agent_message_chunk", "ok"))
				answer(m.ID, map[string]any{"stopReason": "end_turn"})
			case "stubborn":
				update(s, text("agent_message_chunk", "working"))
			case "crashy":
				update(s, text("agent_message_chunk", "about to fall"))
				fmt.Fprintln(stderr, "panic: "+HostileText)
				return 7
			case "hostile":
				fmt.Fprintln(stderr, HostileText)
				update(s, text("agent_thought_chunk", "think "+HostileText))
				update(s, map[string]any{"sessionUpdate": "plan", "entries": []any{
					map[string]any{"content": "step " + HostileText, "priority": "high", "status": "pending"}}})
				update(s, map[string]any{"sessionUpdate": "tool_call", "toolCallId": "t1", "title": "tool " + HostileText, "kind": "edit", "status": "pending"})
				update(s, text("agent_message_chunk", "reply "+HostileText[:4]))
				update(s, text("agent_message_chunk", HostileText[4:]+"\n"))
				send(map[string]any{"jsonrpc": "2.0", "id": 900, "method": "session/request_permission", "params": map[string]any{
					"sessionId": s,
					"toolCall":  map[string]any{"toolCallId": "t1", "title": "tool " + HostileText},
					"options": []any{
						map[string]any{"optionId": "ok", "name": "Allow " + HostileText, "kind": "allow_once"},
						map[string]any{"optionId": "no", "name": "Reject " + HostileText, "kind": "reject_once"},
					},
				}})
				promptID, promptSession = m.ID, s
			case "pushy":
				asked := cwd[s] + "/asked.txt"
				send(map[string]any{"jsonrpc": "2.0", "id": 901, "method": "session/request_permission", "params": map[string]any{
					"sessionId": s,
					"toolCall": map[string]any{"toolCallId": "w1", "title": "Write asked.txt", "kind": "edit",
						"locations": []any{map[string]any{"path": asked}},
						"content":   []any{map[string]any{"type": "diff", "path": asked, "newText": "pushed asked.txt"}}},
					"options": []any{
						map[string]any{"optionId": "ok", "name": "Allow", "kind": "allow_once"},
						map[string]any{"optionId": "no", "name": "Reject", "kind": "reject_once"},
					},
				}})
				promptID, promptSession, pushed = m.ID, s, nil
			}
		case m.Method == "" && string(m.ID) == "901" && promptID != nil:
			pushyWrite(902, "asked.txt")
		case m.Method == "" && (string(m.ID) == "902" || string(m.ID) == "903") && promptID != nil:
			name := map[string]string{"902": "asked.txt", "903": "other.txt"}[string(m.ID)]
			if m.Error != nil {
				pushed = append(pushed, name+": refused: "+m.Error.Message)
			} else {
				pushed = append(pushed, name+": written")
			}
			if string(m.ID) == "902" {
				pushyWrite(903, "other.txt")
				continue
			}
			update(promptSession, text("agent_message_chunk", strings.Join(pushed, "\n")+"\n"))
			answer(promptID, map[string]any{"stopReason": "end_turn"})
			promptID = nil
		case m.Method == "" && string(m.ID) == "900" && promptID != nil:
			answered := "refused"
			if strings.Contains(sc.Text(), `"optionId":"ok"`) {
				answered = "allowed"
			}
			update(promptSession, map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "t1", "status": "completed"})
			update(promptSession, text("agent_message_chunk", "permission "+answered+"\n"))
			answer(promptID, map[string]any{"stopReason": "end_turn"})
			promptID = nil
		}
	}
	return 0
}
