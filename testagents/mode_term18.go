package testagents

import (
	"encoding/json"
	"io"
	"strings"
	"time"
)

// The terminal agent runs a command through the client's terminal. Its prompt is a JSON
// TerminalScript; it creates the terminal, shows it in a tool call, waits until the output
// holds Ready (when set), then does Then: "wait" (wait_for_exit), "kill" (terminal/kill,
// then wait_for_exit), "release" (release the running command), or "hold" (wait for the
// turn's cancel, then wait_for_exit). It reads the output, releases the terminal (unless
// released already) and says a TerminalReport as JSON, then ends the turn ("cancelled"
// after a cancel). A refused create is reported too.
func init() { modes["terminal"] = serveTerminal }

// TerminalScript is the terminal agent's prompt.
type TerminalScript struct {
	Command string            `json:"command"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`
	Limit   *int              `json:"limit,omitempty"`
	Ready   string            `json:"ready,omitempty"`
	Then    string            `json:"then"`
}

// TerminalReport is what the terminal agent says at the end of its turn.
type TerminalReport struct {
	Capability bool            `json:"capability"` // the client offered terminals
	CreateErr  string          `json:"createError,omitempty"`
	Exit       json.RawMessage `json:"exit,omitempty"`   // wait_for_exit's answer
	Output     json.RawMessage `json:"output,omitempty"` // the last terminal/output answer
	Errors     []string        `json:"errors,omitempty"` // other requests refused
}

func serveTerminal(in io.Reader, out, _ io.Writer) int {
	p := newPeer("terminal", in, out)
	capable := false
	for {
		m, ok := p.next()
		if !ok {
			return 0
		}
		if m.Method == "initialize" {
			var init struct {
				Params struct {
					ClientCapabilities struct {
						Terminal bool `json:"terminal"`
					} `json:"clientCapabilities"`
				} `json:"params"`
			}
			_ = json.Unmarshal([]byte(m.line), &init)
			capable = init.Params.ClientCapabilities.Terminal
		}
		if p.handshake(m, nil) || m.Method != "session/prompt" {
			continue
		}
		var script TerminalScript
		if err := json.Unmarshal([]byte(strings.TrimSpace(m.promptText())), &script); err != nil {
			p.say(m.Params.SessionID, "not a script: "+err.Error())
			p.endTurn(m.ID)
			continue
		}
		report, cancelled, gone := runTerminalScript(p, m.Params.SessionID, script)
		if gone {
			return 0
		}
		report.Capability = capable
		data, _ := json.Marshal(report)
		p.say(m.Params.SessionID, string(data))
		if cancelled {
			p.answer(m.ID, map[string]any{"stopReason": "cancelled"})
		} else {
			p.endTurn(m.ID)
		}
	}
}

// runTerminalScript runs one script; gone is true when the client went away.
func runTerminalScript(p *peer, session string, s TerminalScript) (r TerminalReport, cancelled, gone bool) {
	params := map[string]any{"sessionId": session, "command": s.Command}
	if len(s.Args) > 0 {
		params["args"] = s.Args
	}
	if s.Cwd != "" {
		params["cwd"] = s.Cwd
	}
	if s.Limit != nil {
		params["outputByteLimit"] = *s.Limit
	}
	var env []map[string]string
	for k, v := range s.Env {
		env = append(env, map[string]string{"name": k, "value": v})
	}
	if env != nil {
		params["env"] = env
	}
	m, ok := p.call("terminal/create", params)
	if !ok {
		return r, false, true
	}
	if m.Error != nil {
		r.CreateErr = m.Error.Message
		return r, false, false
	}
	var created struct {
		TerminalID string `json:"terminalId"`
	}
	_ = json.Unmarshal(m.Result, &created)
	term := map[string]any{"sessionId": session, "terminalId": created.TerminalID}
	p.update(session, map[string]any{
		"sessionUpdate": "tool_call", "toolCallId": "run-1", "title": "Run " + s.Command, "kind": "execute", "status": "in_progress",
		"content": []any{map[string]any{"type": "terminal", "terminalId": created.TerminalID}},
	})
	// call sends a request on the terminal and keeps its answer; false when the client left.
	call := func(method string) (json.RawMessage, bool) {
		m, ok := p.call(method, term)
		if !ok {
			return nil, false
		}
		if m.Error != nil {
			r.Errors = append(r.Errors, method+": "+m.Error.Message)
			return nil, true
		}
		return m.Result, true
	}
	if s.Ready != "" {
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			res, ok := call("terminal/output")
			if !ok {
				return r, false, true
			}
			if strings.Contains(string(res), s.Ready) || time.Now().After(deadline) {
				break
			}
		}
	}
	released := false
	switch s.Then {
	case "kill":
		if _, ok := call("terminal/kill"); !ok {
			return r, false, true
		}
	case "release":
		if _, ok := call("terminal/release"); !ok {
			return r, false, true
		}
		released = true
	case "hold":
		for {
			m, ok := p.next()
			if !ok {
				return r, false, true
			}
			if m.Method == "session/cancel" {
				cancelled = true
				break
			}
		}
	}
	if !released {
		if r.Exit, ok = call("terminal/wait_for_exit"); !ok {
			return r, cancelled, true
		}
		if r.Output, ok = call("terminal/output"); !ok {
			return r, cancelled, true
		}
		if _, ok := call("terminal/release"); !ok {
			return r, cancelled, true
		}
	}
	status := "completed"
	if cancelled {
		status = "failed"
	}
	p.update(session, map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "run-1", "status": status})
	return r, cancelled, false
}
