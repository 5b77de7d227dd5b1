package testagents

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The modes agent has modes and session options, and tells what it was asked:
//   - session/new and session/load answer with the modes ask (current), code and plan, and
//     the options model (a select of sonnet and opus, in a group, sonnet current) and
//     think (a boolean, off);
//   - session/set_mode and session/set_config_option change them (a mode or value it does
//     not list is refused with -32602), set_mode sending a current_mode_update too;
//   - with ModesAsOptionEnv=1 in its environment, it gives its modes (ask, plan) only as
//     the select option "mode" of category mode, as some agents do;
//   - a prompt "switch" makes it change its mode to code and its model to opus by itself,
//     saying so with current_mode_update and config_option_update;
//   - on session/prompt it replies with every request it received since it started, one
//     a line ("session/set_mode plan", "session/set_config_option model=opus",
//     "session/prompt"), then the current mode and model ("now: plan opus").
//
// The signin agent needs a sign-in: session/new is refused with -32000 and SignInMessage
// until one of these happened:
//   - authenticate with the method "browser" (type agent; "broken" is refused);
//   - it was started with SignInKeyEnv set to SignInKey (an agent secret);
//   - its program was run with --login and SIGNIN_TERMINAL=1 (the method "tui", of type
//     terminal, listed only to a client that announced auth.terminal): that run asks for
//     a code on its stdin (SignInCodePrompt); given SignInCode, it prints
//     SignInTerminalText, writes SignInMarker in its working directory and exits 0 (else
//     it exits 1); the file signs in every later start.
//
// It announces logout, which undoes the sign-in by authenticate; on session/prompt it
// replies "signed in by <how>".
const (
	ModesAsOptionEnv   = "MODES_AS_OPTION"
	SignInMessage      = "Please sign in to Example AI first."
	SignInKeyEnv       = "EXAMPLE_API_KEY"
	SignInKey          = "sk-test-Zq81secret"
	SignInMarker       = ".signin-marker"
	SignInTerminalText = "Example AI terminal login: done"
	SignInCodePrompt   = "Example AI: type the code 4711 and Enter:"
	SignInCode         = "4711"
)

func init() {
	modes["modes"] = serveModes
	modes["signin"] = serveSignIn
}

// choice is what the modes and signin agents read of a request's params.
type choice struct {
	Params struct {
		ModeID   string          `json:"modeId"`
		ConfigID string          `json:"configId"`
		Value    json.RawMessage `json:"value"`
		MethodID string          `json:"methodId"`
		Caps     struct {
			Auth struct {
				Terminal bool `json:"terminal"`
			} `json:"auth"`
		} `json:"clientCapabilities"`
	} `json:"params"`
}

// nextChoice is the client's next message, with what these agents read of its params.
func nextChoice(p *peer) (*message, choice, bool) {
	var c choice
	m, ok := p.next()
	if ok {
		_ = json.Unmarshal([]byte(m.line), &c)
	}
	return m, c, ok
}

// failWith answers the request id with a JSON-RPC error.
func failWith(p *peer, id json.RawMessage, code int, msg string) {
	p.send(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
}

func serveModes(in io.Reader, out, _ io.Writer) int {
	p := newPeer("modes", in, out)
	mode, model, think := "ask", "sonnet", false
	var received []string
	state := func(id string) map[string]any {
		return map[string]any{
			"sessionId": id,
			"modes": map[string]any{"currentModeId": mode, "availableModes": []any{
				map[string]any{"id": "ask", "name": "Ask"},
				map[string]any{"id": "code", "name": "Code", "description": "writes code"},
				map[string]any{"id": "plan", "name": "Plan"},
			}},
			"configOptions": modesOptions(model, think),
		}
	}
	if os.Getenv(ModesAsOptionEnv) == "1" { // its modes only as an option of category mode
		base := state
		state = func(id string) map[string]any {
			st := base(id)
			delete(st, "modes")
			st["configOptions"] = append([]any{map[string]any{"id": "mode", "name": "Mode", "category": "mode", "type": "select", "currentValue": mode,
				"options": []any{map[string]any{"value": "ask", "name": "Ask"}, map[string]any{"value": "plan", "name": "Plan"}}}}, modesOptions(model, think)...)
			return st
		}
	}
	refuse := func(id json.RawMessage, what string) { failWith(p, id, -32602, "no such "+what) }
	for {
		m, c, ok := nextChoice(p)
		if !ok {
			return 0
		}
		switch m.Method {
		case "initialize":
			p.answer(m.ID, map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{"loadSession": true}})
		case "session/new", "session/load":
			received = append(received, m.Method)
			p.sessions++
			id := m.Params.SessionID
			if id == "" {
				id = fmt.Sprintf("modes-%d", p.sessions)
			}
			p.cwd[id] = m.Params.Cwd
			st := state(id)
			if m.Method == "session/load" {
				delete(st, "sessionId")
			}
			p.answer(m.ID, st)
		case "session/set_mode":
			received = append(received, m.Method+" "+c.Params.ModeID)
			if !slices.Contains([]string{"ask", "code", "plan"}, c.Params.ModeID) {
				refuse(m.ID, "mode")
				continue
			}
			mode = c.Params.ModeID
			p.update(m.Params.SessionID, map[string]any{"sessionUpdate": "current_mode_update", "currentModeId": mode})
			p.answer(m.ID, map[string]any{})
		case "session/set_config_option":
			received = append(received, m.Method+" "+c.Params.ConfigID+"="+strings.Trim(string(c.Params.Value), `"`))
			var s string
			var b bool
			switch {
			case c.Params.ConfigID == "model" && json.Unmarshal(c.Params.Value, &s) == nil && (s == "sonnet" || s == "opus"):
				model = s
			case c.Params.ConfigID == "think" && json.Unmarshal(c.Params.Value, &b) == nil:
				think = b
			case c.Params.ConfigID == "mode" && json.Unmarshal(c.Params.Value, &s) == nil && os.Getenv(ModesAsOptionEnv) == "1":
				mode = s
			default:
				refuse(m.ID, "option")
				continue
			}
			p.answer(m.ID, map[string]any{"configOptions": state("")["configOptions"]})
		case "session/prompt":
			if strings.TrimSpace(m.promptText()) == "switch" {
				// The agent changes its mode and model by itself.
				mode, model = "code", "opus"
				p.update(m.Params.SessionID, map[string]any{"sessionUpdate": "current_mode_update", "currentModeId": mode})
				p.update(m.Params.SessionID, map[string]any{"sessionUpdate": "config_option_update", "configOptions": modesOptions(model, think)})
			}
			received = append(received, m.Method)
			p.say(m.Params.SessionID, strings.Join(received, "\n")+"\nnow: "+mode+" "+model+"\n")
			p.endTurn(m.ID)
		}
	}
}

// modesOptions are the modes agent's session options.
func modesOptions(model string, think bool) []any {
	return []any{
		map[string]any{"id": "model", "name": "Model", "category": "model", "type": "select", "currentValue": model,
			"options": []any{map[string]any{"group": "claude", "name": "Claude", "options": []any{
				map[string]any{"value": "sonnet", "name": "Sonnet"},
				map[string]any{"value": "opus", "name": "Opus", "description": "the largest"},
			}}}},
		map[string]any{"id": "think", "name": "Extended thinking", "category": "thought_level", "type": "boolean", "currentValue": think},
	}
}

func serveSignIn(in io.Reader, out, stderr io.Writer) int {
	if slices.Contains(os.Args[1:], "--login") {
		if os.Getenv("SIGNIN_TERMINAL") != "1" {
			fmt.Fprintln(stderr, "--login without SIGNIN_TERMINAL=1")
			return 3
		}
		fmt.Fprintln(out, SignInCodePrompt)
		code, _ := bufio.NewReader(in).ReadString('\n')
		if strings.TrimSpace(code) != SignInCode {
			fmt.Fprintf(out, "wrong code %q\n", code)
			return 1
		}
		fmt.Fprintln(out, SignInTerminalText)
		if err := os.WriteFile(SignInMarker, []byte("yes\n"), 0o600); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		return 0
	}
	p := newPeer("signin", in, out)
	by := ""
	if os.Getenv(SignInKeyEnv) == SignInKey {
		by = "key"
	}
	terminal := func() bool {
		_, err := os.Stat(SignInMarker)
		return err == nil
	}
	fail := func(id json.RawMessage, code int, msg string) { failWith(p, id, code, msg) }
	for {
		m, c, ok := nextChoice(p)
		if !ok {
			return 0
		}
		switch {
		case m.Method == "initialize":
			methods := []any{
				map[string]any{"id": "browser", "name": "Sign in with a browser", "description": "opens a page"},
				map[string]any{"id": "broken", "name": "Broken method", "type": "agent"},
			}
			if c.Params.Caps.Auth.Terminal {
				methods = append(methods, map[string]any{"id": "tui", "name": "Log in in a terminal", "type": "terminal",
					"args": []any{"--login"}, "env": map[string]any{"SIGNIN_TERMINAL": "1"}})
			}
			p.answer(m.ID, map[string]any{"protocolVersion": 1, "authMethods": methods,
				"agentCapabilities": map[string]any{"loadSession": false, "auth": map[string]any{"logout": map[string]any{}}}})
		case m.Method == "authenticate" && c.Params.MethodID == "browser":
			by = "browser"
			p.answer(m.ID, map[string]any{})
		case m.Method == "authenticate":
			fail(m.ID, -32602, "this method does not work")
		case m.Method == "logout":
			if by == "browser" {
				by = ""
			}
			p.answer(m.ID, map[string]any{})
		case m.Method == "session/new" && by == "" && !terminal():
			fail(m.ID, -32000, SignInMessage)
		case p.handshake(m, nil):
		case m.Method == "session/prompt":
			how := by
			if how == "" {
				how = "terminal"
			}
			p.say(m.Params.SessionID, "signed in by "+how)
			p.endTurn(m.ID)
		}
	}
}

// SignInMarkerIn is where the signin agent's terminal login leaves its mark, in ws.
func SignInMarkerIn(ws string) string { return filepath.Join(ws, SignInMarker) }
