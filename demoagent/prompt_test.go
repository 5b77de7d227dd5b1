package demoagent

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

func TestDefaultPrompt(t *testing.T) {
	c := startAgent(t, Options{Name: "Alice"})
	c.initialize()
	sid, _ := c.newSession(t.TempDir())
	log := c.prompt(sid, sdk.TextBlock("Please show me how to loop in Python."))
	if got := c.stopReason(log); got != sdk.StopReasonEndTurn {
		t.Errorf("stop reason %q, want end_turn", got)
	}

	// A thought, streamed before the reply.
	thoughts := log.count(func(u sdk.SessionUpdate) bool { return u.AgentThoughtChunk != nil })
	if thoughts < 5 {
		t.Errorf("%d thought chunks, want a streamed thought", thoughts)
	}

	// A plan of three entries that advances until all are completed.
	var plans [][]sdk.PlanEntryStatus
	for _, u := range log.updates {
		if u.Plan == nil {
			continue
		}
		if len(u.Plan.Entries) != 3 {
			t.Fatalf("plan with %d entries, want 3", len(u.Plan.Entries))
		}
		var st []sdk.PlanEntryStatus
		for _, e := range u.Plan.Entries {
			st = append(st, e.Status)
		}
		plans = append(plans, st)
	}
	if len(plans) < 3 {
		t.Fatalf("%d plan updates, want the plan sent again as it progresses", len(plans))
	}
	if plans[0][0] != sdk.PlanEntryStatusInProgress || plans[0][2] != sdk.PlanEntryStatusPending {
		t.Errorf("first plan %v, want the first step running and the last pending", plans[0])
	}
	for _, s := range plans[len(plans)-1] {
		if s != sdk.PlanEntryStatusCompleted {
			t.Errorf("last plan %v, want every step completed", plans[len(plans)-1])
		}
	}

	// The reply: one word per chunk, introducing itself, quoting, with Python code.
	reply := log.replyText()
	for _, want := range []string{"I am Alice, a demo agent", "> Please show me how to loop in Python.", "```python\n", "def greet", "\n```\n"} {
		if !strings.Contains(reply, want) {
			t.Errorf("reply lacks %q:\n%s", want, reply)
		}
	}
	for _, u := range log.updates {
		if u.AgentMessageChunk != nil {
			if n := len(strings.Fields(u.AgentMessageChunk.Content.Text.Text)); n > 1 {
				t.Errorf("chunk %q holds %d words, want one", u.AgentMessageChunk.Content.Text.Text, n)
			}
		}
	}

	// Usage comes last, before the answer.
	last := log.updates[len(log.updates)-1]
	if last.UsageUpdate == nil || last.UsageUpdate.Used <= 0 || last.UsageUpdate.Size < last.UsageUpdate.Used {
		t.Errorf("last update %+v, want a usage_update with used and size", last)
	}
	if last.UsageUpdate != nil && (last.UsageUpdate.Cost == nil || last.UsageUpdate.Cost.Currency == "") {
		t.Errorf("usage without a cost: %+v", last.UsageUpdate)
	}
}

func TestDefaultPromptLanguages(t *testing.T) {
	c := startAgent(t, Options{})
	c.initialize()
	sid, _ := c.newSession(t.TempDir())
	for _, tc := range []struct{ prompt, fence, code string }{
		{"write some rust", "```rust\n", "fn main()"},
		{"let's go, a Dockerfile please", "```dockerfile\n", "FROM "},
		{"nothing in particular", "```go\n", "package main"},
	} {
		reply := c.prompt(sid, sdk.TextBlock(tc.prompt)).replyText()
		if !strings.Contains(reply, tc.fence) || !strings.Contains(reply, tc.code) {
			t.Errorf("%q: reply lacks %q with %q:\n%s", tc.prompt, tc.fence, tc.code, reply)
		}
	}
}

func TestDetectLanguage(t *testing.T) {
	for text, want := range map[string]string{
		"python":                         "python",
		"in Go please":                   "go",
		"go ahead, in JavaScript":        "javascript",
		"TypeScript types":               "typescript",
		"rust":                           "rust",
		"a bash script":                  "bash",
		"some shell":                     "bash",
		"yaml config":                    "yaml",
		"TOML":                           "toml",
		"(json)":                         "json",
		"an html page":                   "html",
		"dockerfile":                     "dockerfile",
		"markdown notes":                 "markdown",
		"":                               "go",
		"toml first, then python":        "toml",
		"pythonic is not a language tag": "go",
	} {
		if got := detectLanguage(text).fence; got != want {
			t.Errorf("detectLanguage(%q) = %s, want %s", text, got, want)
		}
	}
}

func TestPromptMentionsFiles(t *testing.T) {
	c := startAgent(t, Options{})
	c.initialize()
	sid, _ := c.newSession(t.TempDir())
	mime := "text/plain"
	log := c.prompt(sid,
		sdk.TextBlock("explain "),
		sdk.ResourceBlock(sdk.EmbeddedResourceResource{TextResourceContents: &sdk.TextResourceContents{Uri: "file:///w/README.md", Text: "hello world\n", MimeType: &mime}}),
		sdk.TextBlock(" and "),
		sdk.ResourceLinkBlock("main.go", "file:///w/main.go"),
	)
	reply := log.replyText()
	for _, want := range []string{"`file:///w/README.md`, embedded, 12 bytes", "`file:///w/main.go`, a link"} {
		if !strings.Contains(reply, want) {
			t.Errorf("reply lacks %q:\n%s", want, reply)
		}
	}
}

func TestEcho(t *testing.T) {
	c := startAgent(t, Options{WordDelay: time.Millisecond})
	c.initialize()
	sid, _ := c.newSession(t.TempDir())
	log := c.prompt(sid, sdk.TextBlock("/echo hello   wide\nworld"))
	if got := log.replyText(); got != "hello   wide\nworld" {
		t.Errorf("echo replied %q", got)
	}
	if n := log.count(func(u sdk.SessionUpdate) bool { return u.AgentMessageChunk != nil }); n != 3 {
		t.Errorf("%d chunks, want one per word (3)", n)
	}
	// A catch-up block before the message does not hide the command.
	log = c.prompt(sid, sdk.TextBlock("Earlier in the channel:\nbob: hi\n\n"), sdk.TextBlock("/echo after the catch-up"))
	if got := log.replyText(); got != "after the catch-up" {
		t.Errorf("echo after a catch-up block replied %q", got)
	}
	// An unknown command is an ordinary prompt.
	if got := c.prompt(sid, sdk.TextBlock("/usr/bin is a folder")).replyText(); !strings.Contains(got, "I am demo") {
		t.Errorf("unknown command got %q, want the default reply", got)
	}
}

func TestHelp(t *testing.T) {
	c := startAgent(t, Options{Name: "Bob"})
	c.initialize()
	sid, _ := c.newSession(t.TempDir())
	reply := c.prompt(sid, sdk.TextBlock("/help")).replyText()
	for _, want := range []string{"I am Bob", "`/echo <text to repeat>`", "`/slow`", "`/write <file text>`"} {
		if !strings.Contains(reply, want) {
			t.Errorf("help lacks %q:\n%s", want, reply)
		}
	}
}

func TestHeard(t *testing.T) {
	c := startAgent(t, Options{})
	c.initialize()
	sid, _ := c.newSession(t.TempDir())
	catchUp := "alice: look at ```this```\n  indented\ttab"
	log := c.prompt(sid,
		sdk.TextBlock(catchUp),
		sdk.TextBlock("/heard what did you get?"),
		sdk.ResourceBlock(sdk.EmbeddedResourceResource{TextResourceContents: &sdk.TextResourceContents{Uri: "file:///w/a.txt", Text: "line one\nline two"}}),
		sdk.ResourceLinkBlock("b.txt", "file:///w/b.txt"),
	)
	reply := log.replyText()
	for _, want := range []string{
		"````text\n",
		"--- block 1: text ---\n" + catchUp + "\n",
		"--- block 2: text ---\n/heard what did you get?\n",
		"--- block 3: resource file:///w/a.txt ---\nline one\nline two\n",
		"--- block 4: resource_link file:///w/b.txt ---\n",
	} {
		if !strings.Contains(reply, want) {
			t.Errorf("/heard reply lacks %q:\n%s", want, reply)
		}
	}
}

func TestFlood(t *testing.T) {
	c := startAgent(t, Options{WordDelay: time.Second}) // the flood ignores the delay
	c.initialize()
	sid, _ := c.newSession(t.TempDir())
	log := c.prompt(sid, sdk.TextBlock("/flood 1000"))
	var chunks []string
	for _, u := range log.updates {
		if u.AgentMessageChunk != nil {
			chunks = append(chunks, u.AgentMessageChunk.Content.Text.Text)
		}
	}
	if len(chunks) != 1000 {
		t.Fatalf("%d chunks, want 1000", len(chunks))
	}
	for i, ch := range chunks {
		if want := fmt.Sprintf("%d ", i+1); ch != want {
			t.Fatalf("chunk %d = %q, want %q", i, ch, want)
		}
	}
	if got := c.stopReason(log); got != sdk.StopReasonEndTurn {
		t.Errorf("stop reason %q", got)
	}
	if got := c.prompt(sid, sdk.TextBlock("/flood many")).replyText(); !strings.Contains(got, "Usage") {
		t.Errorf("/flood without a count replied %q", got)
	}
}

// TestFloodLines: /floodlines N sends N distinct lines, one chunk each, and a thought every
// FloodEntryLines lines (not after the last), so that the reply's entries stay below the
// client's cap of an entry and every line reaches the screen.
func TestFloodLines(t *testing.T) {
	c := startAgent(t, Options{WordDelay: time.Second}) // the flood ignores the delay
	c.initialize()
	sid, _ := c.newSession(t.TempDir())
	const n = 2*FloodEntryLines + 5
	log := c.prompt(sid, sdk.TextBlock(fmt.Sprintf("/floodlines %d", n)))
	line, thoughts, entryBytes := 0, 0, 0
	for _, u := range log.updates {
		switch {
		case u.AgentMessageChunk != nil:
			line++
			got := u.AgentMessageChunk.Content.Text.Text
			if want := fmt.Sprintf("flood line %07d\n", line); got != want {
				t.Fatalf("chunk %d = %q, want %q", line, got, want)
			}
			if entryBytes += len(got); entryBytes >= chat.MaxEntryText {
				t.Fatalf("%d bytes of lines without a thought between: the entry's cap drops lines", entryBytes)
			}
		case u.AgentThoughtChunk != nil:
			thoughts++
			if line%FloodEntryLines != 0 || line == n {
				t.Errorf("a thought after line %d", line)
			}
			entryBytes = 0
		}
	}
	if line != n || thoughts != 2 {
		t.Fatalf("%d lines and %d thoughts, want %d and 2", line, thoughts, n)
	}
	if got := c.stopReason(log); got != sdk.StopReasonEndTurn {
		t.Errorf("stop reason %q", got)
	}
	if got := c.prompt(sid, sdk.TextBlock("/floodlines 0")).replyText(); !strings.Contains(got, "Usage: `/floodlines N`") {
		t.Errorf("/floodlines 0 replied %q", got)
	}
}

// TestWord: /word N sends one word of N bytes, no space or line break in it, 4 KiB a chunk;
// N past the client's cap of an entry is refused.
func TestWord(t *testing.T) {
	c := startAgent(t, Options{WordDelay: time.Second}) // the word ignores the delay
	c.initialize()
	sid, _ := c.newSession(t.TempDir())
	const n = 3*wordChunk + 100
	log := c.prompt(sid, sdk.TextBlock(fmt.Sprintf("/word %d", n)))
	var word strings.Builder
	chunks := 0
	for _, u := range log.updates {
		if u.AgentMessageChunk != nil {
			chunks++
			word.WriteString(u.AgentMessageChunk.Content.Text.Text)
		}
	}
	got := word.String()
	if len(got) != n || strings.ContainsAny(got, " \t\n") {
		t.Fatalf("the reply is %d bytes, spaces or breaks in it: %v; want one word of %d", len(got), strings.ContainsAny(got, " \t\n"), n)
	}
	for i := range n {
		if got[i] != WordByte(i) {
			t.Fatalf("byte %d = %q, want %q", i, got[i], WordByte(i))
		}
	}
	if chunks != 4 {
		t.Errorf("%d chunks, want 4", chunks)
	}
	if got := c.prompt(sid, sdk.TextBlock(fmt.Sprintf("/word %d", maxWordBytes+1))).replyText(); !strings.Contains(got, "Usage: `/word N`") {
		t.Errorf("/word past the cap replied %q", got)
	}
}

func TestSlowCancel(t *testing.T) {
	c := startAgent(t, Options{}) // no delay: /slow still waits 10 ms a word
	c.initialize()
	sid, _ := c.newSession(t.TempDir())
	id := c.sendPrompt(sid, sdk.TextBlock("/slow"))
	chunks := 0
	for chunks < 5 {
		r := c.next()
		if r.isResponse() {
			t.Fatalf("the slow turn ended early: %s", r.raw)
		}
		if decodeUpdate(t, r).AgentMessageChunk != nil {
			chunks++
		}
	}
	cancelled := time.Now()
	c.notify(sdk.AgentMethodSessionCancel, sdk.CancelNotification{SessionId: sdk.SessionId(sid)})
	log := c.until(id)
	if got := c.stopReason(log); got != sdk.StopReasonCancelled {
		t.Errorf("stop reason %q, want cancelled", got)
	}
	if d := time.Since(cancelled); d > 2*time.Second {
		t.Errorf("the turn took %s to stop after the cancel", d)
	}
	if n := chunks + log.count(func(u sdk.SessionUpdate) bool { return u.AgentMessageChunk != nil }); n >= slowWords {
		t.Errorf("%d chunks: the stream was not cut short", n)
	}
	if got := c.prompt(sid, sdk.TextBlock("/echo next")).replyText(); got != "next" {
		t.Errorf("the next turn replied %q", got)
	}
}

func TestSplitWords(t *testing.T) {
	for _, s := range []string{"", "one", "  lead", "a b  c\n\nd\t", "```go\nfunc f() {}\n```\n", "é à  ü"} {
		words := splitWords(s)
		if got := strings.Join(words, ""); got != s {
			t.Errorf("splitWords(%q) joins back to %q", s, got)
		}
		for _, w := range words {
			if len(strings.FieldsFunc(w, unicode.IsSpace)) != 1 {
				t.Errorf("splitWords(%q) made piece %q, want exactly one word", s, w)
			}
		}
	}
}

func TestFenced(t *testing.T) {
	if got := fenced("go", "x := 1"); got != "```go\nx := 1\n```\n" {
		t.Errorf("fenced = %q", got)
	}
	if got := fenced("md", "a ```` b"); !strings.HasPrefix(got, "`````md\n") {
		t.Errorf("fence not longer than the content's backticks: %q", got)
	}
}
