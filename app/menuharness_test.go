package app

import (
	"flag"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/window"
	"git.rickub.com/bots-garden/sidekicks/window/windowtest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// screenHarness runs a window.App on a simulation screen without the rest of the
// application: the menus' tests drive Sidekicks' menu bar on it, with handlers of their own.
type screenHarness struct {
	*windowtest.Harness
	t    *testing.T
	app  *window.App
	w, h int
}

func newScreenHarness(t *testing.T, w, h int, lang i18n.Lang) *screenHarness {
	t.Helper()
	wh := windowtest.Start(t, windowtest.Config{Width: w, Height: h,
		Options: window.Options{Language: lang, Now: windowtest.NewClock().Now}})
	return &screenHarness{Harness: wh, t: t, app: wh.App, w: w, h: h}
}

// settle waits until every event sent so far has been handled and the screen redrawn.
func (h *screenHarness) settle() { h.Redraw(h.w, h.h) }

// do runs f on the screen's goroutine and waits for the frame after it.
func (h *screenHarness) do(f func()) { h.Do(f) }

func (h *screenHarness) key(k tcell.Key, r rune, mod tcell.ModMask) {
	h.Key(k, r, mod)
	h.settle()
}

func (h *screenHarness) alt(r rune)        { h.key(tcell.KeyRune, r, tcell.ModAlt) }
func (h *screenHarness) press(k tcell.Key) { h.key(k, 0, tcell.ModNone) }
func (h *screenHarness) typeText(s string) {
	h.Type(s)
	h.settle()
}

func (h *screenHarness) click(x, y int) {
	h.Mouse(x, y, tcell.Button1, tcell.ModNone)
	h.Mouse(x, y, tcell.ButtonNone, tcell.ModNone)
	h.settle()
}

// text returns the screen's rows, trailing spaces removed.
func (h *screenHarness) text() string { return h.Read().Text() }

// row returns row y of the screen.
func (h *screenHarness) row(y int) string { return h.Read().Rows()[y] }

// golden compares the screen (text and styles) with testdata/name.golden.
func (h *screenHarness) golden(name string) {
	h.t.Helper()
	h.Golden(filepath.Join("testdata", name+".golden"), *update)
}

// addWindows opens n windows of two lines each, "Window 1", "Window 2"…
func (h *screenHarness) addWindows(n int) {
	h.do(func() {
		for range n {
			i := len(h.app.Windows()) + 1
			v := window.NewTextView()
			v.SetText(fmt.Sprintf("Content of window %d.\nSecond line.", i))
			if _, err := h.app.AddWindow(fmt.Sprintf("Window %d", i), v); err != nil {
				h.t.Fatal(err)
			}
		}
	})
}

// onScreen reads a value on the screen's goroutine.
func onScreen[T any](h *screenHarness, f func() T) T { return windowtest.Value(h.Harness, f) }

// menuOpen says whether a menu is open, and which.
func menuOpen(h *screenHarness) (bool, int) {
	var open bool
	var i int
	h.Post(func() { i, open = h.app.OpenMenu() })
	return open, i
}

// focused is the number of the focused window.
func focused(h *screenHarness) int {
	return onScreen(h, func() int { return h.app.Focused().Number() })
}

// dialogCount is how many dialogs are open.
func dialogCount(h *screenHarness) int { return onScreen(h, h.app.Dialogs) }

// findOnScreen returns the row and the column where s starts on the screen.
func findOnScreen(h *screenHarness, s string) (int, int) {
	h.t.Helper()
	x, y, ok := h.Read().Find(s)
	if !ok {
		h.t.Fatalf("%q not on screen:\n%s", s, h.text())
	}
	return y, x
}

// runnable says whether a menu entry can run now (call it on the screen's goroutine when
// its Enabled reads the application's state).
func runnable(it window.MenuItem) bool {
	return !it.Separator && it.Action != nil && (it.Enabled == nil || it.Enabled())
}

// entryText is a menu entry's text as the menu shows it.
func entryText(it window.MenuItem) string {
	if it.Marked != "" {
		s, _ := window.SplitMnemonic(it.Marked)
		return s
	}
	return it.Text
}
