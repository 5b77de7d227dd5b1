package chatwin

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/window"
)

// selected reports whether the row of the screen that shows text is painted as selected
// (the cursor bar or the selection).
func (wd *world) selected(text string) bool {
	wd.t.Helper()
	x, y := wd.find(text)
	if x < 0 {
		wd.t.Fatalf("%q is not on the screen:\n%s", text, wd.text())
	}
	return wd.styleAt(x, y) == wd.app.Theme().Style(window.ClassSelection)
}

// selectedRows returns the texts of the rows painted as selected.
func (wd *world) selectedRows() []string {
	sel := wd.app.Theme().Style(window.ClassSelection)
	var out []string
	for y, row := range wd.rows() {
		if y < 2 || y >= wd.h-1 || len(row) < 2 {
			continue
		}
		if wd.styleAt(1, y) == sel {
			out = append(out, strings.TrimSpace(strings.Trim(row, "║")))
		}
	}
	return out
}

// clipboard returns Sidekicks' clipboard and what the screen was given for the system's.
func (wd *world) clipboard() (own, system string) {
	type pair struct{ a, b string }
	p := onUI(wd.harness, func() pair { return pair{wd.app.Clipboard(), string(wd.sim.GetClipboardData())} })
	return p.a, p.b
}

// status returns the status bar.
func (wd *world) status() string { return wd.rows()[wd.h-1] }

func (wd *world) click(text string, mod tcell.ModMask) {
	wd.t.Helper()
	x, y := wd.find(text)
	if x < 0 {
		wd.t.Fatalf("%q is not on the screen:\n%s", text, wd.text())
	}
	wd.mouse(x, y, tcell.Button1, mod)
	wd.mouse(x, y, tcell.ButtonNone, mod)
}

func TestConversationCursorAndSelectionKeys(t *testing.T) {
	t.Parallel()
	wd := newWorld(t)
	wd.send("lines 40")
	wd.turnEnded()
	wd.press(tcell.KeyTab)
	if got := wd.selectedRows(); len(got) != 1 || got[0] != "line 40" {
		t.Fatalf("cursor bar on %q, want the last row", got)
	}
	for i := 0; i < 3; i++ {
		wd.press(tcell.KeyUp)
	}
	if got := wd.selectedRows(); len(got) != 1 || got[0] != "line 37" {
		t.Fatalf("Up ×3: cursor bar on %q", got)
	}
	wd.press(tcell.KeyDown)
	if got := wd.selectedRows(); len(got) != 1 || got[0] != "line 38" {
		t.Fatalf("Down: cursor bar on %q", got)
	}
	// Shift extends a selection of whole lines.
	wd.key(tcell.KeyUp, tcell.ModShift)
	wd.key(tcell.KeyUp, tcell.ModShift)
	if got := wd.selectedRows(); strings.Join(got, ",") != "line 36,line 37,line 38" {
		t.Fatalf("Shift-Up ×2 selected %q", got)
	}
	wd.ctrl('c')
	own, system := wd.clipboard()
	if own != "line 36\nline 37\nline 38" || system != own {
		t.Fatalf("copied %q, system clipboard %q", own, system)
	}
	if !strings.Contains(wd.status(), "3 lines copied") {
		t.Errorf("status bar: %q", wd.status())
	}
	// Esc drops the selection; the cursor bar stays.
	wd.press(tcell.KeyEsc)
	if got := wd.selectedRows(); len(got) != 1 || got[0] != "line 36" {
		t.Fatalf("after Esc: selected %q", got)
	}
	// Without a selection, the region under the cursor: the whole passage.
	wd.key(tcell.KeyInsert, tcell.ModCtrl)
	if own, _ := wd.clipboard(); !strings.HasPrefix(own, "line 1\nline 2\n") || !strings.HasSuffix(own, "\nline 40") {
		t.Fatalf("Ctrl-Ins copied %q", own)
	}
	if !strings.Contains(wd.status(), "40 lines copied") {
		t.Errorf("status bar: %q", wd.status())
	}
	// PgUp moves by a screen less a row; Shift-PgDn selects back down.
	convH := onUI(wd.harness, func() int { return wd.w.convH })
	wd.press(tcell.KeyPgUp)
	want := "line " + itoa(36-(convH-1))
	if got := wd.selectedRows(); len(got) != 1 || got[0] != want {
		t.Fatalf("PgUp: cursor bar on %q, want %q", got, want)
	}
	wd.key(tcell.KeyPgDn, tcell.ModShift)
	if got := wd.selectedRows(); len(got) != convH {
		t.Fatalf("Shift-PgDn selected %d rows, want %d: %q", len(got), convH, got)
	}
	wd.press(tcell.KeyHome)
	if got := wd.selectedRows(); len(got) != 1 || got[0] != "You" {
		t.Fatalf("Home: cursor bar on %q, want the first row", got)
	}
	// A label is furniture: copied alone, it is its own text.
	wd.ctrl('c')
	if own, _ := wd.clipboard(); own != "You" || !strings.Contains(wd.status(), "1 line copied") {
		t.Errorf("copying the label: %q, status %q", own, wd.status())
	}
	wd.key(tcell.KeyEnd, tcell.ModShift)
	wd.ctrl('c')
	if own, _ := wd.clipboard(); !strings.HasPrefix(own, "lines 40\n\nline 1\n") || strings.Contains(own, "Alice") || strings.Contains(own, "You") {
		t.Errorf("a selection of everything copied %q: labels must be left out", own)
	}
	wd.press(tcell.KeyEnd)
	if got := wd.selectedRows(); len(got) != 1 || got[0] != "line 40" {
		t.Fatalf("End: cursor bar on %q", got)
	}
}

func TestWheelScrollsWithoutMovingTheCursor(t *testing.T) {
	t.Parallel()
	wd := newWorld(t)
	wd.send("lines 40")
	wd.turnEnded()
	wd.press(tcell.KeyTab)
	for range 10 {
		wd.injectKey(tcell.KeyUp, 0, tcell.ModNone)
	}
	wd.sync()
	x, y := wd.find("line 30")
	wd.mouse(x, y, tcell.WheelUp, tcell.ModNone)
	if _, y2 := wd.find("line 30"); y2 != y+3 {
		t.Fatalf("after a wheel step up, line 30 is on row %d, was %d: want three rows lower", y2, y)
	}
	if got := wd.selectedRows(); len(got) != 1 || got[0] != "line 30" {
		t.Fatalf("the wheel moved the cursor: %q", got)
	}
	wd.mouse(x, y, tcell.WheelDown, tcell.ModNone)
	if _, y3 := wd.find("line 30"); y3 != y {
		t.Fatalf("after a wheel step down, line 30 is on row %d, want %d", y3, y)
	}
}

func TestMouseSelection(t *testing.T) {
	t.Parallel()
	wd := newWorld(t)
	wd.send("lines 40")
	wd.turnEnded()
	// A click in the conversation focuses it and places the cursor.
	wd.click("line 30", tcell.ModNone)
	if got := wd.selectedRows(); len(got) != 1 || got[0] != "line 30" {
		t.Fatalf("click: cursor bar on %q", got)
	}
	// Drag with button 1 from line 31 to line 33.
	x, y := wd.find("line 31")
	wd.mouse(x, y, tcell.Button1, tcell.ModNone)
	wd.mouse(x, y+1, tcell.Button1, tcell.ModNone)
	wd.mouse(x, y+2, tcell.Button1, tcell.ModNone)
	wd.mouse(x, y+2, tcell.ButtonNone, tcell.ModNone)
	if got := wd.selectedRows(); strings.Join(got, ",") != "line 31,line 32,line 33" {
		t.Fatalf("drag selected %q", got)
	}
	wd.ctrl('c')
	if own, _ := wd.clipboard(); own != "line 31\nline 32\nline 33" {
		t.Fatalf("copied %q", own)
	}
	// Shift-click extends the selection to where it clicks.
	wd.click("line 35", tcell.ModShift)
	if got := wd.selectedRows(); strings.Join(got, ",") != "line 31,line 32,line 33,line 34,line 35" {
		t.Fatalf("Shift-click selected %q", got)
	}
	// A click in the input gives it the focus and places its cursor.
	wd.typeText("abcdef")
	if got := onUI(wd.harness, func() area { return wd.w.focus }); got != areaInput {
		t.Fatal("typing did not go to the input")
	}
	x, y = wd.find("abcdef")
	wd.press(tcell.KeyTab)
	wd.mouse(x+2, y, tcell.Button1, tcell.ModNone)
	wd.mouse(x+2, y, tcell.ButtonNone, tcell.ModNone)
	if text, cur := wd.input(); text != "abcdef" || cur != 2 {
		t.Fatalf("click in the input: %q cursor %d", text, cur)
	}
}

func TestCopyRegions(t *testing.T) {
	t.Parallel()
	wd := newWorld(t)
	wd.send("hello")
	wd.turnEnded()
	// The code block: its code flush left, without the fences.
	wd.click("def greet", tcell.ModNone)
	wd.ctrl('c')
	own, system := wd.clipboard()
	if want := "def greet(name):\n    return \"hi \" + name"; own != want || system != want {
		t.Fatalf("copied %q (system %q), want %q", own, system, want)
	}
	if !strings.Contains(wd.status(), "2 lines copied") {
		t.Errorf("status bar: %q", wd.status())
	}
	// A prose passage.
	wd.click("That is all", tcell.ModNone)
	wd.ctrl('c')
	if own, _ := wd.clipboard(); own != "That is all." {
		t.Fatalf("copied %q", own)
	}
	// A blank row copies nothing, and says so.
	wd.do(func() { wd.app.SetClipboard("kept") })
	_, y := wd.find("That is all")
	wd.mouse(3, y-1, tcell.Button1, tcell.ModNone)
	wd.mouse(3, y-1, tcell.ButtonNone, tcell.ModNone)
	wd.ctrl('c')
	if own, _ := wd.clipboard(); own != "kept" || !strings.Contains(wd.status(), "Nothing to copy") {
		t.Fatalf("copying a blank row: clipboard %q, status %q", own, wd.status())
	}
}

func TestWideCharactersWrap(t *testing.T) {
	t.Parallel()
	wd := newWorld(t, withSize(40, 16))
	wd.send("wide")
	wd.turnEnded()
	wd.golden("wide")
	// No row is cut inside a wide character, and every row stays in the window.
	for _, row := range wd.rows() {
		if w := window.TextWidth(row); w > 40 {
			t.Errorf("row %q is %d cells wide", row, w)
		}
	}
	text := wd.text()
	for _, s := range []string{"漢字かな交じり文", "🙂🙂"} {
		if !strings.Contains(strings.ReplaceAll(text, "\n", ""), s) && !strings.Contains(text, s) {
			t.Errorf("%q is not on the screen whole:\n%s", s, text)
		}
	}
}
