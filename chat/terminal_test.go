package chat_test

import (
	"strconv"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// terminalPiece returns the terminal piece of the conversation's tool call id.
func terminalPiece(t *testing.T, c *chat.Conversation, id string) chat.ToolContent {
	t.Helper()
	for _, e := range c.Snapshot() {
		if e.Kind == chat.KindToolCall && e.Tool != nil && e.Tool.ID == id {
			for _, p := range e.Tool.Content {
				if p.Type == "terminal" {
					return p
				}
			}
		}
	}
	t.Fatalf("no terminal piece in tool call %s", id)
	return chat.ToolContent{}
}

// TestTerminalOutputShowsInItsToolCall: output that came before the tool call named its
// terminal shows as soon as it does; later output and the ending replace it; a status
// update without content keeps it; the text is sanitized; another terminal's output stays
// out.
func TestTerminalOutputShowsInItsToolCall(t *testing.T) {
	c, _, _ := newConv(t, i18n.English)
	h := c.Handler("alice", nil)
	c.BeginTurn("alice", "run it")
	h.TerminalOutput("term-1", chat.TerminalOutput{Output: "first\n"})
	h.TerminalOutput("term-2", chat.TerminalOutput{Output: "other\n"})
	h.Update(decode(t, `{"sessionUpdate":"tool_call","toolCallId":"c1","title":"Run","kind":"execute","status":"in_progress",
		"content":[{"type":"terminal","terminalId":"term-1"}]}`))
	if p := terminalPiece(t, c, "c1"); p.Terminal == nil || p.Terminal.Output != "first\n" || p.Terminal.Exited {
		t.Fatalf("piece %+v, want the output so far", p.Terminal)
	}
	h.TerminalOutput("term-1", chat.TerminalOutput{Output: "first\nsecond \x1b[31mred\x1b[0m\n", Exited: true, ExitCode: 2})
	h.Update(decode(t, `{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"completed"}`))
	p := terminalPiece(t, c, "c1")
	if p.Terminal == nil || p.Terminal.Output != "first\nsecond red\n" || !p.Terminal.Exited || p.Terminal.ExitCode != 2 {
		t.Fatalf("piece %+v, want the sanitized output and exit 2", p.Terminal)
	}
	if got := p.Terminal.Ending(i18n.English); got != "exit 2" {
		t.Errorf("ending %q", got)
	}
}

// TestTerminalTrackIsBounded: an agent that creates terminals without end keeps the output
// of the latest only; a tool call that names a forgotten one shows no output.
func TestTerminalTrackIsBounded(t *testing.T) {
	c, _, _ := newConv(t, i18n.English)
	h := c.Handler("alice", nil)
	c.BeginTurn("alice", "run")
	for i := range 1000 {
		h.TerminalOutput("t"+strconv.Itoa(i), chat.TerminalOutput{Output: "x"})
	}
	h.Update(decode(t, `{"sessionUpdate":"tool_call","toolCallId":"old","content":[{"type":"terminal","terminalId":"t0"}]}`))
	if p := terminalPiece(t, c, "old"); p.Terminal != nil {
		t.Errorf("the first terminal's output was kept: %+v", p.Terminal)
	}
	h.Update(decode(t, `{"sessionUpdate":"tool_call","toolCallId":"new","content":[{"type":"terminal","terminalId":"t999"}]}`))
	if p := terminalPiece(t, c, "new"); p.Terminal == nil || p.Terminal.Output != "x" {
		t.Errorf("the last terminal's output was lost: %+v", p.Terminal)
	}
}
