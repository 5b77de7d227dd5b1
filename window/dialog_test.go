package window_test

import (
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"github.com/gdamore/tcell/v2"

	. "git.rickub.com/bots-garden/sidekicks/window"
)

type result struct {
	text string
	n    int
	ok   bool
	got  bool
}

func dialogCount(h *harness) int { return onUI(h, func() int { return len(Dialogs(h.app)) }) }

func TestConfirmDialog(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.addWindows(1)
	var res result
	ask := func() {
		res = result{}
		h.do(func() {
			h.app.Confirm("Confirm", "Really?", func(yes bool) { res = result{ok: yes, got: true} })
		})
	}
	ask()
	h.golden("confirm")
	h.typeText("q") // not a button's letter: nothing
	if res.got || dialogCount(h) != 1 {
		t.Fatal("an unrelated key closed the dialog")
	}
	// The dialog is modal: F6 and Alt-X do nothing.
	h.press(tcell.KeyF6)
	h.alt('x')
	if res.got || dialogCount(h) != 1 {
		t.Fatal("a global key went through the dialog")
	}
	h.typeText("y")
	if !res.got || !res.ok {
		t.Errorf("Y: %+v", res)
	}
	ask()
	h.press(tcell.KeyLeft)
	h.press(tcell.KeyEnter)
	if !res.ok {
		t.Errorf("Left then Enter should press Yes: %+v", res)
	}
	// The arrows stop at the ends: → on No stays on No, ← on Yes stays on Yes.
	ask()
	h.press(tcell.KeyRight)
	h.press(tcell.KeyEnter)
	if !res.got || res.ok {
		t.Errorf("Right then Enter should press No, the last button: %+v", res)
	}
	ask()
	h.press(tcell.KeyLeft)
	h.press(tcell.KeyLeft)
	h.press(tcell.KeyEnter)
	if !res.got || !res.ok {
		t.Errorf("Left, Left then Enter should press Yes, the first button: %+v", res)
	}
	ask()
	h.press(tcell.KeyEsc)
	if !res.got || res.ok || dialogCount(h) != 0 {
		t.Errorf("Esc: %+v", res)
	}
	// Mouse: click on [ Yes ].
	ask()
	y, x := findOnScreen(h, "[ Yes ]")
	h.click(x+2, y)
	if !res.ok {
		t.Errorf("clicking Yes: %+v", res)
	}
}

// findOnScreen returns the row and column (in cells) where s first appears.
func findOnScreen(h *harness, s string) (int, int) {
	h.t.Helper()
	for y, line := range strings.Split(h.text(), "\n") {
		if i := strings.Index(line, s); i >= 0 {
			return y, TextWidth(line[:i])
		}
	}
	h.t.Fatalf("%q not on screen:\n%s", s, h.text())
	return 0, 0
}

func TestTextEntryDialog(t *testing.T) {
	h := newHarness(t, 80, 24)
	appDesktop(h)
	var res result
	h.do(func() {
		h.app.AskText(TextEntry{
			Title:  "New channel",
			Prompt: "Channel name:",
			Text:   "gen",
			Validate: func(s string) string {
				if s == "general" {
					return "The channel general exists."
				}
				return ""
			},
		}, func(s string, ok bool) { res = result{text: s, ok: ok, got: true} })
	})
	h.typeText("eral")
	h.press(tcell.KeyEnter)
	if res.got {
		t.Fatal("an invalid name closed the dialog")
	}
	h.golden("text-entry-error")
	if !strings.Contains(h.text(), "The channel general exists.") {
		t.Fatal("no error line")
	}
	h.press(tcell.KeyBackspace)
	if strings.Contains(h.text(), "exists") {
		t.Error("the error stayed after an edit")
	}
	// A paste with a newline: one line, the newline a space, never a submit.
	h.sim.PostEventWait(tcell.NewEventPaste(true))
	for _, r := range " x\ny" {
		if r == '\n' {
			h.sim.InjectKey(tcell.KeyEnter, 0, tcell.ModNone)
		} else {
			h.sim.InjectKey(tcell.KeyRune, r, tcell.ModNone)
		}
	}
	h.sim.PostEventWait(tcell.NewEventPaste(false))
	h.sync()
	if res.got {
		t.Fatal("a newline in a paste submitted the dialog")
	}
	h.press(tcell.KeyEnter)
	if !res.ok || res.text != "genera x y" {
		t.Errorf("result %+v, want %q", res, "genera x y")
	}
	// Tab to Cancel, Enter: cancelled.
	h.do(func() {
		h.app.AskText(TextEntry{Title: "T", Prompt: "P"}, func(s string, ok bool) { res = result{text: s, ok: ok, got: true} })
	})
	h.press(tcell.KeyTab)
	h.press(tcell.KeyTab)
	h.press(tcell.KeyEnter)
	if res.ok || !res.got {
		t.Errorf("Tab Tab Enter should cancel: %+v", res)
	}
}

func TestChoiceDialog(t *testing.T) {
	h := newHarness(t, 80, 24)
	appDesktop(h)
	var res result
	items := []ChoiceItem{{Text: "alpha"}, {Text: "beta"}, {Text: "alphabet"}, {Text: "gamma"}, {Text: "delta"}}
	open := func() {
		res = result{}
		h.do(func() {
			h.app.Choose(Choice{Title: "Pick", Items: items}, func(i int, ok bool) { res = result{n: i, ok: ok, got: true} })
		})
	}
	open()
	h.typeText("ta")
	h.golden("choice-filtered")
	// "ta" matches beta and delta (contained): beta first, in list order.
	h.press(tcell.KeyDown)
	h.press(tcell.KeyEnter)
	if !res.ok || res.n != 4 {
		t.Errorf("ta, Down, Enter: %+v, want delta (4)", res)
	}
	open()
	h.typeText("zzz")
	if !strings.Contains(h.text(), "(nothing matches)") {
		t.Error("no 'nothing matches' line")
	}
	h.press(tcell.KeyEnter)
	if res.got {
		t.Error("Enter on an empty list chose something")
	}
	h.press(tcell.KeyEsc)
	if !res.got || res.ok {
		t.Errorf("Esc: %+v", res)
	}
	// A click on an entry takes it.
	open()
	y, x := findOnScreen(h, "gamma")
	h.click(x, y)
	if !res.ok || res.n != 3 {
		t.Errorf("click on gamma: %+v", res)
	}
}

// permissionRequest is an options dialog as the application asks a permission, in lang.
func permissionRequest(lang i18n.Lang) OptionsRequest {
	in := func(en, fr string) string {
		if lang == i18n.French {
			return fr
		}
		return en
	}
	return OptionsRequest{
		Title:   in("Permission", "Autorisation"),
		Heading: in("alice asks to run:", "alice demande à exécuter :"),
		Detail:  "Edit src/main.go",
		Options: []Option{
			{ID: "once", Text: "Allow", Mark: in("allow, once", "autoriser, une fois"), MarkClass: ClassDialogAllow},
			{ID: "always", Text: "Always allow", Mark: in("allow, always", "autoriser, toujours"), MarkClass: ClassDialogAllow},
			{ID: "no", Text: "Reject", Mark: in("reject, once", "refuser, une fois"), MarkClass: ClassDialogReject},
			{ID: "never", Text: "Never", Mark: in("reject, always", "refuser, toujours"), MarkClass: ClassDialogReject},
		},
	}
}

func TestPermissionDialog(t *testing.T) {
	for _, lang := range []i18n.Lang{i18n.English, i18n.French} {
		name := map[i18n.Lang]string{i18n.English: "en", i18n.French: "fr"}[lang]
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, 80, 24, withLanguage(lang))
			h.addWindows(1)
			var res result
			var d *Dialog
			ask := func() {
				res = result{}
				h.do(func() {
					d = h.app.AskOption(permissionRequest(lang), func(id string, ok bool) { res = result{text: id, ok: ok, got: true} })
				})
			}
			ask()
			h.golden("permission-" + name)
			h.typeText("2")
			if !res.ok || res.text != "always" {
				t.Errorf("key 2: %+v", res)
			}
			ask()
			h.typeText("rAan") // letters of the options' names choose nothing
			if res.got {
				t.Errorf("a letter chose an option: %+v", res)
			}
			h.press(tcell.KeyEsc)
			ask()
			h.press(tcell.KeyDown)
			h.press(tcell.KeyDown)
			h.press(tcell.KeyDown)
			h.press(tcell.KeyEnter)
			if !res.ok || res.text != "never" {
				t.Errorf("Down×3 Enter: %+v", res)
			}
			ask()
			h.press(tcell.KeyEsc)
			if !res.got || res.ok {
				t.Errorf("Esc must cancel: %+v", res)
			}
			// The turn was cancelled: the caller dismisses the dialog.
			ask()
			h.do(func() { d.Dismiss() })
			if !res.got || res.ok || dialogCount(h) != 0 {
				t.Errorf("Dismiss: %+v, %d dialogs", res, dialogCount(h))
			}
			h.do(func() { d.Dismiss() }) // twice is harmless
		})
	}
}

func TestPermissionHostileText(t *testing.T) {
	h := newHarness(t, 80, 24)
	req := OptionsRequest{
		Title:   "Permission",
		Heading: "evil\x1b[31m asks to run:",
		Detail:  "rm -rf /\x1b]52;c;AAAA\x07\r\nnext",
		Options: []Option{{ID: "a", Text: "\x1b[2JAllow"}},
	}
	h.do(func() { h.app.AskOption(req, func(string, bool) {}) })
	cells, _, _ := h.contents()
	for _, c := range cells {
		for _, r := range c.Runes {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
				t.Fatalf("control character %U reached the screen", r)
			}
		}
	}
	if !strings.Contains(h.text(), "␛[31m") {
		t.Errorf("escape not shown as a placeholder:\n%s", h.text())
	}
}

func TestNestedDialogs(t *testing.T) {
	h := newHarness(t, 80, 24)
	var order []string
	h.do(func() {
		h.app.Confirm("one", "first", func(bool) { order = append(order, "one") })
		h.app.Confirm("two", "second", func(bool) { order = append(order, "two") })
	})
	h.press(tcell.KeyEsc)
	h.press(tcell.KeyEsc)
	if strings.Join(order, ",") != "two,one" {
		t.Errorf("dialogs answered in order %v, want the top one first", order)
	}
}
