package testagents

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// The session agents are what real agents announce about their sessions, and the
// elicitations they ask for:
//   - "sessions" offers session/list (two pages), session/resume and session/close;
//   - "sessions-load" offers session/list and session/load only.
//
// Both announce gemini-cli's commands, whose names have a space ("memory list", "memory
// show", "memory add <text>"), and "memo". Both list SessionsListed (in the folder the client gives, plus one elsewhere that a cwd
// filter leaves out); past-3 takes a second to reopen. A resumed or loaded session sends its title (session_info_update)
// and its usage (usage_update). Their prompts:
//   - "elicit form": asks for ElicitFormSchema and replies "answer: <the answer's JSON>";
//   - "elicit flood N": asks N questions at once, and replies how each was answered
//     ("answers: accept×0, decline×1, cancel×49");
//   - "elicit url": asks to open ElicitURL; accepted, it sends elicitation/complete a
//     second later;
//   - "elicit cancelled [MS]" and "perm cancelled [MS]": ask, then cancel the request
//     themselves ($/cancel_request) after MS milliseconds (300 by default), and reply
//     with the answer;
//   - "title WORDS": sends WORDS as the session's title, with a usage update;
//   - "heard": replies with what the client did: "resumed X", "loaded X", "closed X",
//     "cancel_request N" for each request the client gave up.
//
// session/list with the cwd "/stall" never answers, so that the client gives it up.
func init() {
	modes["sessions"] = func(in io.Reader, out, _ io.Writer) int { return serveSessions(in, out, true) }
	modes["sessions-load"] = func(in io.Reader, out, _ io.Writer) int { return serveSessions(in, out, false) }
}

// SessionsListed are the titles of the sessions the session agents list in the client's
// folder, first page first; the first one holds an escape sequence, which the client must
// not show raw.
var SessionsListed = []string{"Fix the \x1b[31mparser", "Write the docs", "Release 2.0"}

// SessionsListedIDs are their ids.
var SessionsListedIDs = []string{"past-1", "past-2", "past-3"}

// ElicitURL is the link the url elicitation asks to open.
const ElicitURL = "https://example.com/login?code=42"

// ElicitFormSchema is the schema of the form elicitation: every kind of field.
const ElicitFormSchema = `{"type":"object","title":"Deploy","properties":{
"name":{"type":"string","title":"Name","minLength":2,"maxLength":20},
"email":{"type":"string","title":"Email","format":"email"},
"replicas":{"type":"integer","title":"Replicas","minimum":1,"maximum":9,"default":2},
"ratio":{"type":"number","title":"Ratio"},
"confirm":{"type":"boolean","title":"Confirm","default":false},
"region":{"type":"string","title":"Region","oneOf":[{"const":"eu","title":"Europe"},{"const":"us","title":"America"}]},
"tags":{"type":"array","title":"Tags","items":{"type":"string","enum":["fast","cheap","safe"]},"maxItems":2}
},"required":["name","region"]}`

func serveSessions(in io.Reader, out io.Writer, resume bool) int {
	p := newPeer("sessions", in, out)
	var heard []string
	next := 5000
	for {
		m, ok := p.next()
		if !ok {
			return 0
		}
		var params struct {
			Cwd       string          `json:"cwd"`
			Cursor    string          `json:"cursor"`
			SessionID string          `json:"sessionId"`
			RequestID json.RawMessage `json:"requestId"`
		}
		var raw struct {
			Params json.RawMessage `json:"params"`
		}
		_ = json.Unmarshal([]byte(m.line), &raw)
		_ = json.Unmarshal(raw.Params, &params)
		switch m.Method {
		case "initialize":
			caps := map[string]any{"list": map[string]any{}}
			if resume {
				caps["resume"] = map[string]any{}
				caps["close"] = map[string]any{}
			}
			p.answer(m.ID, map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{
				"loadSession": !resume, "sessionCapabilities": caps}})
			continue
		case "session/list":
			if params.Cwd == "/stall" {
				continue
			}
			p.answer(m.ID, listPage(params.Cwd, params.Cursor))
			continue
		case "session/resume", "session/load":
			if !strings.HasPrefix(params.SessionID, "past-") {
				p.send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32002, "message": "no such session"}})
				continue
			}
			if params.SessionID == "past-3" {
				time.Sleep(time.Second) // a slow one
			}
			verb := "resumed"
			if m.Method == "session/load" {
				verb = "loaded"
				p.update(params.SessionID, textUpdate("user_message_chunk", "an old question"))
				p.update(params.SessionID, textUpdate("agent_message_chunk", "an old answer"))
			}
			heard = append(heard, verb+" "+params.SessionID)
			p.cwd[params.SessionID] = params.Cwd
			p.update(params.SessionID, map[string]any{"sessionUpdate": "session_info_update", "title": titleOf(params.SessionID)})
			p.update(params.SessionID, map[string]any{"sessionUpdate": "usage_update", "used": 1200, "size": 200000})
			p.answer(m.ID, map[string]any{})
			continue
		case "session/close":
			heard = append(heard, "closed "+params.SessionID)
			p.answer(m.ID, map[string]any{})
			continue
		case "$/cancel_request":
			heard = append(heard, "cancel_request "+strings.TrimSpace(string(params.RequestID)))
			continue
		}
		if p.handshake(m, nil) {
			if m.Method == "session/new" {
				// gemini-cli's way: command names with a space.
				p.update(fmt.Sprintf("sessions-%d", p.sessions), map[string]any{"sessionUpdate": "available_commands_update",
					"availableCommands": []any{
						map[string]any{"name": "memory list", "description": "List the memory"},
						map[string]any{"name": "memory show", "description": "Show the memory"},
						map[string]any{"name": "memory add", "description": "Add to the memory", "input": map[string]any{"hint": "text"}},
						map[string]any{"name": "memo", "description": "A note"},
					}})
			}
			continue
		}
		if m.Method != "session/prompt" {
			continue
		}
		sid := m.Params.SessionID
		text := strings.TrimSpace(m.promptText())
		first, rest, _ := strings.Cut(text, " ")
		switch {
		case text == "heard":
			p.say(sid, "heard: "+strings.Join(heard, ", "))
		case first == "title":
			p.update(sid, map[string]any{"sessionUpdate": "session_info_update", "title": rest, "updatedAt": time.Now().UTC().Format(time.RFC3339)})
			p.update(sid, map[string]any{"sessionUpdate": "usage_update", "used": 4321, "size": 100000, "cost": map[string]any{"amount": 0.25, "currency": "USD"}})
			p.say(sid, "titled")
		case text == "elicit form":
			// Raw, so that the properties keep their order.
			schema := json.RawMessage(ElicitFormSchema)
			a, ok := p.call("elicitation/create", map[string]any{"sessionId": sid, "mode": "form",
				"message": "Deploy settings \x1b[2J please", "requestedSchema": schema})
			if !ok {
				return 0
			}
			p.say(sid, "answer: "+string(a.Result))
		case first == "elicit" && strings.HasPrefix(rest, "flood "):
			var n int
			fmt.Sscanf(strings.TrimPrefix(rest, "flood "), "%d", &n)
			for i := 0; i < n; i++ {
				p.request(6000+i, "elicitation/create", map[string]any{"sessionId": sid, "mode": "form", "message": "Question " + fmt.Sprint(i),
					"requestedSchema": map[string]any{"type": "object", "properties": map[string]any{}}})
			}
			actions := map[string]int{}
			for left := n; left > 0; {
				a, ok := p.next()
				if !ok {
					return 0
				}
				if a.Method == "" && len(a.ID) > 0 {
					var r struct {
						Action string `json:"action"`
					}
					_ = json.Unmarshal(a.Result, &r)
					actions[r.Action]++
					left--
				}
			}
			p.say(sid, fmt.Sprintf("answers: accept×%d, decline×%d, cancel×%d", actions["accept"], actions["decline"], actions["cancel"]))
		case text == "elicit url":
			a, ok := p.call("elicitation/create", map[string]any{"sessionId": sid, "mode": "url",
				"message": "Sign in to continue", "url": ElicitURL, "elicitationId": "el-1"})
			if !ok {
				return 0
			}
			if strings.Contains(string(a.Result), `"accept"`) {
				time.Sleep(time.Second) // the user is at the link meanwhile
				p.send(map[string]any{"jsonrpc": "2.0", "method": "elicitation/complete", "params": map[string]any{"elicitationId": "el-1"}})
			}
			p.say(sid, "answer: "+string(a.Result))
		case first == "elicit" && strings.HasPrefix(rest, "cancelled") || first == "perm" && strings.HasPrefix(rest, "cancelled"):
			next++
			id := next
			pause := 300
			fmt.Sscanf(strings.TrimPrefix(rest, "cancelled"), "%d", &pause)
			if first == "perm" {
				p.request(id, "session/request_permission", map[string]any{"sessionId": sid,
					"toolCall": map[string]any{"toolCallId": "t1", "title": "Touch a file"},
					"options":  []any{map[string]any{"optionId": "ok", "kind": "allow_once", "name": "Allow"}}})
			} else {
				p.request(id, "elicitation/create", map[string]any{"sessionId": sid, "mode": "form", "message": "A question",
					"requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"x": map[string]any{"type": "string"}}}})
			}
			// The cancel comes after a pause (a real agent's own timeout): 300 ms, or the
			// milliseconds after "cancelled".
			time.Sleep(time.Duration(pause) * time.Millisecond)
			p.send(map[string]any{"jsonrpc": "2.0", "method": "$/cancel_request", "params": map[string]any{"requestId": id}})
			for {
				a, ok := p.next()
				if !ok {
					return 0
				}
				if a.isAnswerTo(id) {
					p.say(sid, "answer: "+string(a.Result))
					break
				}
			}
		default:
			p.say(sid, "unknown: "+text)
		}
		p.endTurn(m.ID)
	}
}

// listPage is a page of session/list: the first two sessions then a cursor, then the
// third; without a cwd filter, they are in the agent's own folder, and one more is
// elsewhere.
func listPage(cwd, cursor string) map[string]any {
	folder := cwd
	if folder == "" {
		folder, _ = os.Getwd() // its workspace, where the client starts it
	}
	entry := func(i int) map[string]any {
		return map[string]any{"sessionId": SessionsListedIDs[i], "cwd": folder, "title": SessionsListed[i],
			"updatedAt": fmt.Sprintf("2026-11-%02dT10:00:00Z", 20+i)}
	}
	if cursor == "" {
		return map[string]any{"sessions": []any{entry(0), entry(1)}, "nextCursor": "page-2"}
	}
	page := []any{entry(2)}
	if cwd == "" {
		page = append(page, map[string]any{"sessionId": "other-1", "cwd": "/elsewhere", "title": "Elsewhere"})
	}
	return map[string]any{"sessions": page}
}

func titleOf(id string) string {
	for i, s := range SessionsListedIDs {
		if s == id {
			return SessionsListed[i]
		}
	}
	return id
}
