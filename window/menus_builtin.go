package window

func keyPtr(k Key) *Key { return &k }

// WindowMenu returns the toolkit's Window menu, wired to the window manager: tile,
// maximise or restore, next, previous, close, and the list of windows, with their keys.
func (a *App) WindowMenu() *Menu {
	return &Menu{Label: LabelMenuWindow, Items: func() []MenuItem {
		has := func() bool { return len(a.windows) > 0 }
		several := func() bool { return len(a.windows) > 1 }
		zoom := LabelItemMaximise
		if a.maximised {
			zoom = LabelItemRestore
		}
		return []MenuItem{
			{Label: LabelItemTile, Enabled: has, Action: func() { a.SetMaximised(false) }},
			{Label: zoom, Shortcut: keyPtr(Named(KeyF5, 0)), Enabled: has, Action: func() { a.SetMaximised(!a.maximised) }},
			{Label: LabelItemNext, Shortcut: keyPtr(Named(KeyF6, 0)), Enabled: several, Action: func() { a.FocusNext(1) }},
			{Label: LabelItemPrevious, Shortcut: keyPtr(Named(KeyF6, ModShift)), Enabled: several, Action: func() { a.FocusNext(-1) }},
			{Label: LabelItemClose, Shortcut: keyPtr(Named(KeyF3, ModAlt)), Enabled: has, Action: func() { a.Focused().Close() }},
			{Label: LabelItemList, Shortcut: keyPtr(Alt('0')), Enabled: has, Action: a.ShowWindowList},
		}
	}}
}

// HelpMenu returns the toolkit's Help menu: the list of keys (F1).
func (a *App) HelpMenu() *Menu {
	return &Menu{Label: LabelMenuHelp, Items: func() []MenuItem {
		return []MenuItem{{Label: LabelItemKeys, Shortcut: keyPtr(Named(KeyF1, 0)), Action: a.ShowKeys}}
	}}
}
