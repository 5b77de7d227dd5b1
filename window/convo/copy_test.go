package convo

import (
	"encoding/base64"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// rowWith returns the number of the first row whose text contains s.
func rowWith(t *testing.T, rows []Row, s string) int {
	t.Helper()
	for i, r := range rows {
		if strings.Contains(r.Text(), s) {
			return i
		}
	}
	t.Fatalf("no row with %q", s)
	return -1
}

func copyFixture(t *testing.T) (*View, []Row) {
	reply := "Here is the fix, explained in a sentence long enough to wrap on a narrow view.\n" +
		"Second line of the passage.\n" +
		"\n" +
		"```go\n" +
		"func main() {\n" +
		"\tif ok {\n" +
		"\t\tfmt.Println(\"a line of code long enough to wrap\")\n" +
		"\t}\n" +
		"}\n" +
		"```\n" +
		"After the code.\n"
	v, _ := viewOf(t, 30,
		chat.Entry{Kind: chat.KindUser, Text: "please fix it", Done: true},
		agentEntry(reply),
		toolEntry(&chat.ToolCall{Title: "Run go test", Status: "completed", Content: []chat.ToolContent{{Type: "content", Text: "ok  \tpkg\t0.1s\nPASS\n"}}}),
		agentEntry("Done."),
	)
	return v, all(t, v)
}

func TestCopyRegion(t *testing.T) {
	v, rows := copyFixture(t)
	tests := []struct {
		at    string // text on the row the cursor is on
		want  string
		lines int
	}{
		// A code block: flush left, its own indentation (tabs) kept, wrapped lines whole,
		// fences left out — from any of its rows, the fences' included.
		{"func main", "func main() {\n\tif ok {\n\t\tfmt.Println(\"a line of code long enough to wrap\")\n\t}\n}", 5},
		{"enough to wra", "func main() {\n\tif ok {\n\t\tfmt.Println(\"a line of code long enough to wrap\")\n\t}\n}", 5},
		{"── go ──", "func main() {\n\tif ok {\n\t\tfmt.Println(\"a line of code long enough to wrap\")\n\t}\n}", 5},
		// A prose passage: its lines as written, not as wrapped.
		{"narrow view", "Here is the fix, explained in a sentence long enough to wrap on a narrow view.\nSecond line of the passage.", 2},
		{"After the code", "After the code.", 1},
		// A tool call's output, without its header; the header alone.
		{"PASS", "ok  \tpkg\t0.1s\nPASS", 2},
		{"Run go test", "⚙ Run go test — completed", 1},
		// A label alone.
		{"You", "You", 1},
		{"please fix", "please fix it", 1},
	}
	for _, tt := range tests {
		got, n := v.CopyRegion(rowWith(t, rows, tt.at))
		if got != tt.want || n != tt.lines {
			t.Errorf("region at %q:\n%q (%d lines)\nwant\n%q (%d lines)", tt.at, got, n, tt.want, tt.lines)
		}
	}
	// A blank row copies nothing; a row out of range neither.
	blank := rowWith(t, rows, "Second line") + 1
	if rows[blank].Kind != RowBlank {
		t.Fatalf("row %d is %s", blank, rows[blank].Kind)
	}
	for _, r := range []int{blank, -1, len(rows)} {
		if got, n := v.CopyRegion(r); got != "" || n != 0 {
			t.Errorf("row %d copies %q", r, got)
		}
	}
}

func TestCopySelection(t *testing.T) {
	v, rows := copyFixture(t)
	tests := []struct {
		name     string
		from, to string
		want     string
	}{
		{"one wrapped row gives its whole line", "wrap on a", "wrap on a",
			"Here is the fix, explained in a sentence long enough to wrap on a narrow view."},
		{"lines of code, flush left", "if ok", "\t}", // to the row after `p")`: the if's "}"
			"\tif ok {\n\t\tfmt.Println(\"a line of code long enough to wrap\")\n\t}"},
		{"across entries: labels and headers left out", "After the code", "Done.",
			"After the code.\n\nok  \tpkg\t0.1s\nPASS\n\nDone."},
		{"from the top, backwards", "please fix", "You",
			"please fix it"},
		{"fences are lines of the message", "── go ──", "func main",
			"```go\nfunc main() {"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			from := rowWith(t, rows, tt.from)
			var to int
			if tt.to == "\t}" {
				to = rowWith(t, rows, "p\")") + 1
			} else {
				to = rowWith(t, rows, tt.to)
			}
			got, n := v.CopySelection(from, to)
			if got != tt.want || n != strings.Count(tt.want, "\n")+1 {
				t.Errorf("rows %d-%d:\n%q (%d lines)\nwant\n%q", from, to, got, n, tt.want)
			}
		})
	}
	if got, n := v.CopySelection(5, -10); got == "" || n == 0 {
		t.Errorf("a selection clamped to the conversation copies nothing")
	}
	if got, n := v.CopySelection(len(rows)+5, len(rows)+9); got != "" || n != 0 {
		t.Errorf("a selection past the end copies %q", got)
	}
}

func TestCopyHasNoControlCharacters(t *testing.T) {
	// A Source that did not sanitize (the chat model does): copies are cleaned anyway.
	v, _ := viewOf(t, 20, agentEntry("bad \x1b[31mred\x1b[0m\x07 and \u009b2J\n```\ncode\x00\tx\n```\n"))
	rows := all(t, v)
	for _, r := range rows {
		if hasControl(r.Text()) {
			t.Errorf("row %q holds a control character", r.Text())
		}
	}
	for i := range rows {
		text, _ := v.CopyRegion(i)
		if hasControl(text) {
			t.Errorf("region at %d: %q holds a control character", i, text)
		}
	}
	text, _ := v.CopySelection(0, len(rows)-1)
	if hasControl(text) {
		t.Errorf("selection %q holds a control character", text)
	}
	if !strings.Contains(text, "code\tx") {
		t.Errorf("a tab was lost: %q", text)
	}
}

func TestOSC52(t *testing.T) {
	got := OSC52("héllo\n\tworld")
	want := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte("héllo\n\tworld")) + "\x07"
	if string(got) != want {
		t.Errorf("OSC52 = %q, want %q", got, want)
	}
	if string(OSC52("hi")) != "\x1b]52;c;aGk=\a" {
		t.Errorf("OSC52(hi) = %q", OSC52("hi"))
	}
	if string(OSC52("")) != "\x1b]52;c;\a" {
		t.Errorf("OSC52(\"\") = %q", OSC52(""))
	}
}

// Markdown is copied as written: a table as its source rows (the delimiter row included,
// its borders and wrapped cells adding nothing), a heading with its #, a list with its
// marks, emphasis with its asterisks.
func TestCopyGivesMarkdownSource(t *testing.T) {
	table := "| name | what it does |\n|---|---|\n| copy | gives back the source of a region, as it was written by the agent |"
	reply := "# Title\n\nSome **bold** text\n\n" + table + "\n\n- one\n- two\n"
	v, _ := viewOf(t, 40, agentEntry(reply))
	rows := all(t, v)
	for _, r := range rows {
		if strings.Contains(r.Text(), "**") || strings.Contains(r.Text(), "|---|") {
			t.Fatalf("row %q shows the markup", r.Text())
		}
	}
	tests := []struct {
		at, want string
		lines    int
	}{
		{"┌", table, 3},
		{"gives back", table, 3},
		{"Title", "# Title", 1},
		{"Some bold", "Some **bold** text", 1},
		{"• two", "- one\n- two", 2},
	}
	for _, tt := range tests {
		got, n := v.CopyRegion(rowWith(t, rows, tt.at))
		if got != tt.want || n != tt.lines {
			t.Errorf("region at %q:\n%q (%d lines)\nwant\n%q (%d lines)", tt.at, got, n, tt.want, tt.lines)
		}
	}
	// A selection from the table's top border to its bottom one: its source, once.
	from, to := rowWith(t, rows, "┌"), rowWith(t, rows, "└")
	if got, n := v.CopySelection(from, to); got != table || n != 3 {
		t.Errorf("selection of the table: %q (%d lines)", got, n)
	}
}

// A table is drawn for the width: after a resize, again for the new one.
func TestTableFollowsTheWidth(t *testing.T) {
	v, _ := viewOf(t, 40, agentEntry("| a | b |\n|---|---|\n| x | "+strings.Repeat("word ", 30)+"|\n"))
	for _, w := range []int{40, 24, 60} {
		v.SetSize(w, 50)
		v.Sync()
		rows := all(t, v)
		top := rows[rowWith(t, rows, "┌")]
		if got := top.Width(); got != w {
			t.Errorf("width %d: the table's top border %q takes %d cells", w, top.Text(), got)
		}
	}
}
