package anthropicstub

import (
	"encoding/json"
	"testing"
)

// TestScriptAnswerSteps: the step follows the assistant messages since the prompt, tool
// results and reminders are no prompt, side requests get the default, tools take the name
// the request offers.
func TestScriptAnswerSteps(t *testing.T) {
	s := Script{Conversations: []Conversation{{
		Prompt: "list files",
		Steps:  []Turn{{Bash("ls", "List")}, {Text("two files")}},
	}}}
	msgs := func(raw string) request {
		var r request
		if err := json.Unmarshal([]byte(raw), &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	cases := []struct {
		name, req, kind, text, tool string
	}{
		{"prompt", `{"messages":[{"role":"user","content":"please list files"}],"tools":[{"name":"mcp__acp__Bash"}]}`, "tool_use", "", "mcp__acp__Bash"},
		{"prompt without the mcp tool", `{"messages":[{"role":"user","content":[{"type":"text","text":"list files"}]}],"tools":[{"name":"Bash"},{"name":"mcp__x__Bash"}]}`, "tool_use", "", "Bash"},
		{"after the tool result", `{"messages":[{"role":"user","content":"list files"},{"role":"assistant","content":[]},
			{"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":"a b"},{"type":"text","text":"list files again?"}]}]}`, "text", "two files", ""},
		{"after a reminder", `{"messages":[{"role":"user","content":"list files"},{"role":"assistant","content":[]},
			{"role":"user","content":"<system-reminder>x</system-reminder>"}]}`, "text", "two files", ""},
		{"past the script", `{"messages":[{"role":"user","content":"list files"},{"role":"assistant","content":[]},{"role":"user","content":[{"type":"tool_result"}]},
			{"role":"assistant","content":[]},{"role":"user","content":[{"type":"tool_result"}]}]}`, "text", "Done.", ""},
		{"side request", `{"messages":[{"role":"user","content":"write a title"}]}`, "text", "OK.", ""},
		{"no messages", `{}`, "text", "OK.", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := msgs(c.req)
			turn := s.answer(req).resolve(req)
			if len(turn) != 1 || turn[0].kind != c.kind || turn[0].text != c.text || turn[0].resolved != c.tool {
				t.Errorf("answer %+v, want one %s block %q tool %q", turn, c.kind, c.text, c.tool)
			}
		})
	}
}

// TestPiecesKeepCharacters: streamed deltas never cut a character.
func TestPiecesKeepCharacters(t *testing.T) {
	for _, s := range []string{"", "a", "héllo wörld ünïcode", "日本語のテキスト", "🙂🙂🙂🙂"} {
		joined := ""
		for _, p := range pieces(s) {
			if !json.Valid([]byte(`"` + p + `"`)) {
				t.Errorf("piece %q of %q is not valid text", p, s)
			}
			joined += p
		}
		if joined != s {
			t.Errorf("pieces of %q join to %q", s, joined)
		}
	}
}
