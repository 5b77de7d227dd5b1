package convo

import (
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// TestTerminalPieceShowsItsOutput: a terminal piece shows its state after its name
// (running with the key that kills it, then how it ended), then its output lines.
func TestTerminalPieceShowsItsOutput(t *testing.T) {
	src := &fakeSource{}
	term := func(out chat.TerminalOutput) chat.Entry {
		return toolEntry(&chat.ToolCall{ID: "c1", Title: "Run", Status: "in_progress", Content: []chat.ToolContent{
			{Type: "terminal", TerminalID: "term-1", Terminal: &out},
		}})
	}
	src.add(term(chat.TerminalOutput{Output: "one\ntwo"}))
	v := New(src, Options{Labels: LabelsFor(i18n.English)})
	v.SetSize(80, 100)
	v.Sync()
	want := "" +
		"label      |A alice\n" +
		"tool-header|  ⚙ Run — in progress\n" +
		"tool-output|    terminal term-1 — running — Alt-K kills it\n" +
		"tool-output|    one\n" +
		"tool-output|    two\n"
	if got := dump(all(t, v)); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	src.set(0, term(chat.TerminalOutput{Output: "one\ntwo\nthree\n", Exited: true, Killed: true, Signal: "SIGTERM", Truncated: true}))
	v.Sync()
	got := dump(all(t, v))
	if !strings.Contains(got, "terminal term-1 — killed (SIGTERM), earlier output dropped\n") || !strings.Contains(got, "|    three\n") {
		t.Errorf("after the kill:\n%s", got)
	}
	fr := New(src, Options{Labels: LabelsFor(i18n.French)})
	fr.SetSize(80, 100)
	fr.Sync()
	if got := dump(all(t, fr)); !strings.Contains(got, "terminal term-1 — arrêté (SIGTERM), début de la sortie perdu") {
		t.Errorf("in French:\n%s", got)
	}
}
