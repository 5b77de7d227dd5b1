package window

// Confirm asks a yes-or-no question. onResult gets true for Yes; No, Esc and Dismiss
// give false. No has the focus first, so that Enter alone never destroys anything.
func (a *App) Confirm(title, message string, onResult func(yes bool)) *Dialog {
	b := &confirmBody{message: message, buttons: buttons{labels: []Label{LabelYes, LabelNo}, focus: 1, focused: true}}
	b.done = onResult
	return a.open(title, b, func() { onResult(false) })
}

type confirmBody struct {
	message string
	rows    []string
	buttons buttons
	done    func(bool)
}

func (b *confirmBody) size(l Labels, maxW int) (int, int) {
	b.rows = wrap(b.message, maxW)
	w := b.buttons.width(l)
	for _, r := range b.rows {
		w = max(w, TextWidth(r))
	}
	return w, len(b.rows) + 2
}

func (b *confirmBody) draw(r Region, l Labels) {
	W, H := r.Size()
	bg := r.style(ClassDialog)
	for y := 0; y < H-1; y++ {
		n := 0
		if y < len(b.rows) {
			n = r.text(0, y, b.rows[y], bg)
		}
		r.spaces(n, y, W-n, bg)
	}
	b.buttons.draw(r, H-1, l)
}

func (b *confirmBody) handleEvent(d *Dialog, ev Event) bool {
	pressed := -1
	switch ev := ev.(type) {
	case Key:
		p, used := b.buttons.key(ev, d.app.labels)
		if !used {
			return false
		}
		pressed = p
	case Mouse:
		if ev.Action != MousePress {
			return false
		}
		pressed = b.buttons.at(ev.X, ev.Y)
	}
	if pressed < 0 {
		return true
	}
	d.close()
	b.done(pressed == 0)
	return true
}

func (b *confirmBody) hints() []Hint {
	return []Hint{{Keys: "←→", Label: LabelHintSwitch}, {Keys: "Enter", Label: LabelHintChoose}}
}
