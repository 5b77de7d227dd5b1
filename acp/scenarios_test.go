package acp_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// hostile is text with every kind of control an agent could try to reach a terminal
// with: CSI, OSC 52, a bell, a C1 control, bidirectional overrides.
const hostile = "\x1b[31mred\x1b[0m \x1b]52;c;SGVsbG8=\x07 \u0085c1 \u202eevil\u202c \u2066iso\u2069 \x00nul"

// scenarios are the test agents' turns, by the prompt's first word.
var scenarios = map[string]func(t *childTurn){
	"echo": func(t *childTurn) {
		t.say(t.text)
		t.end("end_turn")
	},
	"kinds":         scenarioKinds,
	"malformed":     scenarioMalformed,
	"line":          scenarioLine,
	"bigresponse":   scenarioBigResponse,
	"bigrequest":    scenarioBigRequest,
	"hostile":       scenarioHostile,
	"fs":            scenarioFS,
	"perm":          scenarioPerm,
	"permflood":     scenarioPermFlood,
	"toolflood":     scenarioToolFlood,
	"chunkflood":    scenarioChunkFlood,
	"stream":        scenarioChunkFlood,
	"stderr":        scenarioStderr,
	"exit":          scenarioExit,
	"grandchild":    scenarioGrandchild,
	"ids":           scenarioIDs,
	"unknownmethod": scenarioUnknownMethod,
	"order":         scenarioOrder,
	"permorder":     scenarioPermOrder,
}

func scenarioKinds(t *childTurn) {
	t.c.chunk(t.sid, "user_message_chunk", "user says")
	t.c.chunk(t.sid, "agent_message_chunk", "agent says")
	t.c.chunk(t.sid, "agent_thought_chunk", "thinking")
	t.c.update(t.sid, map[string]any{"sessionUpdate": "agent_message_chunk",
		"content": map[string]any{"type": "image", "data": "aGk=", "mimeType": "image/png"}})
	t.c.update(t.sid, map[string]any{"sessionUpdate": "tool_call", "toolCallId": "t1", "title": "Read a file", "kind": "read", "status": "pending"})
	t.c.update(t.sid, map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "t1", "status": "completed",
		"content": []any{map[string]any{"type": "content", "content": map[string]any{"type": "text", "text": "out"}}}})
	t.c.update(t.sid, map[string]any{"sessionUpdate": "plan", "entries": []any{map[string]any{"content": "step", "priority": "high", "status": "pending"}}})
	t.c.update(t.sid, map[string]any{"sessionUpdate": "available_commands_update", "availableCommands": []any{map[string]any{"name": "help", "description": "Help"}}})
	t.c.update(t.sid, map[string]any{"sessionUpdate": "current_mode_update", "currentModeId": "ask"})
	t.c.update(t.sid, map[string]any{"sessionUpdate": "config_option_update", "configOptions": []any{}})
	t.c.update(t.sid, map[string]any{"sessionUpdate": "session_info_update", "title": "A title"})
	t.c.update(t.sid, map[string]any{"sessionUpdate": "usage_update", "used": 10, "size": 100})
	// Kinds the SDK does not know, and a known kind that does not decode.
	t.c.update(t.sid, map[string]any{"sessionUpdate": "notice", "message": "hi"})
	t.c.update(t.sid, map[string]any{"sessionUpdate": "compaction_update"})
	t.c.update(t.sid, map[string]any{"sessionUpdate": "tool_call", "toolCallId": "t2", "title": 5})
	t.end("end_turn")
}

func scenarioMalformed(t *childTurn) {
	chunk := func(sid, text string) string {
		return string(mustJSON(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{
			"sessionId": sid, "update": map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": text}}}}))
	}
	lines := []string{
		// malformed: 4
		`not json`,
		`{"jsonrpc":"2.0","method":"session/update","params":`,
		`42`,
		`"a string"`,
		// ignored: 10
		"[" + chunk(t.sid, "batched") + "]",
		`{}`,
		`{"jsonrpc":"2.0","id":99999,"result":{}}`,
		`{"jsonrpc":"2.0","id":"abc","result":{}}`,
		`{"jsonrpc":"2.0","id":{"x":1},"method":"fs/read_text_file","params":{}}`,
		chunk("nope", "lost"),
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"nope","update":{"sessionUpdate":"plan","entries":[]}}}`,
		`{"jsonrpc":"2.0","method":"foo/bar","params":{}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":5}`,
		`{"jsonrpc":"2.0","method":5}`,
		// neither
		``,
		"   \r",
		chunk(t.sid, "after"),
	}
	for _, l := range lines {
		t.c.raw(l)
	}
	t.end("end_turn")
}

// scenarioLine sends a chunk whose text is N bytes, then "after".
func scenarioLine(t *childTurn) {
	t.say(strings.Repeat("x", t.argInt(0)))
	t.say("after")
	t.end("end_turn")
}

// scenarioBigResponse answers the prompt with a line of N bytes.
func scenarioBigResponse(t *childTurn) {
	t.say("before")
	head := `{"jsonrpc":"2.0","id":` + string(t.id) + `,"result":{"stopReason":"end_turn","_meta":{"pad":"`
	tail := `"}}}`
	pad := max(t.argInt(0)-len(head)-len(tail), 0)
	t.c.raw(head + strings.Repeat("p", pad) + tail)
}

// scenarioBigRequest sends an fs request of N bytes and reports the answer's error code.
func scenarioBigRequest(t *childTurn) {
	t.c.pmu.Lock()
	t.c.nextID++
	id := t.c.nextID
	ch := make(chan cmsg, 1)
	t.c.pending[id] = ch
	t.c.pmu.Unlock()
	head := `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"fs/read_text_file","params":{"sessionId":"` + t.sid + `","path":"/`
	t.c.raw(head + strings.Repeat("d", t.argInt(0)) + `"}}`)
	m := <-ch
	if m.Error != nil {
		t.say(fmt.Sprintf("code=%d", m.Error.Code))
	} else {
		t.say("code=none")
	}
	t.end("end_turn")
}

func scenarioHostile(t *childTurn) {
	// Invalid UTF-8, raw on the wire.
	t.c.raw(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + t.sid +
		`","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"bad` + "\xff\xfe" + ` utf8 "}}}}`)
	t.c.chunk(t.sid, "agent_message_chunk", hostile)
	t.c.chunk(t.sid, "agent_thought_chunk", hostile)
	t.c.update(t.sid, map[string]any{"sessionUpdate": "tool_call", "toolCallId": "h1", "title": hostile, "kind": "edit", "status": "pending"})
	t.c.update(t.sid, map[string]any{"sessionUpdate": "plan", "entries": []any{map[string]any{"content": hostile, "priority": "high", "status": "pending"}}})
	t.c.update(t.sid, map[string]any{"sessionUpdate": "available_commands_update",
		"availableCommands": []any{map[string]any{"name": hostile, "description": hostile}}})
	t.c.update(t.sid, map[string]any{"sessionUpdate": "\x1b[2J" + hostile})
	perm := t.c.call("session/request_permission", map[string]any{
		"sessionId": t.sid,
		"toolCall":  map[string]any{"toolCallId": "h1", "title": hostile},
		"options": []any{
			map[string]any{"optionId": "yes", "name": hostile, "kind": "allow_once"},
			map[string]any{"optionId": "no", "name": hostile, "kind": "reject_once"},
		},
	})
	t.say("\npermission=" + string(perm.Result) + "\n")
	for _, path := range []string{"/\x1b[31m/etc/passwd", "relative\x1b]52;c;SGk=\x07", "/tmp/\u202eevil"} {
		m := t.c.call("fs/read_text_file", map[string]any{"sessionId": t.sid, "path": path})
		if m.Error != nil {
			t.say("fserror:" + m.Error.Message + "\n")
		}
	}
	m := t.c.call("\x1b[31mterminal/create", map[string]any{"sessionId": t.sid})
	if m.Error != nil {
		t.say("fserror:" + m.Error.Message + "\n")
	}
	t.c.replyErr(t.id, -32603, "boom "+hostile)
}

// fsOp is one operation of the fs scenario.
type fsOp struct {
	Op      string `json:"op"` // read, write, symlink
	Path    string `json:"path"`
	Content string `json:"content,omitempty"`
	Target  string `json:"target,omitempty"`
	Line    *int   `json:"line,omitempty"`
	Limit   *int   `json:"limit,omitempty"`
}

// fsResult is what the fs scenario reports for one operation, as a line of JSON.
type fsResult struct {
	OK      bool   `json:"ok"`
	Content string `json:"content,omitempty"`
	Code    int    `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
}

// scenarioFS performs the operations given as JSON after the scenario's name and
// reports one fsResult per line.
func scenarioFS(t *childTurn) {
	var ops []fsOp
	if err := json.Unmarshal([]byte(t.text), &ops); err != nil {
		t.c.replyErr(t.id, -32602, err.Error())
		return
	}
	for _, op := range ops {
		var r fsResult
		switch op.Op {
		case "symlink":
			err := os.Symlink(op.Target, op.Path)
			r.OK = err == nil
			if err != nil {
				r.Message = err.Error()
			}
		case "read", "write":
			params := map[string]any{"sessionId": t.sid, "path": op.Path}
			method := "fs/read_text_file"
			if op.Op == "write" {
				method = "fs/write_text_file"
				params["content"] = op.Content
			}
			if op.Line != nil {
				params["line"] = *op.Line
			}
			if op.Limit != nil {
				params["limit"] = *op.Limit
			}
			m := t.c.call(method, params)
			if m.Error != nil {
				r.Code, r.Message = m.Error.Code, m.Error.Message
			} else {
				r.OK = true
				var res struct {
					Content string `json:"content"`
				}
				json.Unmarshal(m.Result, &res)
				r.Content = res.Content
			}
		}
		t.say(string(mustJSON(r)) + "\n")
	}
	t.end("end_turn")
}

// scenarioPerm asks permission once; after a cancel it asks again, and ends the turn
// "cancelled" once session/cancel has arrived.
func scenarioPerm(t *childTurn) {
	params := map[string]any{
		"sessionId": t.sid,
		"toolCall":  map[string]any{"toolCallId": "p1", "title": "Write a file", "kind": "edit", "status": "pending"},
		"options": []any{
			map[string]any{"optionId": "allow", "name": "Allow", "kind": "allow_once"},
			map[string]any{"optionId": "reject", "name": "Reject", "kind": "reject_once"},
		},
	}
	outcome := func(m cmsg) string {
		var r struct {
			Outcome struct {
				Outcome  string `json:"outcome"`
				OptionID string `json:"optionId"`
			} `json:"outcome"`
		}
		json.Unmarshal(m.Result, &r)
		if r.Outcome.Outcome == "selected" {
			return r.Outcome.OptionID
		}
		return r.Outcome.Outcome
	}
	first := outcome(t.c.call("session/request_permission", params))
	t.say("outcome=" + first)
	if first != "cancelled" {
		t.end("end_turn")
		return
	}
	second := outcome(t.c.call("session/request_permission", params))
	t.say(" second=" + second)
	select {
	case <-t.ctx.Done():
		t.end("cancelled")
	case <-time.After(testDeadline):
		t.end("end_turn")
	}
}

// scenarioPermFlood sends N permission requests at once and reports their outcomes;
// with "nostdin", it does not read its stdin until it has sent them all.
func scenarioPermFlood(t *childTurn) {
	n := t.argInt(0)
	noStdin := len(t.args) > 1 && t.args[1] == "nostdin"
	if noStdin {
		t.c.gate.Lock()
	}
	params := map[string]any{
		"sessionId": t.sid,
		"toolCall":  map[string]any{"toolCallId": "f", "title": "Flood"},
		"options":   []any{map[string]any{"optionId": "allow", "name": "Allow", "kind": "allow_once"}},
	}
	chans := make([]chan cmsg, n)
	for i := range chans {
		chans[i] = t.c.callAsync("session/request_permission", params)
	}
	if noStdin {
		t.c.gate.Unlock()
	}
	var selected, cancelled, failed int
	for _, ch := range chans {
		m := <-ch
		switch {
		case m.Error != nil:
			failed++
		case strings.Contains(string(m.Result), `"selected"`):
			selected++
		default:
			cancelled++
		}
	}
	t.say(fmt.Sprintf("selected=%d cancelled=%d errors=%d", selected, cancelled, failed))
	t.end("end_turn")
}

// scenarioToolFlood sends N updates of a tool call that was never started.
func scenarioToolFlood(t *childTurn) {
	line := append(mustJSON(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{
		"sessionId": t.sid, "update": map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "ghost", "status": "in_progress"}}}), '\n')
	for range t.argInt(0) {
		t.c.rawNoFlush(line)
	}
	t.c.flush()
	t.end("end_turn")
}

// scenarioChunkFlood sends N small chunks as fast as it can ("stream" for the
// benchmarks, "chunkflood" for the tests: the same), of SIZE bytes of text when a second
// argument is given, of "word " otherwise.
func scenarioChunkFlood(t *childTurn) {
	word := "word "
	if size := t.argInt(1); size > 0 {
		word = strings.Repeat("w", size)
	}
	line := append(mustJSON(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{
		"sessionId": t.sid, "update": map[string]any{"sessionUpdate": "agent_message_chunk",
			"content": map[string]any{"type": "text", "text": word}}}}), '\n')
	for range t.argInt(0) {
		t.c.rawNoFlush(line)
	}
	t.c.flush()
	t.end("end_turn")
}

// scenarioStderr writes N bytes on stderr.
func scenarioStderr(t *childTurn) {
	block := []byte(strings.Repeat("e", 1<<20))
	for left := t.argInt(0); left > 0; left -= len(block) {
		os.Stderr.Write(block[:min(left, len(block))])
	}
	t.say("done")
	t.end("end_turn")
}

// scenarioExit exits in the middle of the turn.
func scenarioExit(t *childTurn) {
	t.say("bye")
	os.Exit(3)
}

// scenarioGrandchild leaves a grandchild holding stdout open, then exits mid-turn.
func scenarioGrandchild(t *childTurn) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), agentEnv+"=sleeper")
	cmd.Stdout = os.Stdout
	if err := cmd.Start(); err != nil {
		t.c.replyErr(t.id, -32603, err.Error())
		return
	}
	t.say("spawned")
	os.Exit(0)
}

// scenarioIDs answers the prompt with wrong ids, then rightly, then again.
func scenarioIDs(t *childTurn) {
	id, _ := strconv.Atoi(string(t.id))
	// One write: the repeated answer must reach the client before anything the next turn
	// (which the client sends on the first answer) writes.
	t.c.raw(strings.Join([]string{
		`{"jsonrpc":"2.0","id":"x","result":{"stopReason":"refusal"}}`,
		`{"jsonrpc":"2.0","id":` + strconv.Itoa(id+1000) + `,"result":{"stopReason":"refusal"}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}}`,
		`{"jsonrpc":"2.0","id":` + string(t.id) + `,"result":{"stopReason":"end_turn"}}`,
		`{"jsonrpc":"2.0","id":` + string(t.id) + `,"result":{"stopReason":"max_tokens"}}`,
	}, "\n"))
}

// scenarioUnknownMethod calls methods the client does not implement.
func scenarioUnknownMethod(t *childTurn) {
	var codes []string
	for _, method := range []string{"terminal/create", "foo/bar"} {
		m := t.c.call(method, map[string]any{"sessionId": t.sid})
		if m.Error != nil {
			codes = append(codes, strconv.Itoa(m.Error.Code))
		} else {
			codes = append(codes, "none")
		}
	}
	t.say("codes=" + strings.Join(codes, ","))
	t.end("end_turn")
}

// scenarioOrder says in which order the agent read prompts, cancels and answers (its
// wire log), and ends the turn. With "wait", it first waits for this turn's cancel and
// ends "cancelled"; a cancel read before this prompt does not cancel it (the protocol has
// an agent ignore a cancel for no turn), and the turn ends "end_turn" at once.
func scenarioOrder(t *childTurn) {
	if len(t.args) > 0 && t.args[0] == "wait" && !t.c.cancelBeforePrompt() {
		select {
		case <-t.ctx.Done():
		case <-time.After(testDeadline):
		}
	}
	t.say(strings.Join(t.c.wireLog(), " "))
	if t.ctx.Err() != nil {
		t.end("cancelled")
		return
	}
	t.end("end_turn")
}

// cancelBeforePrompt reports whether a cancel was read between the last prompt and the
// one before it.
func (c *child) cancelBeforePrompt() bool {
	wire := c.wireLog()
	last := -1
	for i, w := range wire {
		if w == "prompt" {
			last = i
		}
	}
	for i := last - 1; i >= 0 && wire[i] != "prompt"; i-- {
		if wire[i] == "cancel" {
			return true
		}
	}
	return false
}

// scenarioPermOrder asks permission once and waits for the turn's cancel, then says its
// wire log and ends "cancelled": the order in which the cancel and the answer came.
func scenarioPermOrder(t *childTurn) {
	t.c.call("session/request_permission", map[string]any{
		"sessionId": t.sid,
		"toolCall":  map[string]any{"toolCallId": "o1", "title": "Write a file", "kind": "edit", "status": "pending"},
		"options":   []any{map[string]any{"optionId": "allow", "name": "Allow", "kind": "allow_once"}},
	})
	select {
	case <-t.ctx.Done():
		t.say(strings.Join(t.c.wireLog(), " "))
		t.end("cancelled")
	case <-time.After(testDeadline):
		t.end("end_turn")
	}
}
