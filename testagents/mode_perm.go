package testagents

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The "asker" agent asks permission to run a command, the way an agent that has a shell
// does. Its prompt says when and how often:
//   - "ask": one request at once;
//   - "ask later": one request a second after the prompt, so that it comes while the user
//     is busy elsewhere;
//   - "flood N": N requests at once.
//
// Each request is an execute tool call with its command in rawInput (AskerCommand), its
// location (AskerPath, line 3) and the options AskerOptions lists. Once every request is
// answered it replies "answers: ID, ID, …" (the option ids chosen, "cancelled" for none)
// and ends its turn; with N requests it replies with how many got each answer instead:
// "answers: reject×9999, cancelled×1".
func init() { modes["asker"] = serveAsker }

// AskerCommand is the command the asker asks to run; AskerPath is the location it names.
const (
	AskerCommand = "rm -rf ~/scratch"
	AskerPath    = "/work/scratch.sh"
)

// AskerOptions are the asker's options, as "id:kind:name": the names start with letters a
// user types in a sentence, none of which may answer.
var AskerOptions = []string{
	"once:allow_once:allow it once",
	"always:allow_always:quick, always allow",
	"reject:reject_once:no",
	"never:reject_always:every time, reject",
}

func serveAsker(in io.Reader, out, _ io.Writer) int {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	var mu sync.Mutex
	w := bufio.NewWriter(out)
	send := func(v any) {
		b, _ := json.Marshal(v)
		mu.Lock()
		defer mu.Unlock()
		_, _ = w.Write(append(b, '\n'))
		_ = w.Flush()
	}
	options := make([]any, len(AskerOptions))
	for i, o := range AskerOptions {
		f := strings.SplitN(o, ":", 3)
		options[i] = map[string]any{"optionId": f[0], "kind": f[1], "name": f[2]}
	}
	// The turn in progress (one at a time): its prompt's id, its session, the requests
	// not answered yet and the answers so far.
	var (
		promptID json.RawMessage
		session  string
		waiting  int
		answers  []string
		cancel   bool
	)
	ask := func(session string, id int) {
		send(map[string]any{"jsonrpc": "2.0", "id": id, "method": "session/request_permission", "params": map[string]any{
			"sessionId": session,
			"toolCall": map[string]any{"toolCallId": "run-" + strconv.Itoa(id), "title": "Clean the scratch folder", "kind": "execute",
				"rawInput":  map[string]any{"command": AskerCommand},
				"locations": []any{map[string]any{"path": AskerPath, "line": 3}}},
			"options": options,
		}})
	}
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Prompt []struct {
					Text string `json:"text"`
				} `json:"prompt"`
			} `json:"params"`
			Result struct {
				Outcome struct {
					Outcome  string `json:"outcome"`
					OptionID string `json:"optionId"`
				} `json:"outcome"`
			} `json:"result"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		switch m.Method {
		case "initialize":
			send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{"loadSession": false}}})
		case "session/new":
			send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{"sessionId": "asker-1"}})
		case "session/cancel":
			cancel = true
		case "session/prompt":
			text := ""
			if len(m.Params.Prompt) > 0 {
				text = strings.TrimSpace(m.Params.Prompt[0].Text)
			}
			promptID, session, answers, cancel = m.ID, "asker-1", nil, false
			switch {
			case text == "ask later":
				waiting = 1
				s := session
				time.AfterFunc(time.Second, func() { ask(s, 1) })
			case strings.HasPrefix(text, "flood "):
				n, _ := strconv.Atoi(strings.TrimPrefix(text, "flood "))
				waiting = max(n, 1)
				for i := 1; i <= waiting; i++ {
					ask(session, i)
				}
			default:
				waiting = 1
				ask(session, 1)
			}
		case "":
			if promptID == nil || waiting == 0 {
				continue
			}
			answer := "cancelled"
			if m.Result.Outcome.Outcome == "selected" {
				answer = m.Result.Outcome.OptionID
			}
			answers = append(answers, answer)
			waiting--
			if waiting > 0 {
				continue
			}
			send(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{"sessionId": session, "update": map[string]any{
				"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": "answers: " + summary(answers) + "\n"}}}})
			stop := "end_turn"
			if cancel {
				stop = "cancelled"
			}
			send(map[string]any{"jsonrpc": "2.0", "id": promptID, "result": map[string]any{"stopReason": stop}})
			promptID = nil
		}
	}
	return 0
}

// summary is the answers in order when there are a few, else how many of each.
func summary(answers []string) string {
	if len(answers) <= 3 {
		return strings.Join(answers, ", ")
	}
	var order []string
	count := map[string]int{}
	for _, a := range answers {
		if count[a] == 0 {
			order = append(order, a)
		}
		count[a]++
	}
	parts := make([]string, len(order))
	for i, a := range order {
		parts[i] = fmt.Sprintf("%s×%d", a, count[a])
	}
	return strings.Join(parts, ", ")
}
