package testagents

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// BlocksMode is the mode of an agent that replies to every prompt with the blocks it
// received, so that a test sees exactly what Sidekicks sent: the reply is a fenced JSON
// code block holding one PromptBlock per line, in the prompt's order (ParseBlocks reads
// it back). It announces promptCapabilities.embeddedContext, so that a mentioned file
// comes as a resource block with its text, and loadSession false.
const BlocksMode = "blocks"

// PromptBlock is one block of a prompt as the blocks agent reports it: its type ("text",
// "resource", "resource_link", or another type's name), the text of a text block or of an
// embedded resource, and the URI of a resource or a link.
type PromptBlock struct {
	Type string `json:"type"`
	Text string `json:"text,omitempty"`
	URI  string `json:"uri,omitempty"`
}

// ParseBlocks reads the blocks from a reply of the blocks agent; ok is false when the reply
// holds none.
func ParseBlocks(reply string) (blocks []PromptBlock, ok bool) {
	_, body, found := strings.Cut(reply, "```json\n")
	if !found {
		return nil, false
	}
	body, _, found = strings.Cut(body, "```")
	if !found {
		return nil, false
	}
	for line := range strings.SplitSeq(strings.TrimSpace(body), "\n") {
		var b PromptBlock
		if json.Unmarshal([]byte(line), &b) != nil {
			return nil, false
		}
		blocks = append(blocks, b)
	}
	return blocks, true
}

// The askers ask permission at every prompt, their "always" options first, and reply
// "answered OPTION_ID" (or "answered nothing" when the request was cancelled):
//   - asker offers always (allow_always), once (allow_once), never (reject_always), no
//     (reject_once);
//   - asker-always offers only always (allow_always) and never (reject_always).
var askerOptions = map[string][]any{
	"asker": {
		map[string]any{"optionId": "always", "name": "Always Allow", "kind": "allow_always"},
		map[string]any{"optionId": "once", "name": "Allow once", "kind": "allow_once"},
		map[string]any{"optionId": "never", "name": "Never", "kind": "reject_always"},
		map[string]any{"optionId": "no", "name": "Reject", "kind": "reject_once"},
	},
	"asker-always": {
		map[string]any{"optionId": "always", "name": "Always Allow", "kind": "allow_always"},
		map[string]any{"optionId": "never", "name": "Never", "kind": "reject_always"},
	},
}

func init() {
	modes[BlocksMode] = serveBlocks
	for mode, options := range askerOptions {
		modes[mode] = func(in io.Reader, out, _ io.Writer) int { return serveAsker(options, in, out) }
	}
}

// serveAsker is an asker agent offering options.
func serveAsker(options []any, in io.Reader, out io.Writer) int {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	w := json.NewEncoder(out)
	var prompt json.RawMessage // the prompt waiting for the answer
	var session string
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				SessionID string `json:"sessionId"`
			} `json:"params"`
			Result struct {
				Outcome struct {
					OptionID string `json:"optionId"`
				} `json:"outcome"`
			} `json:"result"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		reply := func(id json.RawMessage, result any) {
			_ = w.Encode(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
		}
		switch {
		case m.Method == "initialize":
			reply(m.ID, map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{"loadSession": false}})
		case m.Method == "session/new":
			reply(m.ID, map[string]any{"sessionId": "asker-1"})
		case m.Method == "session/prompt":
			prompt, session = m.ID, m.Params.SessionID
			_ = w.Encode(map[string]any{"jsonrpc": "2.0", "id": 950, "method": "session/request_permission", "params": map[string]any{
				"sessionId": session,
				"toolCall":  map[string]any{"toolCallId": "t1", "title": "Change the settings", "kind": "edit"},
				"options":   options,
			}})
		case m.Method == "" && string(m.ID) == "950" && prompt != nil:
			answered := cmp.Or(m.Result.Outcome.OptionID, "nothing")
			say(w, session, "answered "+answered+"\n")
			reply(prompt, map[string]any{"stopReason": "end_turn"})
			prompt = nil
		}
	}
	return 0
}

// blockLine is a block as one line of JSON that cannot end the fence around it: < > & are
// written as they are (the screen shows them), a backquote as an escape.
func blockLine(b PromptBlock) string {
	var out strings.Builder
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(b) // ends the line
	return strings.ReplaceAll(out.String(), "`", `\u0060`)
}

// say sends a message chunk of text in session.
func say(w *json.Encoder, session, text string) {
	_ = w.Encode(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{
		"sessionId": session,
		"update":    map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": text}},
	}})
}

// serveBlocks is the blocks agent.
func serveBlocks(in io.Reader, out, _ io.Writer) int {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	w := json.NewEncoder(out) // one message a line, unbuffered
	answer := func(id json.RawMessage, result any) {
		_ = w.Encode(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
	}
	sessions := 0
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				SessionID string `json:"sessionId"`
				Prompt    []struct {
					Type     string `json:"type"`
					Text     string `json:"text"`
					URI      string `json:"uri"`
					Resource struct {
						URI  string `json:"uri"`
						Text string `json:"text"`
					} `json:"resource"`
				} `json:"prompt"`
			} `json:"params"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		switch m.Method {
		case "initialize":
			answer(m.ID, map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{
				"loadSession": false, "promptCapabilities": map[string]any{"embeddedContext": true}}})
		case "session/new":
			sessions++
			answer(m.ID, map[string]any{"sessionId": fmt.Sprintf("blocks-%d", sessions)})
		case "session/prompt":
			var b strings.Builder
			b.WriteString("```json\n")
			for _, p := range m.Params.Prompt {
				block := PromptBlock{Type: p.Type, Text: p.Text, URI: p.URI}
				if p.Type == "resource" {
					block.Text, block.URI = p.Resource.Text, p.Resource.URI
				}
				b.WriteString(blockLine(block))
			}
			b.WriteString("```\n")
			say(w, m.Params.SessionID, b.String())
			answer(m.ID, map[string]any{"stopReason": "end_turn"})
		}
	}
	return 0
}
