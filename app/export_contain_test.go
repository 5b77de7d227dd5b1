package app

import (
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// A fence a message leaves open is closed at its end: the entries after it keep their
// headings; a message's headings go under its entry's.
func TestExportContainsEntries(t *testing.T) {
	at := time.Date(2026, 12, 1, 14, 5, 9, 0, time.Local)
	entries := []chat.Entry{
		{Kind: chat.KindUser, Text: "```go\nfunc unclosed() {", Created: at, Done: true},
		{Kind: chat.KindAgent, Author: "alice", Text: "# Plan\n\n~~~~\n~~~\n# not a heading\n", Created: at, Done: true},
		{Kind: chat.KindAgent, Author: "alice", Text: "#hashtag\n####### seven\n  ## Two\n````\n```\n", Created: at, Done: true},
		{Kind: chat.KindUser, Text: "after", Created: at, Done: true},
	}
	got, _ := exportText(t, "alice", at, entries)
	when := at.Format("2006-01-02 15:04:05")
	want := "# alice\n\nExported from Sidekicks on " + at.Format("2006-01-02 15:04") + ".\n\n" +
		"## You · " + when + "\n\n```go\nfunc unclosed() {\n```\n\n" +
		"## Alice · " + when + "\n\n### Plan\n\n~~~~\n~~~\n# not a heading\n~~~~\n\n" +
		"## Alice · " + when + "\n\n#hashtag\n####### seven\n#### Two\n````\n```\n````\n\n" +
		"## You · " + when + "\n\nafter\n\n"
	if got != want {
		t.Errorf("export\n got %q\nwant %q", got, want)
	}
}
