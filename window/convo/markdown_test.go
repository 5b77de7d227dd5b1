package convo

import (
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// bodyOf lays out one agent reply at width 60 and returns its body rows (after the label)
// as "kind region|text" lines.
func bodyOf(t *testing.T, text string, done bool) string {
	t.Helper()
	e := agentEntry(text)
	e.Done = done
	v, _ := viewOf(t, 60, e)
	rows := all(t, v)
	if rows[0].Kind != RowLabel {
		t.Fatalf("first row is %s, want the label", rows[0].Kind)
	}
	var b strings.Builder
	for _, r := range rows[1:] {
		b.WriteString(r.Kind.String())
		b.WriteByte(' ')
		b.WriteString(string(rune('0' + r.Region)))
		b.WriteByte('|')
		b.WriteString(r.Text())
		b.WriteByte('\n')
	}
	return b.String()
}

func TestSegmentation(t *testing.T) {
	tests := []struct {
		name string
		text string
		done bool
		want string
	}{
		{"prose passages split by blank lines", "one\ntwo\n\nthree\n", true,
			"prose 1|one\nprose 1|two\nblank 2|\nprose 3|three\n"},
		{"fence with a language", "see:\n```python\nx = 1\n\ty = 2\n```\nafter\n", true,
			"prose 1|see:\nfence 2|── python ──\ncode 2|x = 1\ncode 2|    y = 2\nfence 2|\nprose 3|after\n"},
		{"fence without a language", "```\nplain\n```\n", true,
			"fence 1|──\ncode 1|plain\nfence 1|\n"},
		{"unclosed fence while streaming is code to the end", "text\n```go\nfunc f() {\n\treturn", false,
			"prose 1|text\nfence 2|── go ──\ncode 2|func f() {\ncode 2|    return\n"},
		{"unclosed fence in a finished entry", "```go\nfunc f() {}", true,
			"fence 1|── go ──\ncode 1|func f() {}\n"},
		{"a longer fence holds a shorter one", "````md\n```js\nx\n```\n````\nend\n", true,
			"fence 1|── md ──\ncode 1|```js\ncode 1|x\ncode 1|```\nfence 1|\nprose 2|end\n"},
		{"tilde fence holds backticks", "~~~\n```\n~~~\n", true,
			"fence 1|──\ncode 1|```\nfence 1|\n"},
		{"backticks in the info string: not a fence", "``` a`b\ntext\n", true,
			"prose 1|``` a`b\nprose 1|text\n"},
		{"inline backticks are code", "use `x` and ``y``\n", true,
			"prose 1|use x and y\n"},
		{"a fence's indentation is taken from its lines", "  ```\n    two\n  one\nzero\n  ```\n", true,
			"fence 1|──\ncode 1|  two\ncode 1|one\ncode 1|zero\nfence 1|\n"},
		{"four spaces do not open a fence: indented code", "    ```\ntext\n", true,
			"prose 1|```\nprose 2|text\n"},
		{"a closing fence must be as long", "````\n```\n````\n", true,
			"fence 1|──\ncode 1|```\nfence 1|\n"},
		{"blank lines in code stay in the block", "```\na\n\nb\n```\n", true,
			"fence 1|──\ncode 1|a\ncode 1|\ncode 1|b\nfence 1|\n"},
		{"a heading is a region of its own", "# Title\ntext\n", true,
			"prose 1|Title\nprose 2|text\n"},
		{"a line still arriving", "first\nsecond half", false,
			"prose 1|first\nprose 1|second half\n"},
		{"empty reply", "", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := bodyOf(t, tt.text, tt.done); got != tt.want {
				t.Errorf("text %q:\ngot\n%s\nwant\n%s", tt.text, got, tt.want)
			}
		})
	}
}

func TestHangingIndent(t *testing.T) {
	v, _ := viewOf(t, 16, agentEntry("- a list item that wraps\n12. numbered item wraps too\n  indented text wraps here\n"))
	got := dump(all(t, v)[1:])
	want := "" +
		"prose      |  • a list item\n" +
		"prose      |    that wraps\n" +
		"prose      |  12. numbered\n" +
		"prose      |      item wraps\n" +
		"prose      |      too\n" +
		"prose      |      indented\n" + // the item's own text, by CommonMark's lazy lines
		"prose      |      text wraps\n" +
		"prose      |      here\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestThoughtAndNotice(t *testing.T) {
	v, _ := viewOf(t, 40,
		chat.Entry{Kind: chat.KindThought, Author: "alice", Text: "let me think", Done: true},
		agentEntry("answer"),
		chat.Entry{Kind: chat.KindNotice, Text: "alice stopped: exit 1\nsecond line", Done: true},
	)
	rows := all(t, v)
	want := "" +
		"label      |A alice\n" +
		"label      |  Thinking\n" +
		"prose      |  let me think\n" +
		"blank      |\n" +
		"prose      |  answer\n" +
		"blank      |\n" +
		"notice     |alice stopped: exit 1\n" +
		"notice     |second line\n"
	if got := dump(rows); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	classes := strings.Join(classesOf(rows), ",")
	for _, c := range []string{"alice:syntax.keyword", "Thinking:syntax.comment", "let me think:syntax.comment",
		"answer:text", "alice stopped: exit 1:diagnostic.error"} {
		if !strings.Contains(classes, c) {
			t.Errorf("no %s in %s", c, classes)
		}
	}
	if rows[6].Region != rows[7].Region {
		t.Errorf("a notice's lines are in regions %d and %d, want one", rows[6].Region, rows[7].Region)
	}
}

func TestSpeakerLabels(t *testing.T) {
	src := &fakeSource{}
	src.add(
		chat.Entry{Kind: chat.KindUser, Text: "hi", Done: true},
		chat.Entry{Kind: chat.KindAgent, Author: "alice", Text: "a1", Done: true},
		chat.Entry{Kind: chat.KindToolCall, Author: "alice", Done: true, Tool: &chat.ToolCall{Title: "t", Status: "completed"}},
		chat.Entry{Kind: chat.KindAgent, Author: "alice", Text: "a2", Done: true},
		chat.Entry{Kind: chat.KindAgent, Author: "bob", Text: "b1", Done: true},
	)
	v := New(src, Options{
		Labels: Labels{You: "Vous"},
		Speaker: func(a string) (string, string) {
			return map[string]string{"alice": "🦊"}[a], map[string]string{"alice": "Alice the fox"}[a]
		},
	})
	v.SetSize(40, 100)
	v.Sync()
	var labels []string
	for _, r := range all(t, v) {
		if r.Kind == RowLabel {
			labels = append(labels, strings.Join(classesOf([]Row{r}), ","))
		}
	}
	want := []string{
		"Vous:syntax.keyword",
		"🦊:text, :text,Alice the fox:syntax.keyword",
		"B:" + IconClass(colourOf("bob")) + ", :text,bob:syntax.keyword",
	}
	if strings.Join(labels, "\n") != strings.Join(want, "\n") {
		t.Errorf("labels:\n%s\nwant (one per change of speaker)\n%s", strings.Join(labels, "\n"), strings.Join(want, "\n"))
	}
}
