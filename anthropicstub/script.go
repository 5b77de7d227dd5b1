package anthropicstub

import (
	"encoding/json"
	"strings"
)

// Block is one content block of a scripted answer: Text, Thinking or a ToolUse.
type Block struct {
	kind     string // "text", "thinking" or "tool_use"
	text     string
	tool     string
	input    json.RawMessage
	resolved string // the tool's name as the request offered it, set when answering
	id       string // the tool_use's id, set when answering
}

// Text is a text block.
func Text(s string) Block { return Block{kind: "text", text: s} }

// Thinking is a thinking block (sent with a dummy signature).
func Thinking(s string) Block { return Block{kind: "thinking", text: s} }

// ToolUse is a tool_use block for the tool named tool with input marshalled to JSON. When the
// request does not offer tool but offers an MCP tool whose name ends with "__"+tool (the ACP
// agents' mcp__acp__Bash when the client has terminals), that one is used.
func ToolUse(tool string, input any) Block {
	data, err := json.Marshal(input)
	if err != nil {
		panic("anthropicstub: tool input: " + err.Error())
	}
	return Block{kind: "tool_use", tool: tool, input: data}
}

// Bash is a tool_use block that runs command with the agent's Bash tool, with a timeout of
// two minutes (claude-code-acp's own Bash, mcp__acp__Bash, requires one).
func Bash(command, description string) Block {
	return ToolUse("Bash", map[string]any{"command": command, "description": description, "timeout": 120000})
}

// Read is a tool_use block that reads path with the agent's Read tool.
func Read(path string) Block {
	return ToolUse("Read", map[string]any{"file_path": path})
}

// Write is a tool_use block that writes content to path with the agent's Write tool.
func Write(path, content string) Block {
	return ToolUse("Write", map[string]any{"file_path": path, "content": content})
}

// Turn is one answer of the model: its blocks in order. A turn with a ToolUse stops with
// "tool_use", the agent runs the tool and asks again with its result; a turn without one
// ends the agent's turn.
type Turn []Block

// Conversation is what the model answers to a prompt: Steps[0] to the prompt itself, then
// Steps[i] to the request that carries the i-th round of tool results. After the last step
// the model answers "Done.".
type Conversation struct {
	Prompt string // a request whose last prompt contains this (exactly) follows the script
	Steps  []Turn
}

// Script is the stand-in's whole behaviour: the conversation whose Prompt the last user
// text contains, else Default (a one-word "OK." when empty): the agents' side requests
// (titles, summaries) get that.
type Script struct {
	Conversations []Conversation
	Default       Turn
}

// request is the part of a Messages API request the stand-in reads.
type request struct {
	Model    string    `json:"model"`
	Stream   bool      `json:"stream"`
	Messages []message `json:"messages"`
	Tools    []struct {
		Name string `json:"name"`
	} `json:"tools"`
}

type message struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"` // a string or a list of blocks
}

// contentBlock is a block of a request's message.
type contentBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"` // a tool_result's: a string or blocks
}

func (m message) blocks() []contentBlock {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return []contentBlock{{Type: "text", Text: s}}
	}
	var bs []contentBlock
	_ = json.Unmarshal(m.Content, &bs)
	return bs
}

// userText is the text of a user message that is a prompt, and whether it is one: its text
// blocks other than Claude Code's <system-reminder>s. Claude Code may send a prompt in the
// message that carries the last tool results of the turn before.
func (m message) userText() (string, bool) {
	if m.Role != "user" {
		return "", false
	}
	var parts []string
	for _, b := range m.blocks() {
		if b.Type == "text" && !reminder(b.Text) {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n"), len(parts) > 0
}

// step is where a scripted tool_use stands: its conversation (by index in the script) and
// the step that sent it.
type step struct{ conv, step int }

// answer picks the turn for req: the conversation its last prompt names, at the step after
// the latest of that conversation's tool uses whose results req carries (issued says where
// each tool_use id the stand-in sent stands). Counting results rather than messages holds
// whatever way the agent merges its messages (Claude Code sends the prompt that follows a
// turn in the message of that turn's last tool results). A conversation asked again in
// the same session goes on from where it was.
func (s Script) answer(req request, issued func(id string) (step, bool)) (Turn, step) {
	text := ""
	for _, m := range req.Messages {
		if t, ok := m.userText(); ok {
			text = t
		}
	}
	if text != "" {
		for ci, c := range s.Conversations {
			if c.Prompt == "" || !strings.Contains(text, c.Prompt) {
				continue
			}
			next := 0
			for _, m := range req.Messages {
				for _, b := range m.blocks() {
					if at, ok := issued(b.ToolUseID); ok && b.Type == "tool_result" && at.conv == ci {
						next = max(next, at.step+1)
					}
				}
			}
			if next < len(c.Steps) {
				return c.Steps[next], step{ci, next}
			}
			return Turn{Text("Done.")}, step{ci, next}
		}
	}
	if len(s.Default) > 0 {
		return s.Default, step{-1, 0}
	}
	return Turn{Text("OK.")}, step{-1, 0}
}

// reminder tells the <system-reminder> texts Claude Code sends along with prompts and tool
// results from what the user wrote.
func reminder(t string) bool {
	t = strings.TrimSpace(t)
	return strings.HasPrefix(t, "<system-reminder>") && strings.HasSuffix(t, "</system-reminder>")
}

// resolve gives each tool_use block the name the request offers for its tool.
func (t Turn) resolve(req request) Turn {
	out := make(Turn, len(t))
	for i, b := range t {
		if b.kind == "tool_use" {
			b.resolved = toolName(req, b.tool)
		}
		out[i] = b
	}
	return out
}

func toolName(req request, tool string) string {
	for _, t := range req.Tools {
		if t.Name == tool {
			return tool
		}
	}
	for _, t := range req.Tools {
		if strings.HasSuffix(t.Name, "__"+tool) {
			return t.Name
		}
	}
	return tool
}
