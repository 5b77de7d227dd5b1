package chat_test

import (
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// decode turns a session update as it appears on the wire into the SDK's value.
func decode(t testing.TB, wire string) sdk.SessionUpdate {
	t.Helper()
	var u sdk.SessionUpdate
	if err := json.Unmarshal([]byte(wire), &u); err != nil {
		t.Fatalf("decoding %s: %v", wire, err)
	}
	return u
}

func TestChunksExtendOneEntryPerKind(t *testing.T) {
	c, _, _ := newConv(t, i18n.English)
	h := c.Handler("alice", nil)
	turn := c.BeginTurn("alice", "hi")
	h.Chunk(chat.ChunkAgentThought, "let me ")
	h.Chunk(chat.ChunkAgentThought, "think")
	h.Chunk(chat.ChunkAgentMessage, "Hel")
	h.Update(sdk.UpdateAgentMessageText("lo"))
	h.Chunk(chat.ChunkAgentMessage, "")
	h.Chunk(chat.ChunkAgentMessage, " there")
	h.Chunk(chat.ChunkAgentThought, "again")

	got := c.Snapshot()
	want := []struct {
		kind   chat.EntryKind
		author string
		text   string
		done   bool
	}{
		{chat.KindUser, "", "hi", true},
		{chat.KindThought, "alice", "let me think", true},
		{chat.KindAgent, "alice", "Hello there", true},
		{chat.KindThought, "alice", "again", false},
	}
	if len(got) != len(want) {
		t.Fatalf("%d entries, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		e := got[i]
		if e.Kind != w.kind || e.Author != w.author || e.Text != w.text || e.Done != w.done || e.Turn != turn {
			t.Errorf("entry %d = {%s %q %q done=%v turn=%d}, want {%s %q %q done=%v turn=%d}",
				i, e.Kind, e.Author, e.Text, e.Done, e.Turn, w.kind, w.author, w.text, w.done, turn)
		}
		if e.Seq != int64(i+1) {
			t.Errorf("entry %d has Seq %d, want %d", i, e.Seq, i+1)
		}
	}
	c.EndTurn("alice", chat.StopEndTurn, nil)
	if last, _ := c.Entry(3); !last.Done {
		t.Error("the open thought is not done after the turn ended")
	}
	if c.Len() != 4 {
		t.Errorf("end_turn added an entry: %d entries", c.Len())
	}
}

// Every update kind, as it comes off the wire.
func TestUpdateKinds(t *testing.T) {
	tests := []struct {
		name  string
		wire  string
		check func(t *testing.T, c *chat.Conversation)
	}{
		{"agent message", `{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Hi"}}`,
			wantLast(chat.KindAgent, "alice", "Hi")},
		{"agent thought", `{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"hmm"}}`,
			wantLast(chat.KindThought, "alice", "hmm")},
		{"user message replayed", `{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"my question"}}`,
			wantLast(chat.KindUser, "", "my question")},
		{"image chunk", `{"sessionUpdate":"agent_message_chunk","content":{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}}`,
			wantLast(chat.KindAgent, "alice", "[image]")},
		{"audio chunk", `{"sessionUpdate":"agent_message_chunk","content":{"type":"audio","data":"AAAA","mimeType":"audio/wav"}}`,
			wantLast(chat.KindAgent, "alice", "[audio]")},
		{"resource link chunk", `{"sessionUpdate":"agent_message_chunk","content":{"type":"resource_link","name":"main.go","uri":"file:///w/main.go"}}`,
			wantLast(chat.KindAgent, "alice", "[link: main.go]")},
		{"resource chunk", `{"sessionUpdate":"agent_message_chunk","content":{"type":"resource","resource":{"uri":"file:///w/a.txt","text":"x"}}}`,
			wantLast(chat.KindAgent, "alice", "[resource: file:///w/a.txt]")},
		{"tool call", `{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Read main.go","kind":"read","status":"pending","locations":[{"path":"/w/main.go","line":3}],"content":[{"type":"content","content":{"type":"text","text":"package main"}}]}`,
			func(t *testing.T, c *chat.Conversation) {
				e := last(t, c)
				if e.Kind != chat.KindToolCall || e.Tool == nil {
					t.Fatalf("last entry %+v is not a tool call", e)
				}
				want := chat.ToolCall{ID: "t1", Title: "Read main.go", Kind: "read", Status: "pending",
					Content:   []chat.ToolContent{{Type: "content", Text: "package main"}},
					Locations: []chat.Location{{Path: "/w/main.go", Line: 3}}}
				if !equalJSON(*e.Tool, want) {
					t.Errorf("tool call = %+v, want %+v", *e.Tool, want)
				}
			}},
		{"plan", `{"sessionUpdate":"plan","entries":[{"content":"Read","priority":"high","status":"completed"},{"content":"Write","priority":"low","status":"pending"}]}`,
			func(t *testing.T, c *chat.Conversation) {
				e := last(t, c)
				want := []chat.PlanEntry{{Content: "Read", Priority: "high", Status: "completed"}, {Content: "Write", Priority: "low", Status: "pending"}}
				if e.Kind != chat.KindPlan || e.Author != "alice" || !equalJSON(e.Plan, want) {
					t.Errorf("last entry = %+v, want a plan %+v", e, want)
				}
			}},
		{"available commands", `{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"help","description":"Show help"},{"name":"echo","description":"Echo text","input":{"hint":"text to echo"}}]}`,
			func(t *testing.T, c *chat.Conversation) {
				want := []chat.Command{{Name: "help", Description: "Show help"}, {Name: "echo", Description: "Echo text", HasInput: true, InputHint: "text to echo"}}
				if got := c.Commands("alice"); !equalJSON(got, want) {
					t.Errorf("commands = %+v, want %+v", got, want)
				}
				if c.Len() != 0 {
					t.Errorf("commands made %d entries", c.Len())
				}
			}},
		{"usage", `{"sessionUpdate":"usage_update","used":1200,"size":200000,"cost":{"amount":0.25,"currency":"USD"}}`,
			func(t *testing.T, c *chat.Conversation) {
				u, ok := c.Usage("alice")
				if !ok || u.Used != 1200 || u.Size != 200000 || u.Cost == nil || u.Cost.Amount != 0.25 || u.Cost.Currency != "USD" {
					t.Errorf("usage = %+v, %v", u, ok)
				}
			}},
		{"mode change ignored", `{"sessionUpdate":"current_mode_update","currentModeId":"code"}`,
			wantIgnored("current_mode_update")},
		{"session info titles the session", `{"sessionUpdate":"session_info_update","title":"x\u001b[2Jy"}`,
			func(t *testing.T, c *chat.Conversation) {
				if c.Len() != 0 || c.Stats("alice").Ignored != 0 || c.SessionTitle("alice") != "xy" {
					t.Errorf("%d entries, stats %+v, title %q: want the title, sanitized, and nothing else", c.Len(), c.Stats("alice"), c.SessionTitle("alice"))
				}
			}},
		{"config options ignored", `{"sessionUpdate":"config_option_update","configOptions":[]}`,
			wantIgnored("config_option_update")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _, _ := newConv(t, i18n.English)
			h := c.Handler("alice", nil)
			h.Update(decode(t, tt.wire))
			tt.check(t, c)
		})
	}
}

func TestPlaceholdersInFrench(t *testing.T) {
	c, _, _ := newConv(t, i18n.French)
	h := c.Handler("alice", nil)
	h.Update(sdk.UpdateAgentMessage(sdk.ResourceLinkBlock("main.go", "file:///w/main.go")))
	h.Update(sdk.UpdateAgentMessage(sdk.ContentBlock{}))
	if got := last(t, c).Text; got != "[lien : main.go][contenu non pris en charge]" {
		t.Errorf("text = %q", got)
	}
}

func TestUnknownChunkKindIsCounted(t *testing.T) {
	c, _, _ := newConv(t, i18n.English)
	h := c.Handler("alice", nil)
	h.Chunk("agent_dream_chunk", "zzz")
	h.Update(sdk.SessionUpdate{})
	if c.Len() != 0 {
		t.Errorf("%d entries, want none", c.Len())
	}
	if s := h.Stats(); s.Ignored != 2 || s.LastIgnored != "empty" {
		t.Errorf("stats = %+v", s)
	}
}

func TestPlanReplacedInPlaceWithinATurn(t *testing.T) {
	c, _, _ := newConv(t, i18n.English)
	h := c.Handler("alice", nil)
	c.BeginTurn("alice", "go")
	h.Update(sdk.UpdatePlan(sdk.PlanEntry{Content: "one", Priority: "high", Status: "pending"}))
	h.Chunk(chat.ChunkAgentMessage, "working")
	first := last(t, c)
	h.Update(sdk.UpdatePlan(sdk.PlanEntry{Content: "one", Priority: "high", Status: "completed"},
		sdk.PlanEntry{Content: "two", Priority: "low", Status: "in_progress"}))
	h.Chunk(chat.ChunkAgentMessage, " still")
	if c.Len() != 3 {
		t.Fatalf("%d entries, want user, plan, reply: %+v", c.Len(), c.Snapshot())
	}
	plan, _ := c.Entry(1)
	if plan.Kind != chat.KindPlan || len(plan.Plan) != 2 || plan.Plan[0].Status != "completed" || plan.Plan[1].Content != "two" {
		t.Errorf("plan = %+v", plan)
	}
	if reply := last(t, c); reply.Text != "working still" || reply.Seq != first.Seq {
		t.Errorf("an in-place plan update broke the reply: %+v", reply)
	}
	c.EndTurn("alice", chat.StopEndTurn, nil)
	c.BeginTurn("alice", "again")
	h.Update(sdk.UpdatePlan(sdk.PlanEntry{Content: "new", Priority: "medium", Status: "pending"}))
	if p := last(t, c); p.Kind != chat.KindPlan || p.Seq == plan.Seq || p.Plan[0].Content != "new" {
		t.Errorf("a new turn's plan did not make a new entry: %+v", p)
	}
	if old, _ := c.Entry(1); old.Plan[1].Content != "two" || !old.Done {
		t.Errorf("the previous turn's plan changed: %+v", old)
	}
}

func TestCommandsReplacedAndBounded(t *testing.T) {
	c, _, _ := newConv(t, i18n.English)
	h := c.Handler("alice", nil)
	h.Update(decode(t, `{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"old","description":""}]}`))
	var cmds []sdk.AvailableCommand
	for range chat.MaxCommands + 50 {
		cmds = append(cmds, sdk.AvailableCommand{Name: "c", Description: "d"})
	}
	cmds = append([]sdk.AvailableCommand{{Name: "\x1b[31m", Description: "empty once sanitized"}}, cmds...)
	h.Update(sdk.SessionUpdate{AvailableCommandsUpdate: &sdk.SessionAvailableCommandsUpdate{AvailableCommands: cmds}})
	got := c.Commands("alice")
	if len(got) != chat.MaxCommands || got[0].Name != "c" {
		t.Errorf("%d commands, first %+v; want %d, the nameless one skipped", len(got), got[0], chat.MaxCommands)
	}
	if other := c.Commands("bob"); other != nil {
		t.Errorf("bob has commands %v", other)
	}
}

func TestUsageKeepsTheLast(t *testing.T) {
	c, _, _ := newConv(t, i18n.English)
	h := c.Handler("alice", nil)
	if _, ok := c.Usage("alice"); ok {
		t.Fatal("usage before any update")
	}
	h.Update(sdk.SessionUpdate{UsageUpdate: &sdk.SessionUsageUpdate{Used: 1, Size: 10}})
	h.Update(sdk.SessionUpdate{UsageUpdate: &sdk.SessionUsageUpdate{Used: 5, Size: 10}})
	if u, _ := c.Usage("alice"); u.Used != 5 || u.Cost != nil {
		t.Errorf("usage = %+v", u)
	}
}

func TestRevisionsGrowOnChange(t *testing.T) {
	c, _, _ := newConv(t, i18n.English)
	h := c.Handler("alice", nil)
	c.BeginTurn("alice", "q")
	h.Chunk(chat.ChunkAgentMessage, "a")
	e1 := last(t, c)
	user, _ := c.Entry(0)
	h.Chunk(chat.ChunkAgentMessage, "b")
	e2 := last(t, c)
	if e2.Rev <= e1.Rev {
		t.Errorf("Rev did not grow: %d then %d", e1.Rev, e2.Rev)
	}
	if again, _ := c.Entry(0); again.Rev != user.Rev {
		t.Errorf("the user entry's Rev changed without a change: %d then %d", user.Rev, again.Rev)
	}
	before := c.Rev()
	h.Update(sdk.SessionUpdate{UsageUpdate: &sdk.SessionUsageUpdate{Used: 1}})
	if c.Rev() <= before {
		t.Error("the conversation's Rev did not grow on a usage update")
	}
}

func TestEntriesRange(t *testing.T) {
	c, _, _ := newConv(t, i18n.English)
	for _, s := range []string{"a", "b", "c"} {
		c.AddUser(s)
	}
	if got := c.Entries(1, 10); len(got) != 2 || got[0].Text != "b" || got[1].Text != "c" {
		t.Errorf("Entries(1, 10) = %+v", got)
	}
	if got := c.Entries(-5, 1); len(got) != 1 || got[0].Text != "a" {
		t.Errorf("Entries(-5, 1) = %+v", got)
	}
	if got := c.Entries(2, 1); got != nil {
		t.Errorf("Entries(2, 1) = %+v", got)
	}
	if _, ok := c.Entry(3); ok {
		t.Error("Entry(3) exists")
	}
}

// The 1 MiB cap: what fits is kept, the rest counted, never a character cut in two.
func TestEntryCap(t *testing.T) {
	tests := []struct {
		name  string
		chunk string
		total int
	}{
		{"ASCII", strings.Repeat("x", 1000), 1 << 20 * 3 / 2},
		{"two-byte runes", strings.Repeat("é", 499) + "a", 1 << 20 * 3 / 2},
		{"four-byte runes", strings.Repeat("😀", 333), 1<<20 + 5000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _, _ := newConv(t, i18n.English)
			h := c.Handler("alice", nil)
			sent := 0
			for sent < tt.total {
				h.Chunk(chat.ChunkAgentMessage, tt.chunk)
				sent += len(tt.chunk)
			}
			e := last(t, c)
			if c.Len() != 1 {
				t.Fatalf("%d entries, want 1", c.Len())
			}
			if len(e.Text) > chat.MaxEntryText || len(e.Text) < chat.MaxEntryText-3 {
				t.Errorf("kept %d bytes, want %d (less at most a character)", len(e.Text), chat.MaxEntryText)
			}
			if int(e.Lost)+len(e.Text) != sent {
				t.Errorf("kept %d + lost %d != sent %d", len(e.Text), e.Lost, sent)
			}
			assertSafe(t, "capped text", e.Text, false)
		})
	}
}

func TestNoticeCapped(t *testing.T) {
	c, _, _ := newConv(t, i18n.English)
	c.AddNotice(strings.Repeat("e", chat.MaxEntryText+10))
	if e := last(t, c); len(e.Text) != chat.MaxEntryText || e.Lost != 10 || !e.Done || e.Kind != chat.KindNotice {
		t.Errorf("notice: %d bytes, lost %d, done %v", len(e.Text), e.Lost, e.Done)
	}
}

func TestPlanCapped(t *testing.T) {
	c, _, _ := newConv(t, i18n.English)
	h := c.Handler("alice", nil)
	var entries []sdk.PlanEntry
	for range chat.MaxPlanEntries + 10 {
		entries = append(entries, sdk.PlanEntry{Content: "step", Priority: "low", Status: "pending"})
	}
	h.Update(sdk.UpdatePlan(entries...))
	e := last(t, c)
	if len(e.Plan) != chat.MaxPlanEntries || e.Lost != 10*int64(len("steplowpending")) {
		t.Errorf("plan kept %d entries, lost %d", len(e.Plan), e.Lost)
	}
	big := strings.Repeat("p", 4000)
	entries = entries[:0]
	for range 300 { // 1.2 MB of entries, under the count
		entries = append(entries, sdk.PlanEntry{Content: big, Priority: "low", Status: "pending"})
	}
	h.Update(sdk.UpdatePlan(entries...))
	e = last(t, c)
	size := 0
	for _, p := range e.Plan {
		size += len(p.Content) + len(p.Priority) + len(p.Status)
	}
	if size > chat.MaxEntryText || e.Lost == 0 || size+int(e.Lost) != 300*(4000+len("lowpending")) {
		t.Errorf("plan kept %d bytes, lost %d", size, e.Lost)
	}
}

// Too many entries in one turn: the rest is dropped, counted, and said once.
func TestTurnEntriesBounded(t *testing.T) {
	c, _, _ := newConv(t, i18n.English)
	h := c.Handler("alice", nil)
	c.BeginTurn("alice", "go")
	for i := range chat.MaxTurnEntries + 500 {
		if i%2 == 0 {
			h.Chunk(chat.ChunkAgentMessage, "m")
		} else {
			h.Chunk(chat.ChunkAgentThought, "t")
		}
	}
	if n := c.Len(); n != 1+chat.MaxTurnEntries+1 {
		t.Errorf("%d entries, want the user's, %d and one notice", n, chat.MaxTurnEntries)
	}
	notices := 0
	for _, e := range c.Snapshot() {
		if e.Kind == chat.KindNotice {
			notices++
			if !strings.Contains(e.Text, "too many entries") {
				t.Errorf("notice %q", e.Text)
			}
		}
	}
	if notices != 1 {
		t.Errorf("%d notices, want 1", notices)
	}
	// The last entry made is a thought: later thought chunks still extend it, message chunks
	// (which would each need a new entry) are dropped.
	if s := h.Stats(); s.DroppedEntries != 250 {
		t.Errorf("dropped %d, want 250", s.DroppedEntries)
	}
	if e, _ := c.Entry(chat.MaxTurnEntries); e.Kind != chat.KindThought || e.Text != strings.Repeat("t", 251) {
		t.Errorf("last thought = %s %q", e.Kind, e.Text)
	}
	c.EndTurn("alice", chat.StopEndTurn, nil)
	c.BeginTurn("alice", "again")
	h.Chunk(chat.ChunkAgentMessage, "fresh")
	if e := last(t, c); e.Text != "fresh" {
		t.Errorf("a new turn cannot add entries: last is %+v", e)
	}
}

func last(t testing.TB, c *chat.Conversation) chat.Entry {
	t.Helper()
	e, ok := c.Entry(c.Len() - 1)
	if !ok {
		t.Fatal("no entry")
	}
	return e
}

func wantLast(kind chat.EntryKind, author, text string) func(*testing.T, *chat.Conversation) {
	return func(t *testing.T, c *chat.Conversation) {
		e := last(t, c)
		if e.Kind != kind || e.Author != author || e.Text != text {
			t.Errorf("last entry = {%s %q %q}, want {%s %q %q}", e.Kind, e.Author, e.Text, kind, author, text)
		}
	}
}

func wantIgnored(kind string) func(*testing.T, *chat.Conversation) {
	return func(t *testing.T, c *chat.Conversation) {
		if c.Len() != 0 {
			t.Errorf("%d entries, want none", c.Len())
		}
		if s := c.Stats("alice"); s.Ignored != 1 || s.LastIgnored != kind {
			t.Errorf("stats = %+v, want one ignored %s", s, kind)
		}
	}
}

func equalJSON(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}

// TestSaidGrowsOnlyWithEntries: what marks a window unread grows when an entry is added or
// changes, not with the state around the entries (commands, usage, a title), nor with
// entries read back from the history.
func TestSaidGrowsOnlyWithEntries(t *testing.T) {
	c, _, _ := newConv(t, i18n.English)
	h := c.Handler("alice", nil)
	c.Load([]chat.Entry{{Kind: chat.KindAgent, Author: "alice", Text: "from before", Done: true}})
	said, rev := c.Said(), c.Rev()
	h.Update(decode(t, `{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"help","description":""}]}`))
	h.Update(sdk.SessionUpdate{UsageUpdate: &sdk.SessionUsageUpdate{Used: 1, Size: 10}})
	h.Update(decode(t, `{"sessionUpdate":"session_info_update","title":"A title"}`))
	if c.Rev() == rev {
		t.Fatal("the state updates changed no revision: the test proves nothing")
	}
	if c.Said() != said {
		t.Errorf("commands, usage and a title moved Said from %d to %d", said, c.Said())
	}
	c.BeginTurn("alice", "q")
	said = c.Said()
	h.Chunk(chat.ChunkAgentMessage, "an answer")
	if c.Said() == said {
		t.Error("an agent's message left Said as it was")
	}
}
