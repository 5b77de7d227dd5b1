package window_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	. "git.rickub.com/bots-garden/sidekicks/window"
)

// appHandlers records which default-menu callbacks ran.
type appHandlers struct {
	ran      []string
	channels []string
	current  string
	busy     bool
}

func (r *appHandlers) handlers() MenuHandlers {
	note := func(s string) func() { return func() { r.ran = append(r.ran, s) } }
	return MenuHandlers{
		OpenConfig:  note("open-config"),
		RecentFiles: func() []string { return []string{"/home/me/a.yaml", "/home/me/b.yaml"} },
		OpenRecent:  func(p string) { r.ran = append(r.ran, "recent "+p) },
		Reload:      note("reload"),
		Quit:        note("quit"),
		Channels:    func() []string { return r.channels },
		OpenChannel: func(n string) { r.ran = append(r.ran, "channel "+n) },
		NewChannel: func(n string) string {
			for _, c := range r.channels {
				if strings.EqualFold(c, n) {
					return "The channel " + n + " exists."
				}
			}
			r.channels = append(r.channels, n)
			r.ran = append(r.ran, "new "+n)
			return ""
		},
		CurrentChannel: func() string { return r.current },
		RenameChannel: func(o, n string) string {
			r.ran = append(r.ran, "rename "+o+" "+n)
			return ""
		},
		DeleteChannel: func(n string) { r.ran = append(r.ran, "delete "+n) },
		Agents: func() []AgentEntry {
			return []AgentEntry{{Name: "alice", Title: "Alice", Icon: "🤖"}, {Name: "bob"}}
		},
		OpenAgent:   func(n string) { r.ran = append(r.ran, "agent "+n) },
		CanCancel:   func() bool { return r.busy },
		CancelTurn:  note("cancel"),
		AgentStatus: note("status"),
	}
}

func (r *appHandlers) last() string {
	if len(r.ran) == 0 {
		return ""
	}
	return r.ran[len(r.ran)-1]
}

func menuHarness(t *testing.T, opts ...harnessOption) (*harness, *appHandlers) {
	h := newHarness(t, 80, 24, opts...)
	rec := &appHandlers{channels: []string{"general", "ops"}, current: "general"}
	h.do(func() { h.app.SetMenus(h.app.DefaultMenus(rec.handlers())) })
	h.addWindows(2)
	return h, rec
}

func menuOpen(h *harness) (bool, int) {
	return onUI(h, func() bool { open, _ := MenuState(h.app); return open }), onUI(h, func() int { _, i := MenuState(h.app); return i })
}

func TestMenuKeys(t *testing.T) {
	h, rec := menuHarness(t)
	h.alt('a')
	if open, i := menuOpen(h); !open || i != 2 {
		t.Fatalf("Alt-A: open %v menu %d, want the Agent menu", open, i)
	}
	h.golden("menu-agent")
	if !strings.Contains(h.text(), "🤖 Alice") || !strings.Contains(h.text(), "bob") {
		t.Fatalf("agents missing from the Agent menu:\n%s", h.text())
	}
	// Cancel turn is disabled while nothing runs: Down skips it.
	h.press(tcell.KeyDown)
	h.press(tcell.KeyDown)
	h.press(tcell.KeyEnter)
	if rec.last() != "status" {
		t.Fatalf("Down, Down, Enter ran %q, want the agent status", rec.last())
	}
	if open, _ := menuOpen(h); open {
		t.Fatal("the menu stayed open after running an entry")
	}
	// F10 opens the first menu; Right moves to the next; a letter runs an entry.
	h.press(tcell.KeyF10)
	if open, i := menuOpen(h); !open || i != 0 {
		t.Fatalf("F10: open %v menu %d", open, i)
	}
	h.press(tcell.KeyLeft)
	if _, i := menuOpen(h); i != 4 {
		t.Errorf("Left from the first menu: %d, want the last", i)
	}
	h.press(tcell.KeyRight)
	h.press(tcell.KeyRight)
	h.typeText("n")
	if len(onUI(h, func() []*Dialog { return Dialogs(h.app) })) != 1 {
		t.Fatal("Channels ▸ N did not open the new-channel dialog")
	}
	h.typeText("design")
	h.press(tcell.KeyEnter)
	if rec.last() != "new design" {
		t.Errorf("new channel: %q", rec.last())
	}
	// Esc closes a menu without running anything.
	h.alt('s')
	h.press(tcell.KeyEsc)
	if open, _ := menuOpen(h); open || rec.last() != "new design" {
		t.Errorf("Esc: open %v, ran %q", open, rec.last())
	}
	// Alt-X runs Quit from anywhere, without opening the menu.
	h.alt('x')
	if rec.last() != "quit" {
		t.Errorf("Alt-X ran %q", rec.last())
	}
	// Alt with a menu's letter while another menu is open switches to it.
	h.alt('w')
	h.alt('h')
	if _, i := menuOpen(h); i != 4 {
		t.Errorf("Alt-H in the Window menu: menu %d", i)
	}
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

func TestMenuMouse(t *testing.T) {
	h, rec := menuHarness(t)
	// Click on "Sidekicks", then on "Reload configuration".
	h.click(3, 0)
	if open, i := menuOpen(h); !open || i != 0 {
		t.Fatalf("click on the first title: open %v menu %d", open, i)
	}
	h.golden("menu-sidekicks")
	y := -1
	for i, line := range strings.Split(h.text(), "\n") {
		if strings.Contains(line, "Reload configuration") {
			y = i
		}
	}
	if y < 0 {
		t.Fatal("no Reload entry on screen")
	}
	h.click(4, y)
	if rec.last() != "reload" {
		t.Errorf("clicking Reload ran %q", rec.last())
	}
	// A click outside closes the menu and does nothing else.
	h.click(14, 0)
	h.click(60, 15)
	if open, _ := menuOpen(h); open || focused(h) != 2 {
		t.Errorf("click outside: menu open %v, focus %d", open, focused(h))
	}
}

func TestMenuChannelsDeleteAndRename(t *testing.T) {
	h, rec := menuHarness(t)
	h.alt('c')
	h.golden("menu-channels")
	h.typeText("d")
	if !strings.Contains(h.text(), `Delete the channel "general" and its history?`) {
		t.Fatalf("no confirmation:\n%s", h.text())
	}
	h.press(tcell.KeyEnter) // No has the focus
	if rec.last() == "delete general" {
		t.Fatal("Enter alone deleted the channel")
	}
	h.alt('c')
	h.typeText("d")
	h.typeText("y")
	if rec.last() != "delete general" {
		t.Errorf("Y did not delete: %q", rec.last())
	}
	h.alt('c')
	h.typeText("r")
	h.key(tcell.KeyCtrlU, 'u', tcell.ModCtrl)
	h.typeText("main")
	h.press(tcell.KeyEnter)
	if rec.last() != "rename general main" {
		t.Errorf("rename: %q", rec.last())
	}
	// Without a current channel, rename and delete are disabled.
	rec.current = ""
	h.alt('c')
	h.typeText("d")
	if n := len(onUI(h, func() []*Dialog { return Dialogs(h.app) })); n != 0 {
		t.Error("delete ran with no current channel")
	}
	h.press(tcell.KeyEsc)
	// A channel entry opens it.
	h.alt('c')
	h.press(tcell.KeyDown)
	h.press(tcell.KeyEnter)
	if rec.last() != "channel ops" {
		t.Errorf("second channel entry ran %q", rec.last())
	}
}

func TestMenuRecentFiles(t *testing.T) {
	h, rec := menuHarness(t)
	h.alt('s')
	h.typeText("r")
	h.typeText("b.y")
	h.press(tcell.KeyEnter)
	if rec.last() != "recent /home/me/b.yaml" {
		t.Errorf("recent file: %q", rec.last())
	}
}

func TestMenusFrench(t *testing.T) {
	h, rec := menuHarness(t, withLanguage(French))
	if !strings.Contains(h.row(0), "Canaux") || !strings.Contains(h.row(0), "Fenêtre") || !strings.Contains(h.row(0), "Aide") {
		t.Fatalf("menu bar not in French: %q", h.row(0))
	}
	h.alt('f') // Fenêtre
	h.golden("menu-window-fr")
	h.typeText("g") // Agrandir
	if !onUI(h, h.app.Maximised) {
		t.Error("Fenêtre ▸ Agrandir did not maximise")
	}
	h.alt('c')
	h.typeText("s")
	if !strings.Contains(h.text(), "Supprimer le canal") || !strings.Contains(h.text(), "[ Oui ]") {
		t.Fatalf("French confirmation missing:\n%s", h.text())
	}
	h.typeText("o")
	if rec.last() != "delete general" {
		t.Errorf("O (Oui) did not confirm: %q", rec.last())
	}
}

func TestLongMenuScrolls(t *testing.T) {
	h := newHarness(t, 80, 12)
	var ran string
	h.do(func() {
		h.app.SetMenus(h.app.DefaultMenus(MenuHandlers{
			Agents: func() []AgentEntry {
				var a []AgentEntry
				for i := 0; i < 20; i++ {
					a = append(a, AgentEntry{Name: fmt.Sprintf("agent%02d", i)})
				}
				return a
			},
			OpenAgent: func(n string) { ran = n },
		}))
	})
	h.alt('a')
	for i := 0; i < 15; i++ {
		h.press(tcell.KeyDown)
	}
	if !strings.Contains(h.text(), "agent15") || strings.Contains(h.text(), "agent00") {
		t.Fatalf("the highlighted entry is not in view:\n%s", h.text())
	}
	y, x := findOnScreen(h, "agent14")
	h.click(x, y)
	if onUI(h, func() string { return ran }) != "agent14" {
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
