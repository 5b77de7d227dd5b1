package convo

import (
	"fmt"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// numbered returns n lines "line 1" … "line n".
func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func allText(v *View) []string {
	var out []string
	for _, r := range v.RowsAt(0, v.Total()) {
		out = append(out, r.Text())
	}
	return out
}

func TestLongUserEntryFolds(t *testing.T) {
	paste := numbered(3000)
	v, _ := viewOf(t, 60, chat.Entry{Kind: chat.KindUser, Text: paste, Done: true}, agentEntry("ok"))
	rows := allText(v)
	if v.Total() > 20 {
		t.Fatalf("a 3,000-line paste takes %d rows, want it folded:\n%s", v.Total(), strings.Join(rows, "\n"))
	}
	joined := strings.Join(rows, "\n")
	for _, want := range []string{"line 1", "line 10", "… 2,990 more lines — Enter unfolds", "ok"} {
		if !strings.Contains(joined, want) {
			t.Errorf("folded rows lack %q:\n%s", want, joined)
		}
	}
	if strings.Contains(joined, "line 11\n") || strings.Contains(joined, "line 3000") {
		t.Errorf("folded rows show hidden lines:\n%s", joined)
	}
	// Copied whole, from the marker's rows or across them.
	marker := rowWith(t, v.RowsAt(0, v.Total()), "more lines")
	if got, n := v.CopySelection(0, v.Total()-1); n < 3000 || !strings.Contains(got, "line 3000") {
		t.Errorf("a copy across the fold gives %d lines", n)
	}
	if got, n := v.CopyRegion(marker); n != 3000 || got != paste {
		t.Errorf("the region of the marker copies %d lines, want the whole paste", n)
	}
	if !v.FoldAt(marker) || !v.ToggleFold(marker) {
		t.Fatal("the marker does not toggle")
	}
	if v.Total() < 3000 || v.Folded(0) {
		t.Fatalf("unfolded, the entry takes %d rows", v.Total())
	}
	if !v.ToggleFold(5) || !v.Folded(0) || v.Total() > 20 {
		t.Fatalf("folding again: %d rows", v.Total())
	}
}

func TestFoldSurvivesRelayout(t *testing.T) {
	v, _ := viewOf(t, 60, chat.Entry{Kind: chat.KindUser, Text: numbered(50), Done: true}, agentEntry("ok"))
	v.Unfold(0)
	v.SetSize(40, 10)
	v.Sync()
	v.ensure(0).park()
	v.ensure(0)
	if v.Folded(0) {
		t.Fatal("an entry the user unfolded folds again after a resize and a re-layout")
	}
}

func TestShortEntriesAndAgentsDoNotFold(t *testing.T) {
	v, _ := viewOf(t, 60,
		chat.Entry{Kind: chat.KindUser, Text: numbered(20), Done: true},
		agentEntry(numbered(200)),
		chat.Entry{Kind: chat.KindThought, Author: "alice", Text: numbered(12), Done: true},
	)
	for i := range 3 {
		if v.Folded(i) {
			t.Errorf("entry %d folds", i)
		}
	}
}

func TestThoughtsAndToolOutputFold(t *testing.T) {
	v, _ := viewOf(t, 60,
		chat.Entry{Kind: chat.KindThought, Author: "alice", Text: numbered(13), Done: true},
		toolEntry(&chat.ToolCall{Title: "Run", Status: "completed", Content: []chat.ToolContent{{Type: "content", Text: numbered(40)}}}),
	)
	joined := strings.Join(allText(v), "\n")
	if !v.Folded(0) || !v.Folded(1) || !strings.Contains(joined, "… 7 more lines") || !strings.Contains(joined, "… 34 more lines") {
		t.Fatalf("a thought and a tool output do not fold:\n%s", joined)
	}
	if strings.Contains(joined, "line 7\n") {
		t.Errorf("hidden lines shown:\n%s", joined)
	}
}

func TestFoldLabelFrench(t *testing.T) {
	if got := FoldLabelFor(i18n.French)(2807); got != "… 2 807 lignes de plus — Entrée déplie" {
		t.Errorf("French marker %q", got)
	}
}

// An entry the user unfolded stays unfolded once it left memory and was read back from the
// history (a new Seq, the same text).
func TestFoldStateSurvivesReload(t *testing.T) {
	paste := numbered(50)
	v, src := viewOf(t, 60, agentEntry("a"), chat.Entry{Kind: chat.KindUser, Text: paste, Done: true}, agentEntry("ok"))
	if !v.Folded(1) || !v.Unfold(1) {
		t.Fatal("the entry does not fold")
	}
	src.entries = src.entries[2:]
	src.rev++
	v.DropFront(2)
	v.Sync()
	src.entries = append([]chat.Entry{agentEntry("a"), {Kind: chat.KindUser, Text: paste, Done: true, Seq: 100, Rev: 100}}, src.entries...)
	src.rev++
	v.Sync()
	if v.Len() != 3 || v.Folded(1) {
		t.Fatalf("read back (%d entries), the entry the user unfolded folds again", v.Len())
	}
}

func TestFindMatchesUnfold(t *testing.T) {
	v, _ := viewOf(t, 60, chat.Entry{Kind: chat.KindUser, Text: numbered(3000), Done: true}, agentEntry("Line 2500 said again"))
	var hits []Hit
	for i := range v.Len() {
		hits, _ = v.FindIn(i, NewQuery("line 2500"), hits)
	}
	if len(hits) != 2 {
		t.Fatalf("%d matches, want 2 (case ignored, the folded lines searched)", len(hits))
	}
	if hits2, _ := v.FindIn(1, NewQuery("Line 2500"), nil); len(hits2) != 1 {
		t.Fatalf("a query with a capital: %d matches in the agent's entry", len(hits2))
	}
	if hits3, _ := v.FindIn(0, NewQuery("Line 2500"), nil); len(hits3) != 0 {
		t.Fatalf("a query with a capital matches another case")
	}
	row, ok := v.RowOfHit(hits[0])
	if !ok || v.Folded(0) {
		t.Fatal("showing a match the fold hides does not unfold")
	}
	if got := v.RowsAt(row, 1)[0].Text(); got != "line 2500" {
		t.Fatalf("the match's row shows %q", got)
	}
}
