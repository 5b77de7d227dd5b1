package workbench

import (
	"flag"
	"path/filepath"
	"testing"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/window"
	"git.rickub.com/bots-garden/sidekicks/window/windowtest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// screenFrame is one frame as shown.
type screenFrame struct{ windowtest.Frame }

func (f screenFrame) text() string                      { return f.Text() }
func (f screenFrame) find(s string) (x, y int, ok bool) { return f.Find(s) }
func (f screenFrame) style(x, y int) tcell.Style        { return f.Style(x, y) }

// harness runs a window.App on a simulation screen that keeps each frame shown, with a
// clock that moves only when the test says (status messages stay until the next one).
type harness struct {
	*windowtest.Harness
	t     *testing.T
	app   *window.App
	clock *windowtest.Clock
}

func newHarness(t *testing.T, w, h int, lang i18n.Lang) *harness {
	t.Helper()
	t.Setenv("LC_ALL", "C.UTF-8") // the marks are the Unicode ones whatever the test's locale
	clock := windowtest.NewClock()
	wh := windowtest.Start(t, windowtest.Config{
		Deadline: deadline,
		Options:  window.Options{Theme: window.SelectTheme("dark", true, false), Language: lang, Now: clock.Now}})
	hs := &harness{Harness: wh, t: t, app: wh.App, clock: clock}
	hs.do(func() {}) // the loop draws its first frame when something wakes it
	hs.Resize(w, h)
	return hs
}

// waitFrame waits for a frame that satisfies ok, and returns it.
func (h *harness) waitFrame(what string, ok func(screenFrame) bool) screenFrame {
	h.t.Helper()
	return screenFrame{h.WaitFrame(what, func(f windowtest.Frame) bool { return ok(screenFrame{f}) })}
}

// waitText waits until the screen shows every one of texts.
func (h *harness) waitText(texts ...string) screenFrame {
	h.t.Helper()
	return screenFrame{h.WaitText(texts...)}
}

// waitGone waits until the screen no longer shows text.
func (h *harness) waitGone(text string) screenFrame {
	h.t.Helper()
	return screenFrame{h.WaitGone(text)}
}

// waitRow waits until a row of the screen holds every one of texts.
func (h *harness) waitRow(texts ...string) screenFrame {
	h.t.Helper()
	return screenFrame{h.WaitRow(texts...)}
}

// do runs f on the screen's goroutine and waits for the frame after it.
func (h *harness) do(f func()) {
	h.t.Helper()
	h.Do(f)
}

// onUI reads a value on the screen's goroutine.
func onUI[T any](h *harness, f func() T) T {
	var v T
	h.do(func() { v = f() })
	return v
}

// key sends a key as the terminal would; it never drops one (PostEventWait waits for room).
func (h *harness) key(k tcell.Key, r rune, mod tcell.ModMask) { h.Key(k, r, mod) }

func (h *harness) press(k tcell.Key) { h.key(k, 0, tcell.ModNone) }
func (h *harness) ctrl(r rune)       { h.key(tcell.KeyRune, r, tcell.ModCtrl) }
func (h *harness) typeText(s string) { h.Type(s) }

// paste sends a bracketed paste.
func (h *harness) paste(s string) { h.Paste(s) }

// golden waits until the App is idle, then compares the screen (text and styles) with
// testdata/name.golden, once.
func (h *harness) golden(name string) {
	h.t.Helper()
	h.Golden(filepath.Join("testdata", name+".golden"), *update)
}
