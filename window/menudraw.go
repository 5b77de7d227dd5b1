package window

import "github.com/gdamore/tcell/v2"

// drawMenuBar draws the titles of the menus on the top row, the open one highlighted,
// each with its letter in the mnemonic colour.
func (a *App) drawMenuBar(r Region) {
	W, _ := r.Size()
	a.menu.bar = a.menu.bar[:0]
	x := 1
	r.spaces(0, 0, 1, r.style(ClassMenuBar))
	for i, m := range a.menus {
		text, at, _ := splitMnemonic(m.raw(a.labels))
		selected := a.menu.open && a.menu.index == i
		base, mn := ClassMenuBar, ClassMenuMnemonic
		if selected {
			base, mn = ClassMenuSelected, ClassMenuMnemonicSelected
		}
		start := x
		x += r.text(x, 0, " ", r.style(base))
		x += drawMnemonic(r, x, 0, text, at, r.style(base), r.style(mn))
		x += r.text(x, 0, " ", r.style(base))
		a.menu.bar = append(a.menu.bar, Rect{start, 0, x - start, 1})
		if i < len(a.menus)-1 {
			x += r.text(x, 0, " ", r.style(ClassMenuBar))
		}
	}
	r.spaces(x, 0, W-x, r.style(ClassMenuBar))
}

// drawMnemonic draws text with the letter at byte offset at in style mn; it returns the
// width drawn.
func drawMnemonic(r Region, x, y int, text string, at int, base, mn tcell.Style) int {
	if at < 0 || at >= len(text) {
		return r.text(x, y, text, base)
	}
	_, _, rest := nextCluster(text[at:])
	end := len(text) - len(rest)
	n := r.text(x, y, text[:at], base)
	n += r.text(x+n, y, text[at:end], mn)
	n += r.text(x+n, y, text[end:], base)
	return n
}

// drawMenu draws the open menu's drop-down under its title.
func (a *App) drawMenu(screen Region) {
	if !a.menu.open || a.menu.index >= len(a.menu.bar) {
		a.menu.box = Rect{}
		return
	}
	SW, SH := screen.Size()
	labelW, keyW := 0, 0
	for _, it := range a.menu.items {
		text, _, _ := it.text(a.labels)
		labelW = max(labelW, TextWidth(text))
		if it.Shortcut != nil {
			keyW = max(keyW, TextWidth(it.Shortcut.String()))
		}
	}
	inner := labelW + 2
	if keyW > 0 {
		inner += keyW + 2
	}
	w, h := min(inner+2, SW), min(len(a.menu.items)+2, SH-2)
	x := min(a.menu.bar[a.menu.index].X, SW-w)
	box := Rect{max(x, 0), 1, w, h}
	a.menu.box = box
	r := screen.Sub(box.X, box.Y, box.W, box.H)
	fs := r.style(ClassMenuItem)
	drawBox(r, singleBox, fs)
	rows := h - 2
	if a.menu.item >= 0 && a.menu.item < a.menu.top {
		a.menu.top = a.menu.item
	}
	if a.menu.item >= a.menu.top+rows {
		a.menu.top = a.menu.item - rows + 1
	}
	a.menu.top = max(min(a.menu.top, len(a.menu.items)-rows), 0)
	for i, it := range a.menu.items[a.menu.top:] {
		y := i + 1
		if y >= h-1 {
			break
		}
		i += a.menu.top
		if it.Separator {
			r.put(0, y, "├", fs)
			for x := 1; x < w-1; x++ {
				r.put(x, y, "─", fs)
			}
			r.put(w-1, y, "┤", fs)
			continue
		}
		base, mn := ClassMenuItem, ClassMenuMnemonic
		switch {
		case !it.enabled():
			base, mn = ClassMenuDisabled, ClassMenuDisabled
		case i == a.menu.item:
			base, mn = ClassMenuSelected, ClassMenuMnemonicSelected
		}
		bs := r.style(base)
		text, at, _ := it.text(a.labels)
		row := r.Sub(1, y, w-2, 1)
		n := row.text(0, 0, " ", bs)
		n += drawMnemonic(row, n, 0, text, at, bs, r.style(mn))
		key := ""
		if it.Shortcut != nil {
			key = it.Shortcut.String()
		}
		kx := max(w-2-1-TextWidth(key), n)
		row.spaces(n, 0, kx-n, bs)
		n = kx + row.text(kx, 0, key, bs)
		row.spaces(n, 0, w-2-n, bs)
	}
}

// drawBox draws a box around the edge of r; its inside is left to the caller.
func drawBox(r Region, box boxChars, st tcell.Style) {
	W, H := r.Size()
	if W < 2 || H < 2 {
		return
	}
	r.put(0, 0, box.tl, st)
	for x := 1; x < W-1; x++ {
		r.put(x, 0, box.h, st)
	}
	r.put(W-1, 0, box.tr, st)
	for y := 1; y < H-1; y++ {
		r.put(0, y, box.v, st)
		r.put(W-1, y, box.v, st)
	}
	r.put(0, H-1, box.bl, st)
	for x := 1; x < W-1; x++ {
		r.put(x, H-1, box.h, st)
	}
	r.put(W-1, H-1, box.br, st)
}

// menuItemAt returns the entry of the open drop-down at the screen cell (x, y).
func (a *App) menuItemAt(x, y int) (int, bool) {
	b := a.menu.box
	if !a.menu.open || !b.Contains(x, y) || x == b.X || x == b.X+b.W-1 {
		return 0, false
	}
	i := y - b.Y - 1 + a.menu.top
	if i < a.menu.top || i >= len(a.menu.items) {
		return 0, false
	}
	return i, true
}
