package chat_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

func TestToolCallFoldsItsUpdates(t *testing.T) {
	c, _, sink := newConv(t, i18n.English)
	h := c.Handler("alice", nil)
	c.BeginTurn("alice", "edit it")
	h.Chunk(chat.ChunkAgentMessage, "I will edit.")
	h.Update(sdk.StartToolCall("t1", "Edit notes.txt", sdk.WithStartKind(sdk.ToolKindEdit)))
	h.Update(sdk.StartToolCall("t2", "Run tests", sdk.WithStartKind(sdk.ToolKindExecute), sdk.WithStartStatus(sdk.ToolCallStatusInProgress)))
	h.Update(sdk.UpdateToolCall("t1",
		sdk.WithUpdateStatus(sdk.ToolCallStatusInProgress),
		sdk.WithUpdateLocations([]sdk.ToolCallLocation{{Path: "/w/notes.txt", Line: sdk.Ptr(-4)}}),
		sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolDiffContent("/w/notes.txt", "new", "old"), sdk.ToolDiffContent("/w/new.txt", "created")})))
	h.Update(sdk.UpdateToolCall("t2", sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolTerminalRef("term-1"), sdk.ToolContent(sdk.TextBlock("ok 3 tests"))})))
	h.Update(sdk.UpdateToolCall("t1", sdk.WithUpdateTitle("Edited notes.txt"), sdk.WithUpdateStatus(sdk.ToolCallStatusCompleted)))

	es := c.Snapshot()
	if len(es) != 4 {
		t.Fatalf("%d entries, want user, reply, two tool calls: %+v", len(es), es)
	}
	if !es[1].Done {
		t.Error("the reply is not done although the agent started a tool call")
	}
	t1, t2 := es[2], es[3]
	if t1.Kind != chat.KindToolCall || t1.Author != "alice" || !t1.Done {
		t.Errorf("t1 entry = %+v", t1)
	}
	wantT1 := chat.ToolCall{ID: "t1", Title: "Edited notes.txt", Kind: "edit", Status: "completed",
		Content: []chat.ToolContent{
			{Type: "diff", Path: "/w/notes.txt", OldText: sdk.Ptr("old"), NewText: "new"},
			{Type: "diff", Path: "/w/new.txt", NewText: "created"},
		},
		Locations: []chat.Location{{Path: "/w/notes.txt", Line: 0}}}
	if !equalJSON(*t1.Tool, wantT1) {
		t.Errorf("t1 = %+v\nwant %+v", *t1.Tool, wantT1)
	}
	if t1.Tool.Content[1].OldText != nil {
		t.Error("a diff of a new file has an old text")
	}
	wantT2 := chat.ToolCall{ID: "t2", Title: "Run tests", Kind: "execute", Status: "in_progress",
		Content: []chat.ToolContent{{Type: "terminal", TerminalID: "term-1"}, {Type: "content", Text: "ok 3 tests"}}}
	if !equalJSON(*t2.Tool, wantT2) || t2.Done {
		t.Errorf("t2 = %+v done=%v\nwant %+v", *t2.Tool, t2.Done, wantT2)
	}
	c.Flush()
	saves := sink.of(t1.Seq)
	if final := saves[len(saves)-1]; !final.Done || final.Tool.Status != "completed" {
		t.Errorf("the completed tool call was not saved done: %+v", final)
	}

	c.EndTurn("alice", chat.StopEndTurn, nil)
	if e, _ := c.Entry(3); !e.Done || e.Tool.Status != "in_progress" {
		t.Errorf("after the turn, t2 = done %v status %s; want done, status as the agent left it", e.Done, e.Tool.Status)
	}
	// A late update still folds into its entry, and is saved at once since it is done.
	h.Update(sdk.UpdateToolCall("t2", sdk.WithUpdateStatus(sdk.ToolCallStatusFailed)))
	if e, _ := c.Entry(3); e.Tool.Status != "failed" {
		t.Errorf("late update lost: %s", e.Tool.Status)
	}
	c.Flush()
	if saves := sink.of(t2.Seq); saves[len(saves)-1].Tool.Status != "failed" {
		t.Error("late update not saved")
	}
}

// A copy of an entry taken before an update keeps its tool call as it was.
func TestToolCallCopiesAreStable(t *testing.T) {
	c, _, _ := newConv(t, i18n.English)
	h := c.Handler("alice", nil)
	h.Update(sdk.StartToolCall("t1", "first", sdk.WithStartContent([]sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock("a"))})))
	before := last(t, c)
	h.Update(sdk.UpdateToolCall("t1", sdk.WithUpdateTitle("second"), sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock("b"))})))
	if before.Tool.Title != "first" || before.Tool.Content[0].Text != "a" {
		t.Errorf("an earlier copy changed: %+v", *before.Tool)
	}
	if now := last(t, c); now.Tool.Title != "second" || now.Tool.Content[0].Text != "b" {
		t.Errorf("update lost: %+v", *now.Tool)
	}
}

// A tool_call_update for an id the agent never announced makes the call, pending unless
// it says otherwise, and the updates that follow fold into it.
func TestUnannouncedToolCallIsShown(t *testing.T) {
	c, _, _ := newConv(t, i18n.English)
	h := c.Handler("alice", nil)
	c.BeginTurn("alice", "go")
	h.Update(sdk.UpdateToolCall("ghost", sdk.WithUpdateTitle("Read secrets"),
		sdk.WithUpdateLocations([]sdk.ToolCallLocation{{Path: "/w/.env"}})))
	h.Update(sdk.UpdateToolCall("ghost", sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock("read 3 lines"))})))
	h.Update(sdk.UpdateToolCall("silent", sdk.WithUpdateStatus(sdk.ToolCallStatusCompleted)))
	es := c.Snapshot()
	if len(es) != 3 {
		t.Fatalf("%d entries, want the user's and two tool calls: %+v", len(es), es)
	}
	want := chat.ToolCall{ID: "ghost", Title: "Read secrets", Status: "pending",
		Locations: []chat.Location{{Path: "/w/.env"}}, Content: []chat.ToolContent{{Type: "content", Text: "read 3 lines"}}}
	if e := es[1]; e.Kind != chat.KindToolCall || e.Author != "alice" || e.Done || !equalJSON(*e.Tool, want) {
		t.Errorf("ghost = %+v %+v\nwant %+v", e, e.Tool, want)
	}
	if e := es[2]; e.Tool == nil || e.Tool.ID != "silent" || e.Tool.Status != "completed" || !e.Done {
		t.Errorf("silent = %+v", e)
	}
	if s := h.Stats(); s.UnknownToolUpdates != 2 {
		t.Errorf("counted %d updates that announced a call, want 2", s.UnknownToolUpdates)
	}
}

// 100,000 updates for tool calls nobody announced, each a new id: the turn keeps at most
// MaxTurnEntries of them, and says so once.
func TestUnknownToolCallFloodIsBounded(t *testing.T) {
	c, _, _ := newConv(t, i18n.English)
	h := c.Handler("alice", nil)
	c.BeginTurn("alice", "go")
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range 100_000 {
		h.Update(sdk.UpdateToolCall(sdk.ToolCallId(fmt.Sprint("ghost-", i)),
			sdk.WithUpdateStatus(sdk.ToolCallStatusInProgress),
			sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock("output line"))})))
	}
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	// The user's message, MaxTurnEntries tool calls, the notice that the rest is not shown.
	if c.Len() != chat.MaxTurnEntries+2 {
		t.Errorf("%d entries, want %d", c.Len(), chat.MaxTurnEntries+2)
	}
	if s := h.Stats(); s.UnknownToolUpdates != 100_000 || s.DroppedEntries != 100_000-chat.MaxTurnEntries {
		t.Errorf("stats %+v", s)
	}
	if grown := int64(after.HeapAlloc) - int64(before.HeapAlloc); grown > 16<<20 {
		t.Errorf("heap grew by %d bytes", grown)

	}
}

func TestToolCallContentCapped(t *testing.T) {
	c, _, _ := newConv(t, i18n.English)
	h := c.Handler("alice", nil)
	big := strings.Repeat("é", 600_000) // 1.2 MB
	h.Update(sdk.StartToolCall("t1", "Write big", sdk.WithStartContent([]sdk.ToolCallContent{
		sdk.ToolDiffContent("/w/big.txt", big, "old"),
		sdk.ToolContent(sdk.TextBlock("after")),
	}), sdk.WithStartLocations([]sdk.ToolCallLocation{{Path: "/w/big.txt"}})))
	e := last(t, c)
	kept := 0
	for _, p := range e.Tool.Content {
		kept += len(p.Path) + len(p.NewText) + len(p.Text)
		if p.OldText != nil {
			kept += len(*p.OldText)
		}
	}
	for _, l := range e.Tool.Locations {
		kept += len(l.Path)
	}
	sent := len("/w/big.txt")*2 + len(big) + len("old") + len("after")
	if kept > chat.MaxEntryText || kept < chat.MaxEntryText-1 {
		t.Errorf("kept %d bytes, want %d", kept, chat.MaxEntryText)
	}
	if kept+int(e.Lost) != sent {
		t.Errorf("kept %d + lost %d != sent %d", kept, e.Lost, sent)
	}
	assertSafe(t, "cut diff", e.Tool.Content[0].NewText, false)

	// Replacing the content replaces what was lost.
	h.Update(sdk.UpdateToolCall("t1", sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock("small"))})))
	if e := last(t, c); e.Lost != 0 || len(e.Tool.Content) != 1 {
		t.Errorf("after a small content: lost %d, %d pieces", e.Lost, len(e.Tool.Content))
	}

	var many []sdk.ToolCallContent
	for range chat.MaxToolPieces + 3 {
		many = append(many, sdk.ToolContent(sdk.TextBlock("xy")))
	}
	h.Update(sdk.UpdateToolCall("t1", sdk.WithUpdateContent(many)))
	if e := last(t, c); len(e.Tool.Content) != chat.MaxToolPieces || e.Lost != 6 {
		t.Errorf("%d pieces, lost %d; want %d and 6", len(e.Tool.Content), e.Lost, chat.MaxToolPieces)
	}
}

func TestToolCallResentReplacesIt(t *testing.T) {
	c, _, _ := newConv(t, i18n.English)
	h := c.Handler("alice", nil)
	h.Update(sdk.StartToolCall("t1", "first", sdk.WithStartContent([]sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock("a"))})))
	h.Update(sdk.StartToolCall("t1", "again"))
	if c.Len() != 1 {
		t.Fatalf("%d entries for one tool call id", c.Len())
	}
	if e := last(t, c); e.Tool.Title != "again" || len(e.Tool.Content) != 0 || e.Tool.Status != "pending" {
		t.Errorf("resent tool call = %+v", *e.Tool)
	}
}

// Tool call ids are per agent: two agents of a channel may use the same one.
func TestToolCallIDsArePerAgent(t *testing.T) {
	c, _, _ := newConv(t, i18n.English)
	alice, bob := c.Handler("alice", nil), c.Handler("bob", nil)
	alice.Update(sdk.StartToolCall("1", "alice's"))
	bob.Update(sdk.StartToolCall("1", "bob's"))
	bob.Update(sdk.UpdateToolCall("1", sdk.WithUpdateStatus(sdk.ToolCallStatusCompleted)))
	es := c.Snapshot()
	if len(es) != 2 || es[0].Tool.Status != "pending" || es[1].Tool.Status != "completed" || es[1].Author != "bob" {
		t.Errorf("entries = %+v / %+v", *es[0].Tool, *es[1].Tool)
	}
}
