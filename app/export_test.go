package app

import (
	"strings"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// The texts of Search history and Export have both languages, with the same verbs.
func TestSearchMessagesComplete(t *testing.T) {
	for _, p := range searchCatalogue.Problems(fmsgItemSearch) {
		t.Error(p)
	}
}

// Each kind of entry has its shape in the Markdown export: a heading per entry with who
// and when, code fences kept, a thought quoted, a tool call's command, files and output
// fenced (with a fence that what it holds cannot close), a plan as a task list.
func TestMarkdownExportShape(t *testing.T) {
	at := time.Date(2026, 5, 4, 10, 30, 0, 0, time.Local)
	old := "a\n"
	entries := []chat.Entry{
		{Kind: chat.KindUser, Text: "Show me *Go*.", Created: at, Done: true},
		{Kind: chat.KindThought, Author: "alice", Text: "They want Go.\nKeep it short.", Created: at, Done: true},
		{Kind: chat.KindAgent, Author: "alice", Text: "Here:\n\n```go\nfmt.Println(1)\n```", Created: at, Done: true},
		{Kind: chat.KindToolCall, Author: "alice", Created: at, Done: true, Tool: &chat.ToolCall{
			Title: "Run *tests*", Kind: "execute", Status: "completed", Command: "go test ./...",
			Locations: []chat.Location{{Path: "main.go", Line: 3}},
			Content: []chat.ToolContent{
				{Type: "content", Text: "ok\n```\nnot a fence end\n"},
				{Type: "diff", Path: "a.txt", OldText: &old, NewText: "b\n"},
			},
		}},
		{Kind: chat.KindPlan, Author: "alice", Created: at, Done: true, Plan: []chat.PlanEntry{
			{Content: "Write", Status: "completed"}, {Content: "Test", Status: "in_progress"},
		}},
		{Kind: chat.KindNotice, Text: "alice: turn cancelled", Created: at, Done: true},
		{Kind: chat.KindAgent, Author: "alice", Text: "Half a", Created: at, Interrupted: true},
	}
	got, m := exportText(t, "#général", at, entries)
	when := at.Format("2006-01-02 15:04:05")
	want := "# #général\n\nExported from Sidekicks on " + at.Format("2006-01-02 15:04") + ".\n\n" +
		"## You · " + when + "\n\nShow me *Go*.\n\n" +
		"## Alice · thought · " + when + "\n\n> They want Go.\n> Keep it short.\n\n" +
		"## Alice · " + when + "\n\nHere:\n\n```go\nfmt.Println(1)\n```\n\n" +
		"## Alice · tool call · " + when + "\n\n**Run \\*tests\\*** (execute, completed)\n\n" +
		"```sh\ngo test ./...\n```\n\n- `main.go:3`\n\n" +
		"````\nok\n```\nnot a fence end\n````\n\n" +
		"`a.txt`\n\n```diff\n-a\n+b\n```\n\n" +
		"## Alice · plan · " + when + "\n\n- [x] Write\n- [ ] Test (in progress)\n\n" +
		"## Sidekicks · notice · " + when + "\n\n*alice: turn cancelled*\n\n" +
		"## Alice · " + when + "\n\nHalf a\n\n*(interrupted: Sidekicks stopped while this was written)*\n\n"
	if got != want {
		t.Errorf("export\n got %q\nwant %q", got, want)
	}
	if m.n != len(entries) {
		t.Errorf("%d entries counted, want %d", m.n, len(entries))
	}
}

// A file name made from a channel's name keeps its letters and digits only.
func TestFileWord(t *testing.T) {
	for in, want := range map[string]string{"général": "général", "a b/../c": "a-b----c", "///": "conversation", "x\x1b[2J": "x--2J"} {
		if got := fileWord(in); got != want {
			t.Errorf("fileWord(%q) = %q, want %q", in, got, want)
		}
	}
}

// exportText writes entries as Markdown under title, alice titled "Alice", at the time at.
func exportText(t *testing.T, title string, at time.Time, entries []chat.Entry) (string, *markdownExport) {
	t.Helper()
	var b strings.Builder
	m := newMarkdownExport(&b, i18n.English, title, at, func(name string) string { return "Alice" })
	for _, e := range entries {
		if err := m.entry(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.finish(); err != nil {
		t.Fatal(err)
	}
	return b.String(), m
}
