package window

// ListItem is one row of a List: its text and an optional mark drawn at the right end
// (an unread dot, a kind).
type ListItem struct {
	Text      string
	Mark      string
	MarkClass Class
}

// List is a scrollable list with one highlighted row.
type List struct {
	items    []ListItem
	selected int
	offset   int
	height   int // rows shown at the last frame
	// Class is the rows' colour (text by default); Selected the highlighted row's.
	Class    Class
	Selected Class
	// OnActivate runs on Enter and on a click, with the row's index.
	OnActivate func(i int)
}

// NewList returns an empty list.
func NewList() *List { return &List{Class: ClassText, Selected: ClassListSelected} }

// SetItems replaces the rows, keeping the highlight in range.
func (l *List) SetItems(items []ListItem) {
	l.items = items
	l.Select(l.selected)
}

// Len returns the number of rows.
func (l *List) Len() int { return len(l.items) }

// Current returns the highlighted row's index, -1 when the list is empty.
func (l *List) Current() int {
	if len(l.items) == 0 {
		return -1
	}
	return l.selected
}

// Select highlights row i (clamped) and scrolls it into view.
func (l *List) Select(i int) {
	l.selected = max(min(i, len(l.items)-1), 0)
	l.scrollIntoView()
}

func (l *List) scrollIntoView() {
	l.offset = ScrollToShow(l.offset, l.selected, l.height, len(l.items))
}

// HandleEvent moves the highlight (arrows, pages, Home, End), activates (Enter, click)
// and scrolls (wheel, three rows, the highlight staying where it is).
func (l *List) HandleEvent(ev Event) bool {
	page := max(l.height-1, 1)
	switch ev := ev.(type) {
	case Key:
		if to, ok := navigate(ev, l.selected, page, len(l.items)-1); ok {
			l.Select(to)
			return true
		}
		switch {
		case ev.Is(Named(KeyEnter, 0)):
			if l.OnActivate != nil && len(l.items) > 0 {
				l.OnActivate(l.selected)
			}
		default:
			return false
		}
		return true
	case Mouse:
		switch ev.Action {
		case MouseWheelUp:
			l.offset = max(l.offset-3, 0)
		case MouseWheelDown:
			l.offset = max(min(l.offset+3, len(l.items)-l.height), 0)
		case MousePress:
			i := l.offset + ev.Y
			if i < 0 || i >= len(l.items) {
				return false
			}
			l.selected = i
			if l.OnActivate != nil {
				l.OnActivate(i)
			}
		default:
			return false
		}
		return true
	}
	return false
}

// Draw shows the rows that fit, the highlighted one in the Selected colour.
func (l *List) Draw(r Region, focused bool) {
	W, H := r.Size()
	if l.height != H {
		l.height = H
		l.scrollIntoView()
	}
	for y := 0; y < H; y++ {
		i := l.offset + y
		st := r.style(l.Class)
		if i >= len(l.items) {
			r.spaces(0, y, W, st)
			continue
		}
		it := l.items[i]
		if i == l.selected {
			st = r.style(l.Selected)
		}
		markW := TextWidth(it.Mark)
		n := r.text(0, y, " ", st)
		n += r.text(n, y, truncate(it.Text, W-2-markW-boolInt(markW > 0)), st)
		mx := W - 1 - markW
		r.spaces(n, y, mx-n, st)
		if markW > 0 {
			ms := r.style(it.MarkClass)
			if i == l.selected {
				ms = st
			}
			mx = max(mx, n)
			mx += r.text(mx, y, it.Mark, ms)
		}
		r.spaces(mx, y, W-mx, st)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// navigate is where the moving keys take a position: the arrows by one, the pages by page,
// Home and End to 0 and last (the caller clamps). ok is false for any other key.
func navigate(k Key, cur, page, last int) (to int, ok bool) {
	switch {
	case k.Is(Named(KeyUp, 0)):
		return cur - 1, true
	case k.Is(Named(KeyDown, 0)):
		return cur + 1, true
	case k.Is(Named(KeyPgUp, 0)):
		return cur - page, true
	case k.Is(Named(KeyPgDn, 0)):
		return cur + page, true
	case k.Is(Named(KeyHome, 0)):
		return 0, true
	case k.Is(Named(KeyEnd, 0)):
		return last, true
	}
	return cur, false
}
