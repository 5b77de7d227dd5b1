package chat_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// hostile holds, between letters, everything an agent must not get to a terminal: CSI, OSC
// (title and clipboard), DCS, a two-byte sequence, C0, C1 (as runes), bidi controls, CR,
// invalid UTF-8, and an ESC cut at the end.
const hostile = "a\x1b[31mb\x1b]0;pwned\x07c\x1b]52;c;ZXZpbA==\x1b\\d\x1bP1$r\x1b\\e\x1b7f\x00\x07\x08g" +
	"\u009b2Jh\u0085i\u202ej\u2066k\u200fl\u061cm\r\nn\xff\xfeo\tp\x1b"

// Every string an agent chooses reaches the conversation sanitized: chunks, tool titles,
// kinds, statuses, content, diffs, terminal ids, locations, plans, commands, usage,
// permission titles and options, error messages and stop reasons.
func TestEveryAgentStringIsSanitized(t *testing.T) {
	c, _, sink := newConv(t, i18n.English)
	var asked chat.PermissionRequest
	h := c.Handler("alice", askFunc(func(_ context.Context, _ string, req chat.PermissionRequest) (string, bool) {
		asked = req
		return hostile, true // the agent's own option id, given back
	}))
	c.BeginTurn("alice", hostile)
	h.Chunk(chat.ChunkAgentThought, hostile)
	h.Chunk(chat.ChunkAgentMessage, hostile)
	h.Chunk(chat.ChunkUserMessage, hostile)
	h.Update(sdk.UpdateAgentMessage(sdk.ResourceLinkBlock(hostile, hostile)))
	h.Update(sdk.UpdateAgentMessage(sdk.ContentBlock{Resource: &sdk.ContentBlockResource{Resource: sdk.EmbeddedResourceResource{
		TextResourceContents: &sdk.TextResourceContents{Uri: hostile, Text: hostile}}}}))
	h.Update(sdk.StartToolCall(hostile, hostile,
		sdk.WithStartKind(sdk.ToolKind(hostile)), sdk.WithStartStatus(sdk.ToolCallStatus(hostile)),
		sdk.WithStartContent([]sdk.ToolCallContent{
			sdk.ToolContent(sdk.TextBlock(hostile)),
			sdk.ToolContent(sdk.ResourceLinkBlock(hostile, hostile)),
			sdk.ToolDiffContent(hostile, hostile, hostile),
			sdk.ToolTerminalRef(hostile),
		}),
		sdk.WithStartLocations([]sdk.ToolCallLocation{{Path: hostile}})))
	h.Update(sdk.UpdateToolCall(hostile, sdk.WithUpdateTitle(hostile+"2")))
	h.Update(sdk.UpdatePlan(sdk.PlanEntry{Content: hostile, Priority: sdk.PlanEntryPriority(hostile), Status: sdk.PlanEntryStatus(hostile)}))
	h.Update(sdk.SessionUpdate{AvailableCommandsUpdate: &sdk.SessionAvailableCommandsUpdate{AvailableCommands: []sdk.AvailableCommand{
		{Name: hostile, Description: hostile, Input: &sdk.AvailableCommandInput{Unstructured: &sdk.UnstructuredCommandInput{Hint: hostile}}},
	}}})
	h.Update(sdk.SessionUpdate{UsageUpdate: &sdk.SessionUsageUpdate{Used: 1, Size: 2, Cost: &sdk.Cost{Amount: 1, Currency: hostile}}})
	h.Update(sdk.SessionUpdate{CurrentModeUpdate: &sdk.SessionCurrentModeUpdate{CurrentModeId: sdk.SessionModeId(hostile)}})
	h.RequestPermission(context.Background(), sdk.RequestPermissionRequest{
		ToolCall: sdk.ToolCallUpdate{ToolCallId: "other", Title: sdk.Ptr(hostile)},
		Options:  []sdk.PermissionOption{{OptionId: hostile, Name: hostile, Kind: sdk.PermissionOptionKind(hostile)}},
	})
	c.EndTurn("alice", hostile, nil)
	c.EndTurn("alice", "", errors.New(hostile))
	c.AddNotice(hostile)

	c.Flush()
	entries := c.Snapshot()
	if len(entries) < 10 {
		t.Fatalf("only %d entries", len(entries))
	}
	n := assertAllSafe(t, entries)
	n += assertAllSafe(t, c.Commands("alice"))
	u, _ := c.Usage("alice")
	n += assertAllSafe(t, u)
	n += assertAllSafe(t, asked)
	n += assertAllSafe(t, h.Stats())
	n += assertAllSafe(t, sink.all())
	if n < 50 {
		t.Errorf("only %d strings checked", n)
	}
	if asked.Options[0].ID != hostile {
		t.Errorf("the option id was changed: %q", asked.Options[0].ID)
	}
	for _, e := range entries {
		if strings.Contains(e.Text, "pwned") || strings.Contains(e.Text, "ZXZpbA") {
			t.Errorf("a sequence's payload shows: %q", e.Text)
		}
	}
	// The text itself survives: the letters between the sequences are all there.
	if got := entries[1].Text; got != "abcdefghijklm\nn\uFFFD\uFFFDo\tp" {
		t.Errorf("thought = %q", got)
	}
}

// An agent that cuts its escape sequences across chunks gets no ESC through either.
func TestSequenceSplitAcrossChunks(t *testing.T) {
	c, _, _ := newConv(t, i18n.English)
	h := c.Handler("alice", nil)
	stream := strings.Repeat("ok \x1b[1;31mred\x1b[0m \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\ ", 20)
	for i := 0; i < len(stream); i += 7 {
		h.Chunk(chat.ChunkAgentMessage, stream[i:min(i+7, len(stream))])
	}
	e := last(t, c)
	assertSafe(t, "reply", e.Text, false)
	if strings.ContainsRune(e.Text, 0x1b) {
		t.Errorf("ESC in %q", e.Text)
	}
}
