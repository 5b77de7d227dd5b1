package chatwin

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// The keys of the input, through the real App: tcell's events, the window's normalisation,
// the widget.

func TestInputEditingKeys(t *testing.T) {
	t.Parallel()
	wd := newWorld(t)
	wd.typeText("hello world")
	wd.press(tcell.KeyHome)
	wd.press(tcell.KeyRight)
	wd.press(tcell.KeyDelete) // "hllo world"
	wd.press(tcell.KeyEnd)
	wd.press(tcell.KeyBackspace2) // "hllo worl"
	wd.press(tcell.KeyLeft)
	wd.typeText("X") // "hllo worXl"
	if text, cur := wd.input(); text != "hllo worXl" || cur != 9 {
		t.Fatalf("input %q cursor %d", text, cur)
	}
	wd.ctrl('a')
	wd.ctrl('k')
	if text, _ := wd.input(); text != "" {
		t.Fatalf("Ctrl-A Ctrl-K left %q", text)
	}
	if n := wd.agent.promptCount(); n != 0 {
		t.Fatalf("%d prompts sent while editing", n)
	}
}

func TestAltEnterInEveryForm(t *testing.T) {
	t.Parallel()
	wd := newWorld(t)
	forms := []struct {
		name string
		key  tcell.Key
		r    rune
		mod  tcell.ModMask
	}{
		{"Enter with Alt (kitty, xterm protocols)", tcell.KeyEnter, 0, tcell.ModAlt},
		{"ESC CR (tmux, older terminals): Ctrl-Alt-m to tcell", tcell.KeyRune, 'm', tcell.ModAlt | tcell.ModCtrl},
		{"LF with Alt", tcell.KeyLF, 0, tcell.ModAlt},
		{"Enter with Shift", tcell.KeyEnter, 0, tcell.ModShift},
	}
	wd.typeText("a")
	for _, f := range forms {
		wd.injectKey(f.key, f.r, f.mod)
		wd.typeText("b")
	}
	if text, _ := wd.input(); text != "a\nb\nb\nb\nb" {
		t.Fatalf("input %q, want a newline for each form", text)
	}
	if n := wd.agent.promptCount(); n != 0 {
		t.Fatalf("a newline sent the input (%d prompts)", n)
	}
	// The input grows with its lines.
	rows := wd.rows()
	for i, want := range []string{"║a", "║b", "║b", "║b", "║b"} {
		if got := rows[len(rows)-8+i]; !strings.HasPrefix(got, want) {
			t.Errorf("row %d of the input = %q, want %q…\n%s", i, got, want, wd.text())
		}
	}
	// Backspace at the start of a line joins it to the line above.
	wd.press(tcell.KeyHome)
	wd.press(tcell.KeyBackspace2)
	if text, cur := wd.input(); text != "a\nb\nb\nbb" || cur != 7 {
		t.Fatalf("after Backspace at the start of a line: %q cursor %d", text, cur)
	}
	// Up and Down move between the lines, keeping the column.
	wd.press(tcell.KeyUp)
	wd.press(tcell.KeyUp)
	if _, cur := wd.input(); cur != 3 {
		t.Fatalf("Up twice: cursor %d, want 3 (end of the second line)", cur)
	}
	wd.press(tcell.KeyDown)
	wd.press(tcell.KeyEnd)
	if _, cur := wd.input(); cur != 5 {
		t.Fatalf("Down, End: cursor %d, want 5", cur)
	}
	wd.press(tcell.KeyEnter)
	if got := wd.started(); got != "a\nb\nb\nbb" {
		t.Errorf("sent %q", got)
	}
}

func TestPasteIsInsertedWholeAndNeverSent(t *testing.T) {
	t.Parallel()
	wd := newWorld(t)
	wd.typeText("x")
	wd.paste("first line\nsecond line\n\tindented\n")
	if text, _ := wd.input(); text != "xfirst line\nsecond line\n\tindented\n" {
		t.Fatalf("input %q", text)
	}
	if n := wd.agent.promptCount(); n != 0 {
		t.Fatalf("the paste's newlines sent it (%d prompts)", n)
	}
	if !strings.Contains(wd.text(), "    indented") {
		t.Errorf("a tab is not drawn up to the next stop:\n%s", wd.text())
	}
	// Shift-Ins pastes Sidekicks' own clipboard.
	wd.do(func() { wd.app.SetClipboard("from the clipboard") })
	wd.ctrl('a')
	wd.key(tcell.KeyInsert, tcell.ModShift)
	if text, _ := wd.input(); !strings.Contains(text, "from the clipboard") {
		t.Fatalf("Shift-Ins: input %q", text)
	}
}

func TestHistoryOfSentPrompts(t *testing.T) {
	t.Parallel()
	wd := newWorld(t)
	wd.send("one")
	wd.turnEnded()
	wd.send("two")
	wd.turnEnded()
	wd.press(tcell.KeyUp)
	if text, _ := wd.input(); text != "two" {
		t.Fatalf("Up on an empty input: %q", text)
	}
	wd.press(tcell.KeyUp)
	if text, _ := wd.input(); text != "one" {
		t.Fatalf("Up again: %q", text)
	}
	wd.press(tcell.KeyDown)
	wd.press(tcell.KeyDown)
	if text, _ := wd.input(); text != "" {
		t.Fatalf("Down past the newest: %q, want the empty input back", text)
	}
	// Up on an input that holds text moves in it instead.
	wd.typeText("draft")
	wd.press(tcell.KeyUp)
	if text, _ := wd.input(); text != "draft" {
		t.Fatalf("Up on a draft replaced it: %q", text)
	}
}

func TestTabMovesFocus(t *testing.T) {
	t.Parallel()
	wd := newWorld(t)
	wd.send("hello")
	wd.turnEnded()
	if !strings.Contains(wd.rows()[wd.h-1], "Enter Send") {
		t.Fatalf("the status bar does not show the input's keys: %q", wd.rows()[wd.h-1])
	}
	wd.press(tcell.KeyTab)
	if got := onUI(wd.harness, func() area { return wd.w.focus }); got != areaConversation {
		t.Fatal("Tab did not move the focus to the conversation")
	}
	if !strings.Contains(wd.rows()[wd.h-1], "Ctrl-C Copy") {
		t.Errorf("the status bar does not show the conversation's keys: %q", wd.rows()[wd.h-1])
	}
	// The cursor bar is on the last row of the conversation.
	x, y := wd.find("That is all.")
	if got, want := wd.styleAt(x, y), wd.app.Theme().Style(classOf("editor.selection")); got != want {
		t.Errorf("the last row is not the cursor bar: %v", got)
	}
	// A character typed in the conversation goes to the input.
	wd.typeText("q")
	if text, _ := wd.input(); text != "q" {
		t.Errorf("typing in the conversation: input %q", text)
	}
	wd.press(tcell.KeyTab)
	wd.press(tcell.KeyTab)
	if got := onUI(wd.harness, func() area { return wd.w.focus }); got != areaInput {
		t.Error("Tab twice did not come back to the input")
	}
	// Enter and Alt-Enter work from the conversation too: they act on the input.
	wd.press(tcell.KeyTab)
	wd.key(tcell.KeyEnter, tcell.ModAlt)
	wd.typeText("r")
	wd.press(tcell.KeyTab)
	wd.press(tcell.KeyEnter)
	if got := wd.started(); got != "q\nr" {
		t.Errorf("Enter in the conversation sent %q", got)
	}
}
