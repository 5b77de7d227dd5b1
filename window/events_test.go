package window_test

import (
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"github.com/gdamore/tcell/v2"

	. "git.rickub.com/bots-garden/sidekicks/window"
)

func TestPasteIsOneEvent(t *testing.T) {
	h := newHarness(t, 80, 24)
	r := &recorder{}
	h.do(func() { _, _ = h.app.AddWindow("alice", r) })
	frames := onUI(h, func() uint64 { return FramesDrawn(h.app) })
	h.sim.PostEventWait(tcell.NewEventPaste(true))
	for _, c := range "line one\r\nline two\ttab" {
		switch c {
		case '\r':
			h.sim.InjectKey(tcell.KeyEnter, 0, tcell.ModNone)
		case '\n':
			h.sim.InjectKey(tcell.KeyLF, 'j', tcell.ModCtrl)
		case '\t':
			h.sim.InjectKey(tcell.KeyTab, 0, tcell.ModNone)
		default:
			h.sim.InjectKey(tcell.KeyRune, c, tcell.ModNone)
		}
	}
	h.sim.PostEventWait(tcell.NewEventPaste(false))
	h.sync()
	evs := r.got()
	if len(evs) != 1 {
		t.Fatalf("the paste arrived as %d events: %v", len(evs), evs)
	}
	if p, ok := evs[0].(Paste); !ok || p.Text != "line one\nline two\ttab" {
		t.Errorf("paste event %#v", evs[0])
	}
	// A paste of hundreds of characters is handled as one batch: a handful of frames.
	before := onUI(h, func() uint64 { return FramesDrawn(h.app) })
	h.sim.PostEventWait(tcell.NewEventPaste(true))
	for i := 0; i < 500; i++ {
		h.sim.InjectKey(tcell.KeyRune, 'x', tcell.ModNone)
	}
	h.sim.PostEventWait(tcell.NewEventPaste(false))
	h.sync()
	if got := r.got(); len(got) != 2 || len(got[1].(Paste).Text) != 500 {
		t.Fatalf("second paste: %d events", len(got))
	}
	after := onUI(h, func() uint64 { return FramesDrawn(h.app) })
	if after-before > 60 {
		t.Errorf("500 pasted characters took %d frames", after-before)
	}
	_ = frames
	// An end without a start is ignored.
	h.sim.PostEventWait(tcell.NewEventPaste(false))
	h.sync()
	if len(r.got()) != 2 {
		t.Error("a lone paste end produced an event")
	}
}

func TestAltEnterForms(t *testing.T) {
	h := newHarness(t, 80, 24)
	r := &recorder{}
	h.do(func() { _, _ = h.app.AddWindow("alice", r) })
	altEnter := Named(KeyEnter, ModAlt)
	forms := []struct {
		name string
		key  tcell.Key
		r    rune
		mod  tcell.ModMask
	}{
		{"ESC CR (tmux, older terminals)", tcell.KeyRune, 'm', tcell.ModAlt | tcell.ModCtrl},
		{"Enter with Alt (key protocols)", tcell.KeyEnter, 0, tcell.ModAlt},
		{"CR with Alt", tcell.KeyCR, 0, tcell.ModAlt},
		{"Ctrl-M with Alt (win32 input)", tcell.KeyCtrlM, 0, tcell.ModAlt},
	}
	for _, f := range forms {
		h.key(f.key, f.r, f.mod)
		evs := r.got()
		if last := evs[len(evs)-1]; last != Event(altEnter) {
			t.Errorf("%s arrived as %v, want Alt-Enter", f.name, last)
		}
	}
	h.press(tcell.KeyEnter)
	if evs := r.got(); evs[len(evs)-1] != Event(Named(KeyEnter, 0)) {
		t.Errorf("plain Enter arrived as %v", evs[len(evs)-1])
	}
}

func TestMouseFocusAndWheel(t *testing.T) {
	h := newHarness(t, 80, 24)
	a, b := &recorder{}, &recorder{}
	h.do(func() {
		_, _ = h.app.AddWindow("a", a)
		_, _ = h.app.AddWindow("b", b)
	})
	// The wheel over window 1 scrolls it although window 2 has the focus.
	h.sim.InjectMouse(10, 5, tcell.WheelDown, tcell.ModNone)
	h.sim.InjectMouse(10, 5, tcell.WheelUp, tcell.ModNone)
	h.sync()
	evs := a.got()
	if len(evs) != 2 || evs[0] != Event(Mouse{X: 9, Y: 3, Action: MouseWheelDown}) || evs[1].(Mouse).Action != MouseWheelUp {
		t.Fatalf("wheel events to window 1: %v", evs)
	}
	if focused(h) != 2 || len(b.got()) != 0 {
		t.Errorf("the wheel moved the focus or reached window 2")
	}
	// A click focuses window 1 and reaches its widget; the drag and the release follow
	// it even outside.
	h.sim.InjectMouse(12, 6, tcell.Button1, tcell.ModNone)
	h.sim.InjectMouse(50, 6, tcell.Button1, tcell.ModNone)
	h.sim.InjectMouse(50, 7, tcell.ButtonNone, tcell.ModNone)
	h.sync()
	if focused(h) != 1 {
		t.Errorf("click focus: %d", focused(h))
	}
	evs = a.got()[2:]
	want := []Event{Mouse{X: 11, Y: 4, Action: MousePress}, Mouse{X: 49, Y: 4, Action: MouseDrag}, Mouse{X: 49, Y: 5, Action: MouseRelease}}
	if len(evs) != 3 || evs[0] != want[0] || evs[1] != want[1] || evs[2] != want[2] {
		t.Errorf("press, drag, release: %v, want %v", evs, want)
	}
	if len(b.got()) != 0 {
		t.Errorf("window 2 got %v", b.got())
	}
}

func TestKeysToFocusedWidget(t *testing.T) {
	h := newHarness(t, 80, 24)
	a := &recorder{}
	h.do(func() { _, _ = h.app.AddWindow("a", a) })
	h.typeText("hé")
	h.key(tcell.KeyCtrlC, 'c', tcell.ModCtrl)
	h.key(tcell.KeyRune, 'c', tcell.ModCtrl) // CSI-u form of the same key
	evs := a.got()
	want := []Event{Key{KeyRune, 'h', 0}, Key{KeyRune, 'é', 0}, Ctrl('c'), Ctrl('c')}
	if len(evs) != len(want) {
		t.Fatalf("got %v", evs)
	}
	for i := range want {
		if evs[i] != want[i] {
			t.Errorf("event %d: %v, want %v", i, evs[i], want[i])
		}
	}
}

func TestLanguagesAndThemes(t *testing.T) {
	for _, c := range []struct {
		name  string
		theme *Theme
		lang  i18n.Lang
	}{
		{"dark-en", SelectTheme("dark", false, false), i18n.English},
		{"light-fr", SelectTheme("light", true, false), i18n.French},
		{"nocolor-en", SelectTheme("system", true, true), i18n.English},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, 80, 24, withTheme(c.theme), withLanguage(c.lang))
			h.do(func() { h.app.SetMenus(SampleMenus(h.app)) })
			wins := h.addWindows(2)
			h.do(func() {
				wins[0].MarkUnread()
				h.app.Confirm(h.app.T(LabelConfirm), "?", func(bool) {})
			})
			h.golden("look-" + c.name)
		})
	}
	// NO_COLOR: no cell has a colour.
	h := newHarness(t, 80, 24, withTheme(SelectTheme("dark", true, true)))
	h.addWindows(3)
	cells, _, _ := h.contents()
	for _, c := range cells {
		fg, bg, _ := c.Style.Decompose()
		if fg.Valid() || bg.Valid() {
			t.Fatalf("a colour with NO_COLOR: %v on %v", fg, bg)
		}
	}
	if !strings.Contains(h.text(), "F10 Menu") {
		t.Fatal("nothing drawn")
	}
}

func TestSetLanguageLive(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.do(func() { h.app.SetMenus(SampleMenus(h.app)) })
	if !strings.Contains(h.row(0), "Channels") {
		t.Fatalf("row 0 %q", h.row(0))
	}
	h.do(func() { h.app.SetLanguage(i18n.French) })
	if !strings.Contains(h.row(0), "Canaux") {
		t.Errorf("after SetLanguage(French): %q", h.row(0))
	}
}
