package wizard

import "git.rickub.com/bots-garden/sidekicks/window"

// move takes the focus to the next (+1) or previous (-1) field or button, around.
func (f *form) move(delta int) {
	ids := f.shown()
	n := len(ids) + len(f.buttons.labels)
	pos := len(ids) + f.button
	if f.button < 0 {
		pos = 0
		for i, id := range ids {
			if id == f.field {
				pos = i
			}
		}
	}
	pos = (pos + delta + n) % n
	if pos < len(ids) {
		f.field, f.button = ids[pos], -1
	} else {
		f.button = pos - len(ids)
	}
}

// formAction is what a key asks of the wizard.
type formAction int

const (
	formNothing formAction = iota
	formPreview
	formCancel
)

func (f *form) handleEvent(ev window.Event) (bool, formAction) {
	switch ev := ev.(type) {
	case window.Key:
		return f.key(ev)
	case window.Paste:
		if f.button < 0 && f.field != fWhere {
			return f.inputs[f.field].HandleEvent(ev), formNothing
		}
		return false, formNothing
	case window.Mouse:
		return f.mouse(ev)
	}
	return false, formNothing
}

func (f *form) key(k window.Key) (bool, formAction) {
	switch {
	case k.Is(window.Named(window.KeyTab, 0)) || k.Is(window.Named(window.KeyDown, 0)):
		f.move(1)
	case k.Is(window.Named(window.KeyBacktab, 0)) || k.Is(window.Named(window.KeyUp, 0)):
		f.move(-1)
	case k.Is(window.Named(window.KeyEnter, 0)):
		if f.button == 1 {
			return true, formCancel
		}
		return true, formPreview
	case f.button >= 0:
		switch {
		case k.Is(window.Named(window.KeyLeft, 0)):
			f.button = (f.button + len(f.buttons.labels) - 1) % len(f.buttons.labels)
		case k.Is(window.Named(window.KeyRight, 0)):
			f.button = (f.button + 1) % len(f.buttons.labels)
		case k.Code == window.KeyRune && k.Mod&(window.ModCtrl|window.ModAlt) == 0:
			switch f.buttons.letter(k.Rune) {
			case 0:
				return true, formPreview
			case 1:
				return true, formCancel
			}
		default:
			return false, formNothing
		}
	case f.field == fWhere:
		switch {
		case k.Is(window.Named(window.KeyLeft, 0)):
			f.where = (f.where + len(places) - 1) % len(places)
		case k.Is(window.Named(window.KeyRight, 0)) || k.IsRune(' '):
			f.where = (f.where + 1) % len(places)
		default:
			return false, formNothing
		}
	default:
		return f.inputs[f.field].HandleEvent(k), formNothing
	}
	return true, formNothing
}

func (f *form) mouse(m window.Mouse) (bool, formAction) {
	ids := f.shown()
	switch m.Action {
	case window.MouseWheelUp, window.MouseWheelDown:
		step := 3
		if m.Action == window.MouseWheelUp {
			step = -3
		}
		f.top = max(min(f.top+step, len(ids)-f.rows), 0)
		return true, formNothing
	case window.MousePress:
	default:
		return false, formNothing
	}
	if b := f.buttons.at(m.X, m.Y); b >= 0 {
		f.button = b
		if b == 0 {
			return true, formPreview
		}
		return true, formCancel
	}
	i := f.top + m.Y
	if m.Y < 0 || m.Y >= f.rows || i >= len(ids) {
		return false, formNothing
	}
	f.field, f.button = ids[i], -1
	if f.field == fWhere {
		if m.X >= f.labelW {
			f.where = (f.where + 1) % len(places)
		}
		return true, formNothing
	}
	if m.X >= f.labelW {
		f.inputs[f.field].HandleEvent(window.Mouse{X: m.X - f.labelW, Y: 0, Action: m.Action})
	}
	return true, formNothing
}

func (f *form) hints() []window.Hint {
	previewText, _ := window.SplitMnemonic(catalogue.Text(f.lang, tPreview))
	hs := []window.Hint{
		{Keys: "Tab", Text: catalogue.Text(f.lang, tHintNextField)},
		{Keys: "Enter", Text: previewText},
	}
	if f.button < 0 && f.field == fWhere {
		hs = append(hs, window.Hint{Keys: "←→", Text: catalogue.Text(f.lang, tHintChange)})
	}
	return hs
}
