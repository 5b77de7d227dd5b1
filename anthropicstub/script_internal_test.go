package anthropicstub

import (
	"encoding/json"
	"testing"
)

// TestScriptAnswerSteps: the step follows the results of the conversation's own tool uses,
// whatever way the messages are merged; reminders are no prompt, a text beside tool results
// is; side requests get the default; tools take the name the request offers.
func TestScriptAnswerSteps(t *testing.T) {
	s := Script{Conversations: []Conversation{
		{Prompt: "list files", Steps: []Turn{{Bash("ls", "List")}, {Bash("ls -l", "Again")}, {Text("two files")}}},
		{Prompt: "say hi", Steps: []Turn{{Text("hi")}}},
	}}
	issued := func(id string) (step, bool) {
		at, ok := map[string]step{"x": {0, 0}, "y": {0, 1}, "z": {1, 0}}[id]
		return at, ok
	}
	cases := []struct {
		name, req, kind, text, tool string
	}{
		{"prompt", `{"messages":[{"role":"user","content":"please list files"}],"tools":[{"name":"mcp__acp__Bash"}]}`, "tool_use", "", "mcp__acp__Bash"},
		{"prompt without the mcp tool", `{"messages":[{"role":"user","content":[{"type":"text","text":"list files"}]}],"tools":[{"name":"Bash"},{"name":"mcp__x__Bash"}]}`, "tool_use", "", "Bash"},
		{"after the first result", `{"messages":[{"role":"user","content":"list files"},{"role":"assistant","content":[]},
			{"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":"a b"},{"type":"text","text":"<system-reminder>say hi</system-reminder>"}]}]}`, "tool_use", "", "Bash"},
		{"after both results", `{"messages":[{"role":"user","content":"list files"},{"role":"assistant","content":[]},
			{"role":"user","content":[{"type":"tool_result","tool_use_id":"y"},{"type":"tool_result","tool_use_id":"x"}]}]}`, "text", "two files", ""},
		{"a prompt merged with the last results", `{"messages":[{"role":"user","content":"list files"},{"role":"assistant","content":[]},
			{"role":"user","content":[{"type":"tool_result","tool_use_id":"x"},{"type":"text","text":"now say hi"}]}]}`, "text", "hi", ""},
		{"past the script", `{"messages":[{"role":"user","content":"say hi"},{"role":"user","content":[{"type":"tool_result","tool_use_id":"z"}]}]}`, "text", "Done.", ""},
		{"an unknown result", `{"messages":[{"role":"user","content":"list files"},{"role":"user","content":[{"type":"tool_result","tool_use_id":"q"}]}]}`, "tool_use", "", "Bash"},
		{"side request", `{"messages":[{"role":"user","content":"write a title"}]}`, "text", "OK.", ""},
		{"no messages", `{}`, "text", "OK.", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var req request
			if err := json.Unmarshal([]byte(c.req), &req); err != nil {
				t.Fatal(err)
			}
			turn, _ := s.answer(req, issued)
			turn = turn.resolve(req)
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
