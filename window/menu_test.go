package window_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	. "git.rickub.com/bots-garden/sidekicks/window"
)

func menuHarness(t *testing.T, opts ...harnessOption) (*harness, *SampleBar) {
	h := newHarness(t, 80, 24, opts...)
	bar := &SampleBar{}
	h.do(func() { h.app.SetMenus(bar.Menus(h.app)) })
	h.addWindows(2)
	return h, bar
}

func menuOpen(h *harness) (bool, int) {
	type state struct {
		open  bool
		index int
	}
	st := onUI(h, func() state { open, i := MenuState(h.app); return state{open, i} })
	return st.open, st.index
}

// ranByMenus is what the sample bar's entries ran, in order.
func ranByMenus(h *harness, bar *SampleBar) string {
	return onUI(h, func() string { return strings.Join(bar.Ran, " ") })
}

// TestMenuMechanics: the keys and clicks that open menus and run their entries, on a bar
// of the application's menus and the toolkit's.
func TestMenuMechanics(t *testing.T) {
	h, bar := menuHarness(t)
	// F10 opens the first menu; Left from it goes to the last, Right comes back and on.
	for _, step := range []struct {
		key  tcell.Key
		want int
	}{{tcell.KeyF10, 0}, {tcell.KeyLeft, 4}, {tcell.KeyRight, 0}, {tcell.KeyRight, 1}} {
		h.press(step.key)
		if open, i := menuOpen(h); !open || i != step.want {
			t.Fatalf("%v: open %v, menu %d, want menu %d", tcell.KeyNames[step.key], open, i, step.want)
		}
	}
	// A marked letter runs its entry and closes the menu.
	h.typeText("n")
	if open, _ := menuOpen(h); open || ranByMenus(h, bar) != "new" {
		t.Fatalf("N in the second menu: open %v, ran %q", open, ranByMenus(h, bar))
	}
	// The first entry is highlighted; Down skips the disabled one.
	h.alt('s')
	if !strings.Contains(h.row(0), "Sidekicks") || !strings.Contains(h.text(), "Disabled") {
		t.Fatalf("the first menu is not open:\n%s", h.text())
	}
	h.press(tcell.KeyDown)
	h.press(tcell.KeyEnter)
	if got := ranByMenus(h, bar); got != "new reload" {
		t.Errorf("Down, Enter ran %q, want reload", got)
	}
	// A disabled entry's letter does nothing; Esc closes without running anything.
	h.alt('s')
	h.typeText("d")
	if open, _ := menuOpen(h); !open || ranByMenus(h, bar) != "new reload" {
		t.Errorf("D on a disabled entry: open %v, ran %q", open, ranByMenus(h, bar))
	}
	h.press(tcell.KeyEsc)
	if open, _ := menuOpen(h); open {
		t.Error("Esc left the menu open")
	}
	// Alt with another menu's letter switches to it; an entry with no action shows but
	// does not run.
	h.alt('s')
	h.alt('c')
	if _, i := menuOpen(h); i != 1 || !strings.Contains(h.text(), "(no action)") {
		t.Errorf("Alt-C in the first menu: menu %d:\n%s", i, h.text())
	}
	h.press(tcell.KeyDown)
	h.press(tcell.KeyEnter)
	if got := ranByMenus(h, bar); got != "new reload new" {
		t.Errorf("Down, Enter in the second menu ran %q: the entry with no action was taken", got)
	}
	// A click on a title opens its menu, a click on an entry runs it.
	h.click(3, 0)
	y, x := findOnScreen(h, "Open…")
	h.click(x, y)
	if got := ranByMenus(h, bar); got != "new reload new open" {
		t.Errorf("a click on Open… ran %q", got)
	}
	// The toolkit's Help menu opens the list of keys.
	h.alt('h')
	h.press(tcell.KeyEnter)
	if !strings.Contains(h.text(), "Keys") || focused(h) != 3 {
		t.Errorf("Help ▸ Keys did not open the keys window:\n%s", h.text())
	}
}

func TestMenuWindowEntries(t *testing.T) {
	h, _ := menuHarness(t)
	h.alt('w')
	h.typeText("m")
	if !onUI(h, h.app.Maximised) {
		t.Fatal("Window ▸ Maximise did not maximise")
	}
	h.alt('w')
	if !strings.Contains(h.text(), "Restore") {
		t.Errorf("the entry does not say Restore while maximised:\n%s", h.text())
	}
	h.typeText("t")
	if onUI(h, h.app.Maximised) {
		t.Error("Window ▸ Tile did not restore")
	}
	h.alt('w')
	h.typeText("c")
	if n := onUI(h, func() int { return len(h.app.Windows()) }); n != 1 {
		t.Errorf("Window ▸ Close: %d windows left", n)
	}
}

func TestLongMenuScrolls(t *testing.T) {
	h := newHarness(t, 80, 12)
	bar := &SampleBar{}
	for i := 0; i < 20; i++ {
		bar.Names = append(bar.Names, fmt.Sprintf("agent%02d", i))
	}
	h.do(func() { h.app.SetMenus(bar.Menus(h.app)) })
	h.alt('a')
	for i := 0; i < 15; i++ {
		h.press(tcell.KeyDown)
	}
	if !strings.Contains(h.text(), "agent15") || strings.Contains(h.text(), "agent00") {
		t.Fatalf("the highlighted entry is not in view:\n%s", h.text())
	}
	y, x := findOnScreen(h, "agent14")
	h.click(x, y)
	if ran := onUI(h, func() string { return strings.Join(bar.Ran, " ") }); ran != "agent14" {
		t.Errorf("click on a scrolled entry ran %q", ran)
	}
}

func TestWindowKeysCloseTheMenu(t *testing.T) {
	h, _ := menuHarness(t)
	h.alt('s')
	h.alt('1')
	if open, _ := menuOpen(h); open || focused(h) != 1 {
		t.Errorf("Alt-1 in a menu: open %v, focus %d", open, focused(h))
	}
	h.alt('w')
	h.press(tcell.KeyF6)
	if open, _ := menuOpen(h); open || focused(h) != 2 {
		t.Errorf("F6 in a menu: open %v, focus %d", open, focused(h))
	}
}
