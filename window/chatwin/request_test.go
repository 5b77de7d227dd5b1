package chatwin

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// waiting returns how many permission requests of alice's window wait.
func (wd *world) waiting() int {
	return onUI(wd.harness, func() int { _, n := wd.reqs.Head(chat.AgentKey("alice")); return n })
}

// ask sends "ask WHAT" to the agent without typing (no key reaches the window), and waits
// until n requests wait.
func (wd *world) ask(what string, n int) {
	wd.t.Helper()
	wd.do(func() { wd.w.calls.Do(func() { _ = wd.svc.Send(chat.AgentKey("alice"), "ask "+what) }) })
	wd.started()
	wd.waitFor("the requests", func() bool { _, got := wd.reqs.Head(chat.AgentKey("alice")); return got == n })
	wd.sync()
}

// The request shows, inside its window, what it will do: the tool call's title, its kind
// and location with its line, the command (escape sequences removed, on one line), the
// diff, and the options numbered with their kind.
func TestRequestShowsWhatItWillDo(t *testing.T) {
	t.Parallel()
	wd := newWorld(t, withSize(80, 30))
	wd.ask("exec", 1)
	s := wd.text()
	for _, want := range []string{"! Alice asks permission", "Run the cleanup", "execute · /w/clean.sh:12",
		"$ rm -rf ~/tmp && echo done", "-b", "+c", "1  Allow once", "allow, once", "2  Reject", "reject, once"} {
		if !strings.Contains(s, want) {
			t.Errorf("the request lacks %q:\n%s", want, s)
		}
	}
	if onUI(wd.harness, wd.app.Dialogs) != 0 {
		t.Error("the request opened a dialog over the screen")
	}
	if !strings.Contains(s, "1!") {
		t.Errorf("the window is not marked while the request waits:\n%s", s)
	}
	wd.clock.Advance(time.Second)
	wd.sync()
	wd.golden("request-exec") // the kinds in their colours, the diff's lines in theirs
	wd.typeText("1")
	wd.waitText("chose yes")
	if strings.Contains(wd.text(), "1!") {
		t.Errorf("the mark stayed once answered:\n%s", wd.text())
	}
}

// No key answers within requestGuard of the request coming into sight, nor while the user
// types (less than typingGuard after the key before): such keys go to the input.
func TestRequestGuard(t *testing.T) {
	t.Parallel()
	wd := newWorld(t)
	wd.typeText("abc") // typing when the request comes
	wd.ask("always", 1)
	wd.press(tcell.KeyCtrlU)                          // clears the input: a key too
	wd.clock.Advance(requestGuard - time.Millisecond) // just before the guard's end
	wd.typeText("2")                                  // typed, not an answer
	if text, _ := wd.input(); text != "2" || wd.waiting() != 1 {
		t.Fatalf("a key %v after the request: input %q, %d waiting", requestGuard-time.Millisecond, text, wd.waiting())
	}
	wd.press(tcell.KeyBackspace)
	wd.clock.Advance(typingGuard - time.Millisecond) // past requestGuard, but the user types
	wd.typeText("2")
	if text, _ := wd.input(); text != "2" || wd.waiting() != 1 {
		t.Fatalf("a key while typing: input %q, %d waiting", text, wd.waiting())
	}
	wd.press(tcell.KeyBackspace)
	if !strings.Contains(wd.text(), "the keys answer in a moment") {
		t.Errorf("the request does not say its keys wait:\n%s", wd.text())
	}
	wd.clock.Advance(typingGuard)
	wd.sync()
	if !strings.Contains(wd.text(), "1…2: answer") {
		t.Errorf("the request does not say its keys answer:\n%s", wd.text())
	}
	wd.typeText("2")
	wd.waitText("chose no")
	if text, _ := wd.input(); text != "" {
		t.Errorf("the answer was typed too: %q", text)
	}
}

// A key typed in another window never answers, however late; the window coming to the
// front starts the guard again.
func TestRequestNotFromAnotherWindow(t *testing.T) {
	t.Parallel()
	wd := newWorld(t)
	other := window.NewInput()
	wd.do(func() {
		if _, err := wd.app.AddWindow("Notes", other); err != nil {
			t.Fatal(err)
		}
	})
	wd.ask("always", 1)
	if wd.Screen.Bells() != 1 {
		t.Errorf("bells %d for a request out of sight, want 1", wd.Screen.Bells())
	}
	for _, r := range "a quick note 1 2 y Y\r" {
		wd.clock.Advance(time.Second)
		if r == '\r' {
			wd.press(tcell.KeyEnter)
			continue
		}
		wd.typeText(string(r))
	}
	if got := onUI(wd.harness, other.Text); got != "a quick note 1 2 y Y" {
		t.Errorf("window 2 holds %q", got)
	}
	if wd.waiting() != 1 || onUI(wd.harness, func() int { return wd.w.perm.confirm }) != 0 {
		t.Fatalf("keys typed in another window reached the request")
	}
	wd.do(func() { wd.win.Focus() })
	wd.typeText("2") // at once: the window just came to the front
	if wd.waiting() != 1 {
		t.Fatal("a key typed as the window came to the front answered")
	}
	wd.press(tcell.KeyBackspace)
	wd.clock.Advance(time.Second)
	wd.typeText("2")
	wd.waitText("chose no")
}

// Options are never chosen by a letter of their name, which the agent picks: 36 options
// named "a…" to "9…", all "allow always", and a sentence typed slowly into the window
// answers nothing.
func TestRequestLetterKeysIgnored(t *testing.T) {
	t.Parallel()
	wd := newWorld(t, withSize(80, 30))
	wd.ask("letters", 1)
	for _, r := range "question" {
		wd.clock.Advance(time.Second)
		wd.typeText(string(r))
	}
	if text, _ := wd.input(); text != "question" {
		t.Errorf("input %q", text)
	}
	if wd.waiting() != 1 || onUI(wd.harness, func() int { return wd.w.perm.confirm }) != 0 {
		t.Fatal("a letter answered, or began to")
	}
	if s := wd.text(); !strings.Contains(s, "…and 27 more options, without a number") || strings.Contains(s, "10  ") {
		t.Errorf("options past 9 are numbered, or not said:\n%s", s)
	}
}

// An "always" answer waits for Enter; any other key goes back to the options.
func TestRequestAlwaysNeedsEnter(t *testing.T) {
	t.Parallel()
	wd := newWorld(t)
	wd.ask("always", 1)
	wd.clock.Advance(time.Second)
	wd.typeText("1")
	wd.waitText("Enter: confirm “Always allow”")
	if wd.waiting() != 1 {
		t.Fatal("an always answer went without Enter")
	}
	wd.press(tcell.KeyEsc) // back, and the turn goes on
	if wd.waiting() != 1 || strings.Contains(wd.text(), "Enter: confirm") {
		t.Fatalf("Esc did not go back to the options:\n%s", wd.text())
	}
	wd.clock.Advance(time.Second)
	wd.typeText("Y")
	wd.waitText("Enter: confirm “Always allow”")
	wd.press(tcell.KeyEnter)
	wd.waitText("chose always")
}

// 10,000 requests at once are one request in the window, with how many wait, one entry on
// the board and one notice in the conversation; X rejects them all.
func TestRequestFlood(t *testing.T) {
	t.Parallel()
	wd := newWorld(t, withSize(80, 30))
	const flood = 10_000
	wd.ask("flood 10000", flood)
	wd.clock.Advance(time.Second)
	wd.sync()
	s := wd.text()
	if n := strings.Count(s, "! Alice asks permission"); n != 1 {
		t.Errorf("%d requests on screen, want 1:\n%s", n, s)
	}
	for _, want := range []string{"+9999 more waiting", "X: reject all 10000", ", and 9999 more requests (waiting"} {
		if !strings.Contains(s, want) {
			t.Errorf("the flood lacks %q:\n%s", want, s)
		}
	}
	if n := len(onUI(wd.harness, wd.reqs.Pending)); n != 1 {
		t.Errorf("%d entries on the board, want 1", n)
	}
	wd.typeText("X")
	wd.waitText("answers: yes 0, no 10000, cancelled 0")
	var notices []string
	for _, e := range wd.w.Conversation().Snapshot() {
		if e.Kind == chat.KindNotice {
			notices = append(notices, e.Text)
		}
	}
	if len(notices) != 1 || !strings.HasPrefix(notices[0], "alice asked permission 10000 times, first: Flood ") ||
		!strings.HasSuffix(notices[0], " — answers: Reject ×10000") {
		t.Errorf("the conversation's notices: %q", notices)
	}
}

// Esc in a window with requests waiting cancels the turn, and every request with it.
func TestRequestEscCancelsTurn(t *testing.T) {
	t.Parallel()
	wd := newWorld(t)
	wd.ask("flood 50", 50)
	wd.press(tcell.KeyEsc)
	wd.turnEnded()
	wd.waitText("answers: yes 0, no 0, cancelled 50")
	if wd.waiting() != 0 {
		t.Errorf("%d requests still wait", wd.waiting())
	}
}

// A request whose turn is cancelled before the screen has put it on the board never shows,
// and neither the asker nor the screen waits for it.
func TestRequestCancelledBeforeShown(t *testing.T) {
	t.Parallel()
	h := newHarness(t, 40, 10, 0)
	reqs := NewRequests(h.app)
	perm := Permissions(h.app, PermissionOptions{Key: chat.AgentKey("alice"), Requests: reqs})
	hold, held := make(chan struct{}), make(chan struct{})
	h.app.Post(func() { close(held); <-hold }) // the screen is busy
	<-held
	ctx, cancel := context.WithCancel(context.Background())
	asked := make(chan bool, 1)
	go func() {
		_, ok := perm.Ask(ctx, "alice", chat.PermissionRequest{Title: "t", Options: []chat.PermissionOption{{ID: "y", Name: "Yes", Kind: "allow_once"}}})
		asked <- ok
	}()
	cancel()
	select {
	case ok := <-asked:
		if ok {
			t.Error("a cancelled request got an answer")
		}
	case <-time.After(deadline):
		t.Fatal("Ask did not return once its context was done")
	}
	close(hold)
	if n := onUI(h, func() int { _, n := reqs.Head(chat.AgentKey("alice")); return n }); n != 0 {
		t.Errorf("%d requests on the board", n)
	}
}

// toolMeta says the kind and the locations, with their line; without locations, the files
// the diffs write; past three, "…".
func TestToolMeta(t *testing.T) {
	for _, c := range []struct {
		tool chat.ToolCall
		want string
	}{
		{chat.ToolCall{Kind: "read", Locations: []chat.Location{{Path: "/w/a.go", Line: 12}, {Path: "/w/b.go"}}}, "read · /w/a.go:12, /w/b.go"},
		{chat.ToolCall{Kind: "edit", Content: []chat.ToolContent{{Type: "text"}, {Type: "diff", Path: "/w/c.go"}}}, "edit · /w/c.go"},
		{chat.ToolCall{Locations: []chat.Location{{Path: "1"}, {Path: "2"}, {Path: "3"}, {Path: "4"}}}, "1, 2, 3, …"},
		{chat.ToolCall{}, ""},
	} {
		if got := toolMeta(c.tool); got != c.want {
			t.Errorf("toolMeta(%+v) = %q, want %q", c.tool, got, c.want)
		}
	}
}
