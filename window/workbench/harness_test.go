package workbench

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

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

// harness runs a window.App on a simulation screen that keeps each frame shown.
type harness struct {
	*windowtest.Harness
	t   *testing.T
	app *window.App
}

func newHarness(t *testing.T, w, h int, lang i18n.Lang) *harness {
	t.Helper()
	t.Setenv("LC_ALL", "C.UTF-8") // the marks are the Unicode ones whatever the test's locale
	wh := windowtest.Start(t, windowtest.Config{
		Deadline: deadline,
		Options:  window.Options{Theme: window.SelectTheme("dark", true, false), Language: lang}})
	hs := &harness{Harness: wh, t: t, app: wh.App}
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

// golden compares the screen (text and styles) with testdata/name.golden.
func (h *harness) golden(name string, f screenFrame) {
	h.t.Helper()
	path := filepath.Join("testdata", name+".golden")
	got := f.Text() + "--- styles\n" + f.Styles()
	if want, err := os.ReadFile(path); err == nil && !*update {
		// The frame a test waited for may be one the screen is still settling from (a
		// status line or a redraw arriving right after): compare the frames that follow,
		// until one matches or the deadline passes; the last one is then reported.
		end := time.After(deadline)
		for got != string(want) {
			last, next := h.Screen.Last()
			if last.N != f.N {
				f = screenFrame{last}
				got = f.Text() + "--- styles\n" + f.Styles()
				continue
			}
			select {
			case <-next:
				continue
			case <-end:
			}
			break
		}
	}
	windowtest.Golden(h.t, path, got, *update)
}
