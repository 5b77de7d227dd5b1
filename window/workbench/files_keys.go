package workbench

import (
	"git.rickub.com/bots-garden/sidekicks/window"
)

// HandleEvent handles the Files window's keys: the tree's or the viewer's moves (Tab
// switches), and the actions, which work in both.
func (f *Files) HandleEvent(ev window.Event) bool {
	switch ev := ev.(type) {
	case window.Key:
		f.msg = ""
		if f.actionKey(ev) {
			return true
		}
		if ev.Is(window.Named(window.KeyTab, 0)) || ev.Is(window.Named(window.KeyBacktab, 0)) {
			f.inView = !f.inView
			return true
		}
		if f.inView {
			return f.viewKey(ev)
		}
		return f.treeKey(ev)
	case window.Mouse:
		return f.mouse(ev)
	}
	return false
}

// actionKey runs the actions' keys.
func (f *Files) actionKey(k window.Key) bool {
	switch {
	case k.Is(window.Ctrl('r')):
		f.refresh()
	case k.IsRune('n'):
		f.newEntry(false)
	case k.IsRune('N'):
		f.newEntry(true)
	case k.IsRune('r'), k.Is(window.Named(window.KeyF2, 0)):
		f.rename()
	case k.Is(window.Named(window.KeyDelete, 0)):
		f.delete()
	case k.IsRune('e'):
		f.edit()
	case k.IsRune('E'):
		f.editExternal()
	default:
		return false
	}
	return true
}

// treeKey moves in the tree, opens and closes folders.
func (f *Files) treeKey(k window.Key) bool {
	page := max(f.treeH-1, 1)
	r, ok := f.current()
	switch {
	case k.Is(window.Named(window.KeyUp, 0)):
		f.move(-1)
	case k.Is(window.Named(window.KeyDown, 0)):
		f.move(1)
	case k.Is(window.Named(window.KeyPgUp, 0)):
		f.move(-page)
	case k.Is(window.Named(window.KeyPgDn, 0)):
		f.move(page)
	case k.Is(window.Named(window.KeyHome, 0)):
		f.move(-len(f.rows))
	case k.Is(window.Named(window.KeyEnd, 0)):
		f.move(len(f.rows))
	case !ok:
		return false
	case k.Is(window.Named(window.KeyEnter, 0)):
		if r.info.Dir {
			f.setOpen(r, !f.isOpen(r))
		} else {
			f.inView = true
		}
	case k.Is(window.Named(window.KeyRight, 0)):
		switch {
		case r.info.Dir && !f.isOpen(r):
			f.setOpen(r, true)
		case r.info.Dir:
			f.move(1)
		default:
			f.inView = true
		}
	case k.Is(window.Named(window.KeyLeft, 0)):
		if r.info.Dir && f.isOpen(r) && r.info.Path != rootPath {
			f.setOpen(r, false)
		} else {
			f.Select(parentOf(r.info.Path))
		}
	default:
		return false
	}
	return true
}

func (f *Files) isOpen(r treeRow) bool {
	d := f.tree.folders[r.info.Path]
	return d != nil && d.open
}

// setOpen opens a folder (listing it again) or closes it.
func (f *Files) setOpen(r treeRow, open bool) {
	if r.info.Path == rootPath {
		return
	}
	f.tree.folder(r.info.Path).open = open
	if open {
		f.listFolder(r.info.Path)
	}
	f.rebuild()
}

// viewKey scrolls the viewer; Esc goes back to the tree.
func (f *Files) viewKey(k window.Key) bool {
	v := f.view
	if k.Is(window.Named(window.KeyEsc, 0)) {
		f.inView = false
		return true
	}
	if v == nil {
		return false
	}
	page := max(v.height-1, 1)
	switch {
	case k.Is(window.Named(window.KeyUp, 0)):
		v.top--
	case k.Is(window.Named(window.KeyDown, 0)):
		v.top++
	case k.Is(window.Named(window.KeyPgUp, 0)):
		v.top -= page
	case k.Is(window.Named(window.KeyPgDn, 0)):
		v.top += page
	case k.Is(window.Named(window.KeyHome, 0)):
		v.top, v.left = 0, 0
	case k.Is(window.Named(window.KeyEnd, 0)):
		v.top = len(v.lines)
	case k.Is(window.Named(window.KeyLeft, 0)):
		v.left = max(v.left-8, 0)
	case k.Is(window.Named(window.KeyRight, 0)):
		v.left += 8
	default:
		return false
	}
	v.clamp()
	return true
}

// clamp keeps the viewer's scroll within its lines.
func (v *fileView) clamp() {
	rows := len(v.lines)
	if v.notice != "" {
		rows++
	}
	v.top = max(min(v.top, rows-v.height), 0)
	v.left = max(v.left, 0)
}

// mouse: a click in the tree highlights (a second click on a folder opens or closes it),
// a click in the viewer gives it the keys; the wheel scrolls what is under it.
func (f *Files) mouse(m window.Mouse) bool {
	inTree := m.X < f.treeWidth()
	switch m.Action {
	case window.MouseWheelUp, window.MouseWheelDown:
		d := 3
		if m.Action == window.MouseWheelUp {
			d = -3
		}
		if inTree {
			f.offset = max(min(f.offset+d, len(f.rows)-f.treeH), 0)
		} else if f.view != nil {
			f.view.top += d
			f.view.clamp()
		}
		return true
	case window.MousePress:
		f.msg = ""
		if !inTree {
			f.inView = true
			return true
		}
		f.inView = false
		i := f.offset + m.Y
		if m.Y >= f.treeH || i >= len(f.rows) {
			return true
		}
		if i == f.sel && f.rows[i].info.Dir {
			f.setOpen(f.rows[i], !f.isOpen(f.rows[i]))
			return true
		}
		f.sel = i
		f.follow()
		return true
	}
	return false
}

// Hints returns the window's keys for the status bar.
func (f *Files) Hints() []window.Hint {
	lang := langOf(f.app)
	return []window.Hint{
		{Keys: "Tab", Text: catalogue.Text(lang, tHintSwitch)},
		{Keys: "n", Text: catalogue.Text(lang, tHintNewFile)},
		{Keys: "N", Text: catalogue.Text(lang, tHintNewFolder)},
		{Keys: "r", Text: catalogue.Text(lang, tHintRename)},
		{Keys: "Del", Text: catalogue.Text(lang, tHintDelete)},
		{Keys: "e", Text: catalogue.Text(lang, tHintEdit)},
		{Keys: "E", Text: catalogue.Text(lang, tHintExternal)},
		{Keys: "Ctrl-R", Text: catalogue.Text(lang, tHintRefresh)},
	}
}
