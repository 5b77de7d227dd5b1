package chat_test

import (
	"context"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// readCall starts a tool call that read a file and completes it with the file's content.
func readCall(h *chat.AgentHandler, id sdk.ToolCallId, path, text string) {
	h.Update(sdk.StartToolCall(id, "Read "+path, sdk.WithStartKind(sdk.ToolKindRead)))
	h.Update(sdk.UpdateToolCall(id, sdk.WithUpdateStatus(sdk.ToolCallStatusCompleted),
		sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(text))})))
}

// toolCalls returns the tool call entries of a conversation, in order.
func toolCalls(c *chat.Conversation) []chat.Entry {
	var out []chat.Entry
	for _, e := range c.Snapshot() {
		if e.Kind == chat.KindToolCall {
			out = append(out, e)
		}
	}
	return out
}

// wantRead checks that a tool call entry is the read of path in turn, completed with text.
func wantRead(t *testing.T, where string, e chat.Entry, turn int64, path, text string) {
	t.Helper()
	want := chat.ToolCall{ID: string(e.Tool.ID), Title: "Read " + path, Kind: "read", Status: "completed",
		Content: []chat.ToolContent{{Type: "content", Text: text}}}
	if e.Turn != turn || !equalJSON(*e.Tool, want) {
		t.Errorf("%s: turn %d %+v; want turn %d %+v", where, e.Turn, *e.Tool, turn, want)
	}
}

// A tool_call whose id the session used in an earlier turn is a new call of the current
// turn: the earlier entry, and its row in the history, stay as they were.
func TestToolCallIDReusedInLaterTurn(t *testing.T) {
	c, _, sink := newConv(t, i18n.English)
	h := c.Handler("wiz", nil)
	c.BeginTurn("wiz", "/read a.txt")
	readCall(h, "read-1", "a.txt", "first file AAA")
	h.Chunk(chat.ChunkAgentMessage, "I read a.txt")
	c.EndTurn("wiz", chat.StopEndTurn, nil)
	c.Flush()
	first := toolCalls(c)[0]
	saved := len(sink.of(first.Seq))

	c.BeginTurn("wiz", "/read b.txt")
	readCall(h, "read-1", "b.txt", "second file BBB")
	c.EndTurn("wiz", chat.StopEndTurn, nil)
	c.Flush()

	calls := toolCalls(c)
	if len(calls) != 2 {
		t.Fatalf("%d tool calls, want one per turn: %+v", len(calls), calls)
	}
	wantRead(t, "the first turn's call", calls[0], 1, "a.txt", "first file AAA")
	wantRead(t, "the second turn's call", calls[1], 2, "b.txt", "second file BBB")
	if n := len(sink.of(first.Seq)); n != saved {
		t.Errorf("the first turn's call was saved again (%d saves, was %d): %+v", n, saved, sink.of(first.Seq)[n-1])
	}
	// From then on the id names the new call: a late update reaches it, not the old one.
	h.Update(sdk.UpdateToolCall("read-1", sdk.WithUpdateTitle("Read b.txt again")))
	calls = toolCalls(c)
	if calls[0].Tool.Title != "Read a.txt" || calls[1].Tool.Title != "Read b.txt again" {
		t.Errorf("a late update after the reuse went to %q / %q", calls[0].Tool.Title, calls[1].Tool.Title)
	}
}

// The ids of another session (the agent restarted, its session reloaded or new) never reach
// the earlier session's entries, not even those of the same turn or a call that never
// ended: a tool_call makes a new entry, an update of an id the new session never announced
// makes one too, and a permission request does not touch the old call.
func TestToolCallIDOfEarlierSession(t *testing.T) {
	c, _, sink := newConv(t, i18n.English)
	old := c.Handler("wiz", nil)
	c.BeginTurn("wiz", "/read a.txt")
	readCall(old, "read-1", "a.txt", "first file AAA")
	old.Update(sdk.StartToolCall("run-2", "Run make", sdk.WithStartKind(sdk.ToolKindExecute), sdk.WithStartStatus(sdk.ToolCallStatusInProgress)))
	c.EndTurn("wiz", "", chat.ErrAgentRestarted)
	c.Flush()
	before := toolCalls(c)
	savedRun := len(sink.of(before[1].Seq))

	h := c.Handler("wiz", nil) // the restarted agent's session
	c.BeginTurn("wiz", "/read b.txt")
	h.Update(sdk.UpdateToolCall("run-2", sdk.WithUpdateStatus(sdk.ToolCallStatusFailed)))
	h.RequestPermission(context.Background(), sdk.RequestPermissionRequest{
		ToolCall: sdk.ToolCallUpdate{ToolCallId: "read-1", Title: sdk.Ptr("Write a.txt")},
		Options:  []sdk.PermissionOption{{OptionId: "allow", Name: "Allow", Kind: sdk.PermissionOptionKindAllowOnce}},
	})
	readCall(h, "read-1", "b.txt", "second file BBB")
	c.EndTurn("wiz", chat.StopEndTurn, nil)
	c.Flush()

	calls := toolCalls(c)
	if len(calls) != 4 {
		t.Fatalf("%d tool calls, want the two of the first session and two new ones: %+v", len(calls), calls)
	}
	wantRead(t, "the first session's read", calls[0], 1, "a.txt", "first file AAA")
	if run := calls[1].Tool; run.Status != "in_progress" || run.Title != "Run make" {
		t.Errorf("the first session's unfinished call became %+v", *run)
	}
	if n := len(sink.of(before[1].Seq)); n != savedRun {
		t.Errorf("the first session's unfinished call was saved again: %+v", sink.of(before[1].Seq)[n-1])
	}
	if calls[2].Turn != 2 || calls[2].Tool.ID != "run-2" || calls[2].Tool.Status != "failed" {
		t.Errorf("the new session's update of an id it never announced made %+v (turn %d)", *calls[2].Tool, calls[2].Turn)
	}
	wantRead(t, "the new session's read", calls[3], 2, "b.txt", "second file BBB")
	if got := c.Stats("wiz").UnknownToolUpdates; got != 1 {
		t.Errorf("%d updates of unknown tool calls counted, want 1", got)
	}
}

// A tool call that never ended stays addressable when it leaves memory (a late update
// updates its row in the history), but a tool_call of a later turn with its id is a new
// call: the released entry's row is not written again.
func TestToolCallIDReusedAfterRelease(t *testing.T) {
	c := chat.New(chat.Options{})
	k := newKeeper()
	c.SetSink(k)
	h := c.Handler("wiz", nil)
	c.BeginTurn("wiz", "run it")
	h.Update(sdk.StartToolCall("open", "Run make", sdk.WithStartStatus(sdk.ToolCallStatusInProgress)))
	c.EndTurn("wiz", chat.StopEndTurn, nil)
	c.AddNotice("between the turns")
	c.Flush()
	released, _ := c.Entry(1)
	if got := c.Release(c.Len()-1, firstSeq(c)); got != 2 {
		t.Fatalf("released %d entries, want the user's message and the tool call", got)
	}
	saves := len(k.of(released.Seq))

	c.BeginTurn("wiz", "run it again")
	h.Update(sdk.StartToolCall("open", "Run make again", sdk.WithStartStatus(sdk.ToolCallStatusCompleted)))
	c.Flush()
	if n := len(k.of(released.Seq)); n != saves {
		t.Fatalf("the released call's row was written again: %+v", k.of(released.Seq)[n-1])
	}
	calls := toolCalls(c)
	if len(calls) != 1 || calls[0].Turn != 2 || calls[0].Tool.Title != "Run make again" || calls[0].Seq == released.Seq {
		t.Fatalf("tool calls held: %+v; want the new call of turn 2 alone", calls)
	}
}
