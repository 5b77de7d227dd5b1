package window

import "unicode"

// Menu is one menu of the menu bar. Its entries are computed each time it opens, so a
// list that changes (of documents, of windows) is always current.
type Menu struct {
	// Label is the title of a menu of the toolkit's (Window, Help), from its catalogue;
	// its marked letter opens the menu with Alt.
	Label Label
	// Title is the title of a menu of the application's, used when Label is 0: it returns
	// the text in the App's language, its mnemonic letter between tildes ("~F~ile"). It is
	// asked at each frame, so the title follows SetLanguage.
	Title func() string
	// Items returns the entries.
	Items func() []MenuItem
}

// MenuItem is one entry of a menu.
type MenuItem struct {
	// Label is the entry's text from the toolkit's catalogue, its mnemonic marked there.
	Label Label
	// Marked is the entry's text from the application, used when Label is 0, in the App's
	// language, its mnemonic letter between tildes ("~N~ew…").
	Marked string
	// Text is shown as it is, with no mnemonic (a name the user chose), when Label is 0 and
	// Marked is "".
	Text string
	// Shortcut is shown on the right, and pressing it anywhere runs the entry.
	Shortcut *Key
	// Enabled says whether the entry can run now; nil means always.
	Enabled func() bool
	// Action runs on the UI goroutine once the menu has closed.
	Action func()
	// Separator makes the entry a line between groups.
	Separator bool
}

// SetMenus replaces the menu bar.
func (a *App) SetMenus(menus []*Menu) {
	a.menus = menus
	a.menu = menuState{}
	a.markDirty()
}

// OpenMenu returns the index in the bar of the menu open, and false when none is.
func (a *App) OpenMenu() (index int, open bool) { return a.menu.index, a.menu.open }

// menuState is the open menu, if any.
type menuState struct {
	open  bool
	index int        // which menu
	item  int        // the highlighted entry
	items []MenuItem // the entries, computed when it opened
	top   int        // the first entry shown, when they do not all fit
	box   Rect       // where the drop-down was drawn
	bar   []Rect     // where each title of the bar was drawn
}

func (it MenuItem) enabled() bool {
	return !it.Separator && it.Action != nil && (it.Enabled == nil || it.Enabled())
}

// text returns the entry's text, the byte offset of its mnemonic and the mnemonic (-1 and
// 0 without one).
func (it MenuItem) text(l Labels) (string, int, rune) {
	switch {
	case it.Label != labelNone:
		return splitMnemonic(catalogue.Text(l.lang, it.Label))
	case it.Marked != "":
		return splitMnemonic(it.Marked)
	}
	return it.Text, -1, 0
}

// raw returns the menu's title, its mnemonic marked.
func (m *Menu) raw(l Labels) string {
	if m.Label == labelNone && m.Title != nil {
		return m.Title()
	}
	return catalogue.Text(l.lang, m.Label)
}

// openMenu opens menu i with its first runnable entry highlighted.
func (a *App) openMenu(i int) {
	if len(a.menus) == 0 {
		return
	}
	i = (i%len(a.menus) + len(a.menus)) % len(a.menus)
	var items []MenuItem
	if a.menus[i].Items != nil {
		items = a.menus[i].Items()
	}
	a.menu = menuState{open: true, index: i, item: -1, items: items, bar: a.menu.bar}
	a.moveMenuItem(1)
	a.markDirty()
}

func (a *App) closeMenu() {
	a.menu.open = false
	a.menu.items = nil
	a.markDirty()
}

// moveMenuItem highlights the next runnable entry in direction d, wrapping around.
func (a *App) moveMenuItem(d int) {
	n := len(a.menu.items)
	for step := 1; step <= n; step++ {
		i := ((a.menu.item+d*step)%n + n) % n
		if a.menu.items[i].enabled() {
			a.menu.item = i
			return
		}
	}
}

// runMenuItem closes the menu and runs entry i if it can run.
func (a *App) runMenuItem(i int) {
	if i < 0 || i >= len(a.menu.items) || !a.menu.items[i].enabled() {
		return
	}
	action := a.menu.items[i].Action
	a.closeMenu()
	action()
}

// menuMnemonic returns the menu of the bar whose letter is r.
func (a *App) menuMnemonic(r rune) (int, bool) {
	for i, m := range a.menus {
		if _, _, letter := splitMnemonic(m.raw(a.labels)); letter != 0 && sameLetter(letter, r) {
			return i, true
		}
	}
	return 0, false
}

func sameLetter(a, b rune) bool { return unicode.ToLower(a) == unicode.ToLower(b) }

// menuKey handles a key while a menu is open; every key is the menu's, but those that
// move between windows.
func (a *App) menuKey(k Key) {
	if _, digit := k.WindowDigit(); digit || k.Code == KeyF6 {
		// Moving between windows always works: it closes the menu.
		a.closeMenu()
		a.globalKey(k)
		return
	}
	switch {
	case k.Is(Named(KeyEsc, 0)) || k.Is(Named(KeyF10, 0)):
		a.closeMenu()
	case k.Is(Named(KeyLeft, 0)):
		a.openMenu(a.menu.index - 1)
	case k.Is(Named(KeyRight, 0)):
		a.openMenu(a.menu.index + 1)
	case k.Is(Named(KeyUp, 0)):
		a.moveMenuItem(-1)
	case k.Is(Named(KeyDown, 0)):
		a.moveMenuItem(1)
	case k.Is(Named(KeyHome, 0)):
		a.menu.item = -1
		a.moveMenuItem(1)
	case k.Is(Named(KeyEnd, 0)):
		a.menu.item = 0
		a.moveMenuItem(-1)
	case k.Is(Named(KeyEnter, 0)):
		a.runMenuItem(a.menu.item)
	case k.Code == KeyRune && k.Mod&^ModShift == ModAlt:
		if i, ok := a.menuMnemonic(k.Rune); ok {
			a.openMenu(i)
		} else {
			a.runMnemonic(k.Rune)
		}
	case k.Code == KeyRune && k.Mod&^ModShift == 0:
		a.runMnemonic(k.Rune)
	}
	a.markDirty()
}

// runMnemonic runs the open menu's entry whose letter is r.
func (a *App) runMnemonic(r rune) {
	for i, it := range a.menu.items {
		if _, _, letter := it.text(a.labels); letter != 0 && sameLetter(letter, r) {
			a.runMenuItem(i)
			return
		}
	}
}

// shortcut runs the menu entry whose shortcut is k, if it can run.
func (a *App) shortcut(k Key) bool {
	if k.Mod&(ModAlt|ModCtrl) == 0 && (k.Code < KeyF1 || k.Code > KeyF12) {
		return false // only Alt, Ctrl and F-keys are shortcuts
	}
	for _, m := range a.menus {
		if m.Items == nil {
			continue
		}
		for _, it := range m.Items() {
			if it.Shortcut != nil && k.Is(*it.Shortcut) {
				if it.enabled() {
					it.Action()
				}
				return true
			}
		}
	}
	return false
}
