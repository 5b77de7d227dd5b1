package window

import (
	"strings"
	"unicode/utf8"
)

// TextEntry describes a text entry dialog.
type TextEntry struct {
	Title  string
	Prompt string
	// Text is what the field holds at first.
	Text string
	// Validate checks the text on Enter: a non-empty message is shown on the error line
	// and the dialog stays open.
	Validate func(text string) (problem string)
	// Secret shows a bullet in place of each character typed (a key, a password).
	Secret bool
}

// AskText asks for one line of text. onResult gets the text and true on OK; Cancel, Esc
// and Dismiss give false.
func (a *App) AskText(e TextEntry, onResult func(text string, ok bool)) *Dialog {
	in := NewInput()
	in.SetText(e.Text)
	b := &textBody{entry: e, input: in, done: onResult,
		buttons: buttons{labels: []Label{LabelOK, LabelCancel}}}
	in.OnChange = func() { b.problem = "" }
	return a.open(e.Title, b, func() { onResult("", false) })
}

type textBody struct {
	entry   TextEntry
	input   *Input
	problem string
	buttons buttons
	done    func(string, bool)
}

func (b *textBody) size(l Labels, maxW int) (int, int) {
	w := min(max(TextWidth(b.entry.Prompt), b.buttons.width(l), 40, TextWidth(b.problem)), maxW)
	return w, 4 + len(b.problemRows(w))
}

// problemRows is the error line wrapped to the dialog's width (a translation is often
// longer than the English): one empty row when there is none.
func (b *textBody) problemRows(w int) []string {
	if b.problem == "" {
		return []string{""}
	}
	return wrap(b.problem, max(w, 1))
}

func (b *textBody) draw(r Region, l Labels) {
	W, _ := r.Size()
	bg := r.style(ClassDialog)
	n := r.text(0, 0, b.entry.Prompt, bg)
	r.spaces(n, 0, W-n, bg)
	if b.entry.Secret {
		b.drawMasked(r.Sub(0, 1, W, 1), !b.buttons.focused)
	} else {
		b.input.Draw(r.Sub(0, 1, W, 1), !b.buttons.focused)
	}
	rows := b.problemRows(W)
	for i, row := range rows {
		n = r.text(0, 2+i, truncate(row, W), r.style(ClassDialogError))
		r.spaces(n, 2+i, W-n, bg)
	}
	y := 2 + len(rows)
	r.spaces(0, y, W, bg)
	b.buttons.draw(r, y+1, l)
}

func (b *textBody) handleEvent(d *Dialog, ev Event) bool {
	switch ev := ev.(type) {
	case Key:
		switch {
		case ev.Is(Named(KeyTab, 0)) || ev.Is(Named(KeyBacktab, 0)):
			b.cycle(ev.Is(Named(KeyTab, 0)))
			return true
		case ev.Is(Named(KeyEnter, 0)):
			if b.buttons.focused && b.buttons.focus == 1 {
				d.Dismiss()
			} else {
				b.submit(d)
			}
			return true
		}
		if !b.buttons.focused {
			return b.input.HandleEvent(ev)
		}
		if p, used := b.buttons.key(ev, d.app.labels); used && p >= 0 {
			b.press(d, p)
		}
		return true
	case Paste:
		b.buttons.focused = false
		return b.input.HandleEvent(ev)
	case Mouse:
		if ev.Action != MousePress {
			return false
		}
		if ev.Y == 1 {
			b.buttons.focused = false
			return b.input.HandleEvent(Mouse{X: ev.X, Y: 0, Action: ev.Action})
		}
		if p := b.buttons.at(ev.X, ev.Y); p >= 0 {
			b.press(d, p)
		}
		return true
	}
	return false
}

// cycle moves the keyboard: field, OK, Cancel, field.
func (b *textBody) cycle(forward bool) {
	pos := 0
	if b.buttons.focused {
		pos = 1 + b.buttons.focus
	}
	if forward {
		pos = (pos + 1) % 3
	} else {
		pos = (pos + 2) % 3
	}
	b.buttons.focused = pos > 0
	if pos > 0 {
		b.buttons.focus = pos - 1
	}
}

func (b *textBody) press(d *Dialog, p int) {
	if p == 0 {
		b.submit(d)
	} else {
		d.Dismiss()
	}
}

func (b *textBody) submit(d *Dialog) {
	text := b.input.Text()
	if b.entry.Validate != nil {
		if problem := b.entry.Validate(text); problem != "" {
			b.problem = problem
			b.buttons.focused = false
			return
		}
	}
	d.close()
	b.done(text, true)
}

func (b *textBody) hints() []Hint {
	return []Hint{{Keys: "Enter", Label: LabelOK}, {Keys: "Tab", Label: LabelHintSwitch}}
}

// drawMasked draws the field of a secret entry: a bullet per character, the last ones
// when they do not fit.
func (b *textBody) drawMasked(r Region, focused bool) {
	W, _ := r.Size()
	st := r.style(b.input.Class)
	text := b.input.Text()
	total := utf8.RuneCountInString(text)
	cursor := utf8.RuneCountInString(text[:b.input.Cursor()])
	skip := max(0, cursor-W+1)
	n := r.text(0, 0, strings.Repeat("•", min(total-skip, W)), st)
	r.spaces(n, 0, W-n, st)
	if focused {
		r.ShowCursor(cursor-skip, 0)
	}
}
