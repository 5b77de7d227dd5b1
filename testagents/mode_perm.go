package testagents

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// The "requester" agent asks permission to run a command, the way an agent that has a shell
// does. Its prompt says when and how often:
//   - "ask": one request at once;
//   - "ask later": one request a second after the prompt, so that it comes while the user
//     is busy elsewhere;
//   - "flood N": N requests at once.
//
// Each request is an execute tool call with its command in rawInput (RequesterCommand), its
// location (RequesterPath, line 3) and the options RequesterOptions lists. Once every request is
// answered it replies "answers: ID, ID, …" (the option ids chosen, "cancelled" for none)
// and ends its turn; with N requests it replies with how many got each answer instead:
// "answers: reject×9999, cancelled×1".
func init() { modes["requester"] = serveRequester }

// RequesterCommand is the command the requester asks to run; RequesterPath is the location it names.
const (
	RequesterCommand = "rm -rf ~/scratch"
	RequesterPath    = "/work/scratch.sh"
)

// RequesterOptions are the requester's options, as "id:kind:name": the names start with letters a
// user types in a sentence, none of which may answer.
var RequesterOptions = []string{
	"once:allow_once:allow it once",
	"always:allow_always:quick, always allow",
	"reject:reject_once:no",
	"never:reject_always:every time, reject",
}

func serveRequester(in io.Reader, out, _ io.Writer) int {
	p := newPeer("requester", in, out)
	options := make([]any, len(RequesterOptions))
	for i, o := range RequesterOptions {
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
		p.request(id, "session/request_permission", map[string]any{
			"sessionId": session,
			"toolCall": map[string]any{"toolCallId": "run-" + strconv.Itoa(id), "title": "Clean the scratch folder", "kind": "execute",
				"rawInput":  map[string]any{"command": RequesterCommand},
				"locations": []any{map[string]any{"path": RequesterPath, "line": 3}}},
			"options": options,
		})
	}
	for {
		m, ok := p.next()
		if !ok {
			return 0
		}
		switch {
		case p.handshake(m, nil):
		case m.Method == "session/cancel":
			cancel = true
		case m.Method == "session/prompt":
			text := strings.TrimSpace(m.promptText())
			promptID, session, answers, cancel = m.ID, m.Params.SessionID, nil, false
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
		case m.Method == "" && promptID != nil && waiting > 0:
			var r struct {
				Outcome struct {
					Outcome  string `json:"outcome"`
					OptionID string `json:"optionId"`
				} `json:"outcome"`
			}
			_ = json.Unmarshal(m.Result, &r)
			answer := "cancelled"
			if r.Outcome.Outcome == "selected" {
				answer = r.Outcome.OptionID
			}
			answers = append(answers, answer)
			if waiting--; waiting > 0 {
				continue
			}
			p.say(session, "answers: "+summary(answers)+"\n")
			stop := "end_turn"
			if cancel {
				stop = "cancelled"
			}
			p.answer(promptID, map[string]any{"stopReason": stop})
			promptID = nil
		}
	}
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
