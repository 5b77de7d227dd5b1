package window

import (
	"strconv"
	"unicode"
	"unicode/utf8"
)

// PermissionOption is one answer an agent offers to a permission request
// (session/request_permission), with the agent's own name for it.
type PermissionOption struct {
	ID   string
	Name string
	// Kind is the protocol's: "allow_once", "allow_always", "reject_once" or
	// "reject_always"; anything else is shown without a kind.
	Kind string
}

// PermissionRequest is what the permission dialog shows.
type PermissionRequest struct {
	// Agent is who asks (its title).
	Agent string
	// Title is the tool call's title.
	Title   string
	Options []PermissionOption
}

// AskPermission shows an agent's permission request with its own options. Option N is
// chosen with the digit N (for the first nine), with the first letter of its name (when
// no option before it starts with that letter), or with the arrows and Enter, or a click.
// onResult gets the option's ID and true; Esc and Dismiss (the turn was cancelled) give
// false: the request is cancelled.
func (a *App) AskPermission(req PermissionRequest, onResult func(optionID string, ok bool)) *Dialog {
	b := &permissionBody{req: req, list: NewList(), done: onResult}
	b.list.Class = ClassDialog
	items := make([]ListItem, len(req.Options))
	taken := map[rune]bool{}
	b.letters = make([]rune, len(req.Options))
	for i, o := range req.Options {
		key := " "
		if i < 9 {
			key = strconv.Itoa(i + 1)
		}
		if r, _ := utf8.DecodeRuneInString(o.Name); unicode.IsLetter(r) && !taken[unicode.ToLower(r)] {
			taken[unicode.ToLower(r)] = true
			b.letters[i] = unicode.ToLower(r)
		}
		items[i] = ListItem{Text: key + "  " + o.Name}
	}
	b.list.SetItems(items)
	var d *Dialog
	b.list.OnActivate = func(i int) { b.take(d, i) }
	d = a.open(a.T(LabelPermissionTitle), b, func() { onResult("", false) })
	b.kinds(a.labels)
	return d
}

type permissionBody struct {
	req     PermissionRequest
	list    *List
	letters []rune
	rows    []string
	done    func(string, bool)
}

// kinds writes each option's kind on its right, in the allow or reject colour.
func (b *permissionBody) kinds(l Labels) {
	items := make([]ListItem, b.list.Len())
	copy(items, b.list.items)
	for i, o := range b.req.Options {
		label, class := kindLabel(o.Kind)
		if label != labelNone {
			items[i].Mark, items[i].MarkClass = l.T(label), class
		}
	}
	b.list.items = items
}

func kindLabel(kind string) (Label, Class) {
	switch kind {
	case "allow_once":
		return LabelKindAllowOnce, ClassDialogAllow
	case "allow_always":
		return LabelKindAllowAlways, ClassDialogAllow
	case "reject_once":
		return LabelKindRejectOnce, ClassDialogReject
	case "reject_always":
		return LabelKindRejectAlways, ClassDialogReject
	}
	return labelNone, ClassDialog
}

func (b *permissionBody) take(d *Dialog, i int) {
	if i < 0 || i >= len(b.req.Options) {
		return
	}
	d.close()
	b.done(b.req.Options[i].ID, true)
}

func (b *permissionBody) size(l Labels, maxW int) (int, int) {
	b.kinds(l)
	head := l.Tf(LabelPermissionAsks, b.req.Agent)
	b.rows = append([]string{head}, wrap(b.req.Title, maxW)...)
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

func (b *permissionBody) draw(r Region, l Labels) {
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

func (b *permissionBody) handleEvent(d *Dialog, ev Event) bool {
	switch ev := ev.(type) {
	case Key:
		if ev.Code == KeyRune && ev.Mod&(ModCtrl|ModAlt) == 0 {
			if ev.Rune >= '1' && ev.Rune <= '9' {
				b.take(d, int(ev.Rune-'1'))
				return true
			}
			for i, letter := range b.letters {
				if letter != 0 && letter == unicode.ToLower(ev.Rune) {
					b.take(d, i)
					return true
				}
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

func (b *permissionBody) hints() []Hint {
	return []Hint{{Keys: "1…9", Label: LabelHintAnswer}, {Keys: "↑↓", Label: LabelHintMove}, {Keys: "Enter", Label: LabelHintChoose}}
}
