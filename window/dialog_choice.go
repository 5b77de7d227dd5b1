package window

import (
	"strings"
	"unicode"
)

// Choice describes a choice-list dialog.
type Choice struct {
	Title string
	Items []ChoiceItem
	// Selected is the entry highlighted at first.
	Selected int
	// Wide lets the dialog take the screen's width rather than at most 72 columns, for
	// entries that must be read whole (paths).
	Wide bool
}

// ChoiceItem is one entry of a choice list, with an optional mark on its right.
type ChoiceItem struct {
	Text      string
	Mark      string
	MarkClass Class
	// Key, when not 0, takes the entry when pressed (case counts: 'x' and 'X' differ).
	// When every entry has one, the list is a menu of actions: no filter, the keys run
	// them (give the key as Mark too, so that it is shown).
	Key rune
}

// choiceRows is the most rows a choice list shows at once.
const choiceRows = 12

// Choose asks to pick one entry of a list. Typing filters the list (entries whose text
// starts with what is typed first, then those that contain it, ignoring case); arrows
// move; Enter or a click takes the entry. When every entry has a Key, there is no filter:
// an entry's key takes it. onResult gets the entry's index in c.Items and
// true; Esc and Dismiss give false.
func (a *App) Choose(c Choice, onResult func(index int, ok bool)) *Dialog {
	b := &choiceBody{choice: c, filter: NewInput(), list: NewList(), done: onResult, keyed: len(c.Items) > 0}
	for _, it := range c.Items {
		b.keyed = b.keyed && it.Key != 0
	}
	b.list.Class, b.list.Selected = ClassDialog, ClassListSelected
	b.filter.OnChange = b.refilter
	b.refilter()
	for i, idx := range b.shown {
		if idx == c.Selected {
			b.list.Select(i)
		}
	}
	var d *Dialog
	b.list.OnActivate = func(i int) { b.take(d, i) }
	d = a.open(c.Title, b, func() { onResult(-1, false) })
	return d
}

type choiceBody struct {
	choice Choice
	keyed  bool // every entry has a Key: no filter
	filter *Input
	list   *List
	shown  []int // indexes in choice.Items of the listed entries
	done   func(int, bool)
}

// refilter lists the entries matching the filter, those starting with it first.
func (b *choiceBody) refilter() {
	f := strings.ToLower(b.filter.Text())
	var first, then []int
	for i, it := range b.choice.Items {
		t := strings.ToLower(it.Text)
		switch {
		case strings.HasPrefix(t, f) || strings.HasPrefix(strings.TrimLeftFunc(t, notLetter), f):
			first = append(first, i)
		case strings.Contains(t, f):
			then = append(then, i)
		}
	}
	b.shown = append(first, then...)
	items := make([]ListItem, len(b.shown))
	for i, idx := range b.shown {
		it := b.choice.Items[idx]
		items[i] = ListItem{Text: it.Text, Mark: it.Mark, MarkClass: it.MarkClass}
	}
	b.list.SetItems(items)
	b.list.Select(0)
}

func notLetter(r rune) bool { return !unicode.IsLetter(r) }

func (b *choiceBody) take(d *Dialog, i int) {
	if i < 0 || i >= len(b.shown) {
		return
	}
	d.close()
	b.done(b.shown[i], true)
}

func (b *choiceBody) size(l Labels, maxW int) (int, int) {
	w := TextWidth(l.T(LabelFilter)) + 20
	for _, it := range b.choice.Items {
		w = max(w, TextWidth(it.Text)+TextWidth(it.Mark)+4)
	}
	return min(w, maxW), b.top() + max(min(len(b.choice.Items), choiceRows), 1)
}

func (b *choiceBody) wide() bool { return b.choice.Wide }

// top is the first row of the list: below the filter and a blank row, or 0 without them.
func (b *choiceBody) top() int {
	if b.keyed {
		return 0
	}
	return 2
}

func (b *choiceBody) draw(r Region, l Labels) {
	W, H := r.Size()
	if b.keyed {
		b.list.Draw(r, true)
		return
	}
	bg := r.style(ClassDialog)
	n := r.text(0, 0, l.T(LabelFilter), bg)
	n += r.text(n, 0, " ", bg)
	b.filter.Draw(r.Sub(n, 0, W-n, 1), true)
	r.spaces(0, 1, W, bg)
	if len(b.shown) == 0 {
		for y := 2; y < H; y++ {
			n := 0
			if y == 2 {
				n = r.text(1, y, l.T(LabelNoMatch), r.style(ClassMenuDisabled)) + 1
				r.spaces(0, y, 1, bg)
			}
			r.spaces(n, y, W-n, bg)
		}
		return
	}
	b.list.Draw(r.Sub(0, 2, W, H-2), true)
}

func (b *choiceBody) handleEvent(d *Dialog, ev Event) bool {
	switch ev := ev.(type) {
	case Key:
		for i, idx := range b.shown {
			if k := b.choice.Items[idx].Key; k != 0 && ev.IsRune(k) {
				b.take(d, i)
				return true
			}
		}
		if b.list.HandleEvent(ev) || b.keyed {
			return true
		}
		return b.filter.HandleEvent(ev)
	case Paste:
		return !b.keyed && b.filter.HandleEvent(ev)
	case Mouse:
		if top := b.top(); ev.Y >= top || ev.Action == MouseWheelUp || ev.Action == MouseWheelDown {
			return b.list.HandleEvent(Mouse{X: ev.X, Y: ev.Y - top, Action: ev.Action})
		}
	}
	return false
}

func (b *choiceBody) hints() []Hint {
	if b.keyed {
		return []Hint{{Keys: "↑↓", Label: LabelHintMove}, {Keys: "Enter", Label: LabelHintChoose}}
	}
	return []Hint{{Keys: "↑↓", Label: LabelHintMove}, {Keys: "Enter", Label: LabelHintChoose}, {Text: "", Keys: "abc", Label: LabelHintFilter}}
}
