package chat_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// What a tool call does: its kind, its files and lines, and for an execute call the command
// of its raw input, sanitized, on one line, cut with "…".
func TestToolCallAction(t *testing.T) {
	c, _, _ := newConv(t, i18n.English)
	h := c.Handler("alice", nil)
	c.BeginTurn("alice", "go")
	long := "echo \x1b[31mred\x1b[0m\nrm -rf ~/\u202eevil " + strings.Repeat("x", 10_000) + " tail"
	h.Update(sdk.StartToolCall("run", "Run it", sdk.WithStartKind(sdk.ToolKindExecute),
		sdk.WithStartRawInput(map[string]any{"command": long, "description": "a test"})))
	h.Update(sdk.StartToolCall("argv", "Run words", sdk.WithStartKind(sdk.ToolKindExecute),
		sdk.WithStartRawInput(map[string]any{"command": []any{"bash", "-lc", "echo 'hi' there"}})))
	h.Update(sdk.StartToolCall("edit", "Modifying critical configuration file", sdk.WithStartKind(sdk.ToolKindEdit),
		sdk.WithStartLocations([]sdk.ToolCallLocation{{Path: "/etc/app.conf", Line: sdk.Ptr(12)}, {Path: "/etc/other\x1b[2J.conf"}}),
		sdk.WithStartRawInput(map[string]any{"command": "view"})))
	h.Update(sdk.StartToolCall("none", "No command", sdk.WithStartKind(sdk.ToolKindExecute),
		sdk.WithStartRawInput(map[string]any{"command": 42})))

	es := c.Snapshot()
	if len(es) != 5 {
		t.Fatalf("%d entries: %+v", len(es), es)
	}
	run := es[1].Tool.Action()
	if run.Kind != "execute" || len(run.Locations) != 0 {
		t.Errorf("run: %+v", run)
	}
	assertSafe(t, "command", run.Command, true)
	if !strings.HasPrefix(run.Command, "echo red rm -rf ~/evil xxx") || !strings.HasSuffix(run.Command, "x…") ||
		len(run.Command) > chat.MaxCommandText || !utf8.ValidString(run.Command) {
		t.Errorf("command = %q (%d bytes), want it sanitized, on one line, cut with … at %d bytes",
			run.Command, len(run.Command), chat.MaxCommandText)
	}
	if got, want := es[2].Tool.Action().Command, `bash -lc 'echo '\''hi'\'' there'`; got != want {
		t.Errorf("words = %q, want %q", got, want)
	}
	edit := es[3].Tool.Action()
	if edit.Kind != "edit" || edit.Command != "" || len(edit.Locations) != 2 ||
		edit.Locations[0].String() != "/etc/app.conf:12" || edit.Locations[1].String() != "/etc/other.conf" {
		t.Errorf("edit: %+v, locations %v", edit, edit.Locations)
	}
	if got := es[4].Tool.Action().Command; got != "" {
		t.Errorf("a command that is not text: %q", got)
	}

	// An update's raw input replaces the command; an update without one keeps it.
	h.Update(sdk.UpdateToolCall("argv", sdk.WithUpdateRawInput(map[string]any{"command": "make test"})))
	h.Update(sdk.UpdateToolCall("argv", sdk.WithUpdateStatus(sdk.ToolCallStatusInProgress)))
	if e, _ := c.Entry(2); e.Tool.Action().Command != "make test" {
		t.Errorf("after updates: %q", e.Tool.Action().Command)
	}
}

// A tool call its turn ends before it completes or fails is unfinished; one still running
// is not, nor one that ended.
func TestToolCallsLeftByTheTurnAreUnfinished(t *testing.T) {
	c, _, sink := newConv(t, i18n.English)
	h := c.Handler("alice", nil)
	c.BeginTurn("alice", "go")
	h.Update(sdk.StartToolCall("p", "pending"))
	h.Update(sdk.StartToolCall("r", "running", sdk.WithStartStatus(sdk.ToolCallStatusInProgress)))
	h.Update(sdk.StartToolCall("d", "done", sdk.WithStartStatus(sdk.ToolCallStatusCompleted)))
	h.Update(sdk.StartToolCall("f", "failed", sdk.WithStartStatus(sdk.ToolCallStatusFailed)))
	h.Update(sdk.UpdateToolCall("u", sdk.WithUpdateTitle("never announced")))
	for _, e := range c.Snapshot() {
		if e.Unfinished() {
			t.Errorf("%q is unfinished during its turn", e.Text+titleOf(e))
		}
	}
	c.EndTurn("alice", chat.StopEndTurn, nil)
	want := map[string]bool{"pending": true, "running": true, "done": false, "failed": false, "never announced": true}
	for _, e := range c.Snapshot()[1:] {
		if got := e.Unfinished(); got != want[titleOf(e)] {
			t.Errorf("%s: unfinished %v, want %v", titleOf(e), got, want[titleOf(e)])
		}
	}
	// Saved done, it reads unfinished when the history is loaded again.
	c.Flush()
	saved := sink.latest()
	loaded, _, _ := newConv(t, i18n.English)
	loaded.Load(saved)
	n := 0
	for _, e := range loaded.Snapshot() {
		if e.Unfinished() {
			n++
		}
	}
	if n != 3 {
		t.Errorf("%d unfinished tool calls in the loaded history, want 3", n)
	}
}

func titleOf(e chat.Entry) string {
	if e.Tool == nil {
		return ""
	}
	return e.Tool.Title
}

// A command loaded from the history is sanitized and cut like one an agent sends.
func TestLoadedCommandIsSanitized(t *testing.T) {
	c, _, _ := newConv(t, i18n.English)
	c.Load([]chat.Entry{{Kind: chat.KindToolCall, Done: true, Tool: &chat.ToolCall{Kind: "execute",
		Command: "ls\x1b]0;pwned\x07 " + strings.Repeat("y", 5000)}}})
	e, _ := c.Entry(0)
	cmd := e.Tool.Action().Command
	assertSafe(t, "loaded command", cmd, true)
	if !strings.HasPrefix(cmd, "ls y") || len(cmd) > chat.MaxCommandText || !strings.HasSuffix(cmd, "…") {
		t.Errorf("loaded command = %q", cmd)
	}
}
