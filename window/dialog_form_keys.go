package window

import (
	"strconv"
	"strings"
)

// The keys and clicks of a form (dialog_form.go): the keyboard goes from field to field,
// then to the buttons; the first button checks every field before the form closes.

func (b *formBody) handleEvent(d *Dialog, ev Event) bool {
	n := len(b.form.Fields)
	switch ev := ev.(type) {
	case Key:
		switch {
		case ev.Is(Named(KeyTab, 0)), ev.Is(Named(KeyDown, 0)) && b.focus < n:
			b.move(1)
			return true
		case ev.Is(Named(KeyBacktab, 0)), ev.Is(Named(KeyUp, 0)):
			b.move(-1)
			return true
		case ev.Is(Named(KeyEnter, 0)):
			if b.focus == n {
				b.press(d, b.button)
			} else {
				b.press(d, 0)
			}
			return true
		}
		if b.focus == n {
			switch {
			case ev.Is(Named(KeyLeft, 0)):
				b.button = max(b.button-1, 0)
			case ev.Is(Named(KeyRight, 0)):
				b.button = min(b.button+1, len(b.form.Buttons)-1)
			}
			return true
		}
		return b.fieldKey(ev)
	case Paste:
		if b.focus < n && b.form.Fields[b.focus].Kind == FormText {
			return b.inputs[b.focus].HandleEvent(ev)
		}
	case Mouse:
		if ev.Action != MousePress {
			return false
		}
		for i, s := range b.buttonSpots {
			if s.Contains(ev.X, ev.Y) {
				b.press(d, i)
				return true
			}
		}
		if f := (ev.Y + b.top - b.rows) / fieldRows; ev.Y+b.top >= b.rows && f < n {
			b.focus = f
		}
		return true
	}
	return false
}

// move moves the keyboard to the next or previous field, the button row last.
func (b *formBody) move(d int) {
	b.focus = (b.focus + d + len(b.form.Fields) + 1) % (len(b.form.Fields) + 1)
}

// fieldKey handles a key in the focused field.
func (b *formBody) fieldKey(k Key) bool {
	i := b.focus
	f := b.form.Fields[i]
	space := k.Code == KeyRune && k.Rune == ' ' && k.Mod&ModCtrl == 0
	switch f.Kind {
	case FormText:
		return b.inputs[i].HandleEvent(k)
	case FormBool:
		if space {
			b.res.On[i] = !b.res.On[i]
			b.problems[i] = ""
		}
		return true
	}
	switch {
	case k.Is(Named(KeyLeft, 0)):
		b.cursor[i] = max(b.cursor[i]-1, 0)
	case k.Is(Named(KeyRight, 0)):
		b.cursor[i] = min(b.cursor[i]+1, len(f.Choices)-1)
	case space && f.Kind == FormChoice:
		b.res.Selected[i] = b.cursor[i]
		b.problems[i] = ""
	case space:
		b.res.Picked[i][b.cursor[i]] = !b.res.Picked[i][b.cursor[i]]
		b.problems[i] = ""
	}
	return true
}

// press delivers the button's result; the first checks the fields first.
func (b *formBody) press(d *Dialog, button int) {
	for i := range b.form.Fields {
		b.res.Texts[i] = b.inputs[i].Text()
	}
	if button == 0 {
		bad := -1
		for i, f := range b.form.Fields {
			if f.Validate == nil {
				continue
			}
			if p := f.Validate(b.value(i)); p != "" {
				b.problems[i] = p
				if bad < 0 {
					bad = i
				}
			}
		}
		if bad >= 0 {
			b.focus = bad
			return
		}
	}
	d.close()
	r := b.res
	r.Button = button
	b.done(r, true)
}

// value is what Validate is given for field i.
func (b *formBody) value(i int) string {
	switch b.form.Fields[i].Kind {
	case FormBool:
		if b.res.On[i] {
			return "true"
		}
		return "false"
	case FormChoice:
		return strconv.Itoa(b.res.Selected[i])
	case FormMulti:
		var picked []string
		for j, on := range b.res.Picked[i] {
			if on {
				picked = append(picked, strconv.Itoa(j))
			}
		}
		return strings.Join(picked, ",")
	}
	return b.res.Texts[i]
}

func (b *formBody) hints() []Hint {
	return []Hint{{Keys: "Tab", Label: LabelHintMove}, {Keys: "Space", Label: LabelHintChoose}, {Keys: "Enter", Label: LabelOK}}
}
