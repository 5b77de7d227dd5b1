package convo

import (
	"fmt"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

func toolEntry(t *chat.ToolCall) chat.Entry {
	return chat.Entry{Kind: chat.KindToolCall, Author: "alice", Tool: t, Done: t.Status == "completed" || t.Status == "failed"}
}

func TestToolCallRows(t *testing.T) {
	old := "package main\n\nfunc a() {}\nfunc b() {}\nfunc c() {}\nfunc d() {}\nfunc e() {}\nfunc f() {}\n"
	src := &fakeSource{}
	src.add(toolEntry(&chat.ToolCall{ID: "t1", Title: "Edit main.go", Status: "completed", Content: []chat.ToolContent{
		{Type: "content", Text: "edited\n\tdone"},
		{Type: "diff", Path: "main.go", OldText: &old, NewText: strings.Replace(old, "func b() {}", "func b() { x() }", 1)},
		{Type: "diff", Path: "new.txt", NewText: "one\ntwo\n"},
		{Type: "terminal", TerminalID: "term-1"},
	}}))
	v := New(src, Options{Labels: Labels{
		ToolStatus: func(s string) string { return map[string]string{"completed": "terminé"}[s] },
		Terminal:   func(id string) string { return "terminal " + id },
	}})
	v.SetSize(60, 100)
	v.Sync()
	v.Unfold(0) // 19 lines of output fold (TestThoughtsAndToolOutputFold)
	rows := all(t, v)
	want := "" +
		"label      |A alice\n" +
		"tool-header|  ⚙ Edit main.go — terminé\n" +
		"tool-output|    edited\n" +
		"tool-output|        done\n" +
		"tool-output|    --- main.go\n" +
		"tool-output|    +++ main.go\n" +
		"tool-output|    @@ -1,7 +1,7 @@\n" +
		"tool-output|     package main\n" +
		"tool-output|     \n" +
		"tool-output|     func a() {}\n" +
		"tool-output|    -func b() {}\n" +
		"tool-output|    +func b() { x() }\n" +
		"tool-output|     func c() {}\n" +
		"tool-output|     func d() {}\n" +
		"tool-output|     func e() {}\n" +
		"tool-output|    --- /dev/null\n" +
		"tool-output|    +++ new.txt\n" +
		"tool-output|    @@ -0,0 +1,2 @@\n" +
		"tool-output|    +one\n" +
		"tool-output|    +two\n" +
		"tool-output|    terminal term-1\n"
	if got := dump(rows); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	classes := strings.Join(classesOf(rows), "\n")
	for _, c := range []string{
		"⚙ Edit main.go — terminé:syntax.type",
		"-func b() {}:diff.removed",
		"+func b() { x() }:diff.added",
		" func c() {}:text",
		"--- main.go:syntax.keyword",
		"@@ -1,7 +1,7 @@:syntax.comment",
		"+one:diff.added",
		"terminal term-1:syntax.comment",
	} {
		if !strings.Contains(classes, c) {
			t.Errorf("no %q among\n%s", c, classes)
		}
	}
	out := rows[2].Region
	for _, r := range rows[2:] {
		if r.Region != out {
			t.Fatalf("the output is in several regions")
		}
	}
	if rows[1].Region == out || rows[0].Region == rows[1].Region {
		t.Errorf("the header and the label must be regions of their own")
	}

	// Failed: the header in the error colour.
	src.set(0, toolEntry(&chat.ToolCall{Title: "Run tests", Status: "failed"}))
	v.Sync()
	rows = all(t, v)
	if got := strings.Join(classesOf(rows[1:2]), ""); got != "⚙ Run tests — failed:diagnostic.error" {
		t.Errorf("failed header: %s", got)
	}
}

func TestDiffHunks(t *testing.T) {
	var a, b []string
	for i := range 40 {
		a = append(a, "l"+string(rune('A'+i%26))+string(rune('a'+i/26)))
	}
	b = append(b, a...)
	b[5] = "changed"
	b = append(b[:30], b[31:]...) // line 31 removed
	oldText := strings.Join(a, "\n") + "\n"
	got := unifiedDiff("f", &oldText, strings.Join(b, "\n")+"\n")
	var heads []string
	for _, l := range got {
		if l.op == 'h' {
			heads = append(heads, l.text)
		}
	}
	want := []string{"--- f", "+++ f", "@@ -3,7 +3,7 @@", "@@ -28,7 +28,6 @@"}
	if strings.Join(heads, "|") != strings.Join(want, "|") {
		t.Errorf("headers %v, want %v", heads, want)
	}
	// Applying the script gives the new text back.
	ops := diffOps(a, b)
	var olds, news []string
	for _, o := range ops {
		if o.op != '+' {
			olds = append(olds, o.text)
		}
		if o.op != '-' {
			news = append(news, o.text)
		}
	}
	if strings.Join(olds, "\n") != strings.Join(a, "\n") || strings.Join(news, "\n") != strings.Join(b, "\n") {
		t.Errorf("the edit script does not give the texts back")
	}
}

func TestDiffTooManyEditsStillCorrect(t *testing.T) {
	var a, b []string
	for i := range 3 * diffMaxEdits {
		a = append(a, "a"+string(rune(i)))
		b = append(b, "b"+string(rune(i)))
	}
	ops := diffOps(a, b)
	if len(ops) != len(a)+len(b) {
		t.Fatalf("%d operations, want every line removed then added", len(ops))
	}
	if ops[0].op != '-' || ops[len(ops)-1].op != '+' {
		t.Errorf("removed lines come first, then added ones")
	}
}

func TestUnchangedDiffIsNotComputedAgain(t *testing.T) {
	old := "a\n"
	tc := &chat.ToolCall{Title: "Edit", Status: "in_progress", Content: []chat.ToolContent{{Type: "diff", Path: "f", OldText: &old, NewText: "b\n"}}}
	v, src := viewOf(t, 40, toolEntry(tc))
	first := v.ents[0].diffs[0].lines
	tc2 := *tc // an update of the status only: the chat model keeps the content
	tc2.Status = "completed"
	src.set(0, toolEntry(&tc2))
	v.Sync()
	if got := v.ents[0].diffs[0].lines; &got[0] != &first[0] {
		t.Errorf("the diff was computed again")
	}
	if !strings.Contains(dump(all(t, v)), "Edit — completed") {
		t.Errorf("the status update is not shown")
	}
}

func TestPlanRows(t *testing.T) {
	plan := chat.Entry{Kind: chat.KindPlan, Author: "alice", Plan: []chat.PlanEntry{
		{Content: "read the code", Status: "completed"},
		{Content: "write the fix and its tests", Status: "in_progress"},
		{Content: "open a pull request", Status: "pending"},
	}}
	for _, tt := range []struct {
		ascii bool
		want  string
	}{
		{false, "" +
			"label      |A alice\n" +
			"plan       |  ☑ read the code\n" +
			"plan       |  ◐ write the fix\n" +
			"plan       |    and its tests\n" +
			"plan       |  ☐ open a pull\n" +
			"plan       |    request\n"},
		{true, "" +
			"label      |A alice\n" +
			"plan       |  [x] read the\n" +
			"plan       |      code\n" +
			"plan       |  [~] write the\n" +
			"plan       |      fix and its\n" +
			"plan       |      tests\n" +
			"plan       |  [ ] open a pull\n" +
			"plan       |      request\n"},
	} {
		src := &fakeSource{}
		src.add(plan)
		v := New(src, Options{ASCII: tt.ascii})
		v.SetSize(18, 100)
		v.Sync()
		rows := all(t, v)
		if got := dump(rows); got != tt.want {
			t.Errorf("ascii %v: got\n%s\nwant\n%s", tt.ascii, got, tt.want)
		}
		c := classesOf(rows[1:2])
		if !tt.ascii && strings.Join(c, ",") != "☑:syntax.type, read the code:syntax.comment" {
			t.Errorf("completed entry classes %v", c)
		}
	}
}

func TestLostLine(t *testing.T) {
	src := &fakeSource{}
	src.add(chat.Entry{Kind: chat.KindAgent, Author: "alice", Text: "partial", Lost: 12345, Done: true})
	v := New(src, Options{Labels: Labels{Dropped: func(n int64) string { return "… " + groupDigits(n) + " octets perdus" }}})
	v.SetSize(40, 10)
	v.Sync()
	rows := all(t, v)
	last := rows[len(rows)-1]
	if last.Kind != RowNotice || last.Text() != "… 12,345 octets perdus" || last.Spans[0].Class != ClassError {
		t.Errorf("last row %s %q %v", last.Kind, last.Text(), last.Spans)
	}
	if groupDigits(1234567) != "1,234,567" || groupDigits(12) != "12" || groupDigits(-1234) != "-1,234" {
		t.Errorf("groupDigits")
	}
}

// TestLabelsComplete: every label has both languages, with the same verbs in each.
func TestLabelsComplete(t *testing.T) {
	for _, p := range catalogue.Problems(labelYou) {
		t.Error(p)
	}
}

func TestLabelsFor(t *testing.T) {
	fr, en := LabelsFor(i18n.French), LabelsFor(i18n.English)
	if fr.You != "Vous" || en.You != "You" || fr.Thought != "Réflexion" || en.Thought != "Thinking" {
		t.Errorf("labels: %q %q %q %q", fr.You, en.You, fr.Thought, en.Thought)
	}
	if got := fr.Dropped(12345); got != "… 12 345 octets perdus" {
		t.Errorf("fr dropped: %q", got)
	}
	if got := en.Dropped(12345); got != "… 12,345 bytes dropped" {
		t.Errorf("en dropped: %q", got)
	}
	if fr.ToolStatus("failed") != "échoué" || en.ToolStatus("in_progress") != "in progress" || en.ToolStatus("odd") != "" {
		t.Errorf("statuses")
	}
	v, _ := viewOf(t, 40, toolEntry(&chat.ToolCall{Title: "x", Status: "odd"}))
	if !strings.Contains(dump(all(t, v)), "x — odd") {
		t.Errorf("an unknown status is not shown as sent")
	}
}

// What a tool call does is shown under its title: its kind, its files and lines (ten of
// them, then how many more), an execute call's command on one line. The labels are the
// user's language.
func TestToolCallAction(t *testing.T) {
	var locs []chat.Location
	for i := range 13 {
		locs = append(locs, chat.Location{Path: fmt.Sprintf("/w/f%d.go", i), Line: i})
	}
	v := viewIn(t, i18n.French,
		chat.Entry{Kind: chat.KindToolCall, Author: "alice", Tool: &chat.ToolCall{ID: "e", Title: "Modifying critical configuration file",
			Kind: "edit", Status: "pending", Locations: []chat.Location{{Path: "/etc/app.conf", Line: 12}}}},
		chat.Entry{Kind: chat.KindToolCall, Author: "alice", Tool: &chat.ToolCall{ID: "x", Title: "Run", Kind: "execute",
			Status: "in_progress", Command: "make test && rm -rf build…", Content: []chat.ToolContent{{Type: "content", Text: "ok"}}}},
		chat.Entry{Kind: chat.KindToolCall, Author: "alice", Tool: &chat.ToolCall{ID: "m", Title: "Many", Kind: "odd", Locations: locs}},
		// A command of another kind is not shown: "command" means something else there.
		chat.Entry{Kind: chat.KindToolCall, Author: "alice", Tool: &chat.ToolCall{ID: "r", Title: "Read", Kind: "read", Command: "view"}},
	)
	rows := all(t, v)
	want := "" +
		"label      |A alice\n" +
		"tool-header|  ⚙ Modifying critical configuration file — modification, en\n" +
		"tool-header|    attente\n" +
		"tool-action|    → /etc/app.conf:12\n" +
		"blank      |\n" +
		"tool-header|  ⚙ Run — exécution, en cours\n" +
		"tool-action|    $ make test && rm -rf build…\n" +
		"tool-output|    ok\n" +
		"blank      |\n" +
		"tool-header|  ⚙ Many — odd\n"
	for i := range 10 {
		want += fmt.Sprintf("tool-action|    → /w/f%d.go", i)
		if i > 0 {
			want += fmt.Sprintf(":%d", i)
		}
		want += "\n"
	}
	want += "tool-action|    … 3 fichiers de plus\n" +
		"blank      |\n" +
		"tool-header|  ⚙ Read — lecture\n"
	if got := dump(rows); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	classes := strings.Join(classesOf(rows), "\n")
	for _, c := range []string{"→:syntax.type", " /etc/app.conf:12:syntax.string", "$:syntax.type", " make test && rm -rf build…:text",
		"… 3 fichiers de plus:syntax.comment"} {
		if !strings.Contains(classes, c) {
			t.Errorf("no %q among\n%s", c, classes)
		}
	}
	if rows[3].Region == rows[1].Region {
		t.Error("what the call does shares the header's region")
	}
	// Copying what the call does gives the path, or the command, as it is.
	if text, n := v.CopyRegion(6); text != "make test && rm -rf build…" || n != 1 {
		t.Errorf("copied %q (%d lines)", text, n)
	}
}

// A tool call its turn left pending or in progress says it did not finish, in the warning
// colour, in the user's language.
func TestUnfinishedToolCall(t *testing.T) {
	for _, c := range []struct {
		lang   i18n.Lang
		status string
		want   string
	}{
		{i18n.English, "pending", "⚙ Run — execute, not finished"},
		{i18n.French, "in_progress", "⚙ Run — exécution, non terminé"},
		{i18n.English, "", "⚙ Run — execute, not finished"},
	} {
		v := viewIn(t, c.lang, chat.Entry{Kind: chat.KindToolCall, Author: "alice", Done: true,
			Tool: &chat.ToolCall{Title: "Run", Kind: "execute", Status: c.status}})
		if got := strings.Join(classesOf(all(t, v)[1:2]), ""); got != c.want+":"+ClassWarning {
			t.Errorf("%s %q: header %s, want %s in the warning colour", c.lang, c.status, got, c.want)
		}
	}
}

// viewIn returns a synced view of entries, 60 cells wide, with the labels of lang.
func viewIn(t *testing.T, lang i18n.Lang, es ...chat.Entry) *View {
	t.Helper()
	src := &fakeSource{}
	src.add(es...)
	v := New(src, Options{Labels: LabelsFor(lang)})
	v.SetSize(60, 100)
	v.Sync()
	return v
}
