package testagents

import (
	"cmp"
	"encoding/json"
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
		modes[mode] = func(in io.Reader, out, _ io.Writer) int { return serveAsker(mode, options, in, out) }
	}
}

// serveAsker is an asker agent offering options.
func serveAsker(mode string, options []any, in io.Reader, out io.Writer) int {
	p := newPeer(mode, in, out)
	var prompt json.RawMessage // the prompt waiting for the answer
	var session string
	for {
		m, ok := p.next()
		if !ok {
			return 0
		}
		switch {
		case p.handshake(m, nil):
		case m.Method == "session/prompt":
			prompt, session = m.ID, m.Params.SessionID
			p.request(950, "session/request_permission", map[string]any{
				"sessionId": session,
				"toolCall":  map[string]any{"toolCallId": "t1", "title": "Change the settings", "kind": "edit"},
				"options":   options,
			})
		case m.isAnswerTo(950) && prompt != nil:
			var r struct {
				Outcome struct {
					OptionID string `json:"optionId"`
				} `json:"outcome"`
			}
			_ = json.Unmarshal(m.Result, &r)
			p.say(session, "answered "+cmp.Or(r.Outcome.OptionID, "nothing")+"\n")
			p.endTurn(prompt)
			prompt = nil
		}
	}
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

// serveBlocks is the blocks agent.
func serveBlocks(in io.Reader, out, _ io.Writer) int {
	p := newPeer(BlocksMode, in, out)
	for {
		m, ok := p.next()
		if !ok {
			return 0
		}
		if p.handshake(m, map[string]any{"promptCapabilities": map[string]any{"embeddedContext": true}}) || m.Method != "session/prompt" {
			continue
		}
		var b strings.Builder
		b.WriteString("```json\n")
		for _, block := range m.Params.Prompt {
			pb := PromptBlock{Type: block.Type, Text: block.Text, URI: block.URI}
			if block.Type == "resource" {
				pb.Text, pb.URI = block.Resource.Text, block.Resource.URI
			}
			b.WriteString(blockLine(pb))
		}
		b.WriteString("```\n")
		p.say(m.Params.SessionID, b.String())
		p.endTurn(m.ID)
	}
}
