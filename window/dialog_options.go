package window

import "strconv"

// Option is one answer an options dialog offers.
type Option struct {
	// ID is what the dialog's caller gets when the option is chosen.
	ID string
	// Text is the option's name, shown after its number. None of its letters chooses it:
	// the name may come from someone else (an agent), who must not pick the keys.
	Text string
	// Mark is shown on the option's right (what choosing it means), in MarkClass.
	Mark      string
	MarkClass Class
}

// OptionsRequest is what an options dialog shows: a question and its own answers.
type OptionsRequest struct {
	// Title is the dialog's title.
	Title string
	// Heading is the first line, the question ("alice asks to run:").
	Heading string
	// Detail is what the question is about, wrapped, in the dialog title's colour; at most
	// five lines of it are shown.
	Detail  string
	Options []Option
}

// AskOption asks to choose one of req's options. Option N is chosen with the digit N (for
// the first nine), or with the arrows and Enter, or a click; never with a letter of its
// text. onResult gets the option's ID and true; Esc and Dismiss (the question went away)
// give false.
func (a *App) AskOption(req OptionsRequest, onResult func(optionID string, ok bool)) *Dialog {
	b := &optionsBody{req: req, list: NewList(), done: onResult}
	b.list.Class = ClassDialog
	items := make([]ListItem, len(req.Options))
	for i, o := range req.Options {
		key := " "
		if i < 9 {
			key = strconv.Itoa(i + 1)
		}
		items[i] = ListItem{Text: key + "  " + o.Text, Mark: o.Mark, MarkClass: o.MarkClass}
	}
	b.list.SetItems(items)
	var d *Dialog
	b.list.OnActivate = func(i int) { b.take(d, i) }
	d = a.open(req.Title, b, func() { onResult("", false) })
	return d
}

type optionsBody struct {
	req  OptionsRequest
	list *List
	rows []string
	done func(string, bool)
}

func (b *optionsBody) take(d *Dialog, i int) {
	if i < 0 || i >= len(b.req.Options) {
		return
	}
	d.close()
	b.done(b.req.Options[i].ID, true)
}

func (b *optionsBody) size(l Labels, maxW int) (int, int) {
	b.rows = append([]string{b.req.Heading}, wrap(b.req.Detail, maxW)...)
	if len(b.rows) > 6 {
		b.rows = append(b.rows[:5], "…")
	}
	w := 30
	for _, r := range b.rows {
		w = max(w, TextWidth(r))
	}
	for _, it := range b.list.items {
		w = max(w, TextWidth(it.Text)+TextWidth(it.Mark)+4)
	}
	return min(w, maxW), len(b.rows) + 1 + max(min(len(b.req.Options), choiceRows), 1)
}

func (b *optionsBody) draw(r Region, l Labels) {
	W, H := r.Size()
	bg := r.style(ClassDialog)
	for y, row := range b.rows {
		st := bg
		if y > 0 {
			st = r.style(ClassDialogTitle)
		}
		n := r.text(0, y, row, st)
		r.spaces(n, y, W-n, bg)
	}
	r.spaces(0, len(b.rows), W, bg)
	top := len(b.rows) + 1
	b.list.Draw(r.Sub(0, top, W, H-top), true)
}

func (b *optionsBody) handleEvent(d *Dialog, ev Event) bool {
	switch ev := ev.(type) {
	case Key:
		if ev.Code == KeyRune && ev.Mod&(ModCtrl|ModAlt) == 0 {
			if ev.Rune >= '1' && ev.Rune <= '9' {
				b.take(d, int(ev.Rune-'1'))
				return true
			}
			return true
		}
		return b.list.HandleEvent(ev)
	case Mouse:
		top := len(b.rows) + 1
		return b.list.HandleEvent(Mouse{X: ev.X, Y: ev.Y - top, Action: ev.Action})
	}
	return false
}

func (b *optionsBody) hints() []Hint {
	return []Hint{{Keys: "1…9", Label: LabelHintAnswer}, {Keys: "↑↓", Label: LabelHintMove}, {Keys: "Enter", Label: LabelHintChoose}}
}
