package window

import "strings"

// TextLine is one line of a TextView, in the colour of its class.
type TextLine struct {
	Text  string
	Class Class
}

// TextView shows lines of text, wrapped to its width, scrolled with the keys and the
// wheel: "Agent status", the errors of an invalid configuration, the list of keys. The
// wrapping is computed once per width; a frame draws only the rows in view.
type TextView struct {
	lines  []TextLine
	width  int       // the width rows were wrapped for
	rows   []viewRow // the wrapped rows, for width
	top    int       // the first row shown
	height int       // rows shown at the last frame
	// Class is the colour of the empty space; text by default.
	Class Class
}

type viewRow struct {
	text  string
	class Class
}

// NewTextView returns an empty view.
func NewTextView() *TextView { return &TextView{} }

// SetLines replaces the lines; the view keeps its scroll position where it can.
func (v *TextView) SetLines(lines []TextLine) {
	v.lines = append([]TextLine(nil), lines...)
	v.width = 0
	v.rows = nil
}

// SetText replaces the lines with the lines of s, all in the text class.
func (v *TextView) SetText(s string) {
	var lines []TextLine
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		lines = append(lines, TextLine{Text: strings.TrimSuffix(l, "\r")})
	}
	v.SetLines(lines)
}

// Append adds lines at the end; only they are wrapped.
func (v *TextView) Append(lines ...TextLine) {
	v.lines = append(v.lines, lines...)
	if v.width > 0 {
		for _, l := range lines {
			v.rows = appendWrapped(v.rows, l, v.width)
		}
	}
}

// Lines returns the view's lines.
func (v *TextView) Lines() []TextLine { return v.lines }

// Top returns the first row shown (0 at the top).
func (v *TextView) Top() int { return v.top }

func appendWrapped(rows []viewRow, l TextLine, width int) []viewRow {
	for _, r := range wrap(l.Text, width) {
		rows = append(rows, viewRow{r, l.Class})
	}
	return rows
}

func (v *TextView) rewrap(width int) {
	if width == v.width && v.rows != nil {
		return
	}
	v.width = width
	v.rows = v.rows[:0]
	for _, l := range v.lines {
		v.rows = appendWrapped(v.rows, l, width)
	}
}

func (v *TextView) scrollTo(top int) {
	v.top = max(min(top, len(v.rows)-v.height), 0)
}

// Draw shows the rows in view after a column of margin, each padded to the full width.
func (v *TextView) Draw(r Region, focused bool) {
	W, H := r.Size()
	v.rewrap(max(W-2, 1))
	v.height = H
	v.scrollTo(v.top)
	blank := r.style(v.Class)
	for y := 0; y < H; y++ {
		i := v.top + y
		if i >= len(v.rows) {
			r.spaces(0, y, W, blank)
			continue
		}
		st := r.style(v.rows[i].class)
		r.spaces(0, y, 1, blank)
		n := 1 + r.text(1, y, v.rows[i].text, st)
		r.spaces(n, y, W-n, st)
	}
}

// HandleEvent scrolls: arrows by a row, pages by a screen, Home and End to the ends, the
// wheel by three rows.
func (v *TextView) HandleEvent(ev Event) bool {
	page := max(v.height-1, 1)
	switch ev := ev.(type) {
	case Key:
		to, ok := navigate(ev, v.top, page, len(v.rows))
		if ok {
			v.scrollTo(to)
		}
		return ok
	case Mouse:
		switch ev.Action {
		case MouseWheelUp:
			v.scrollTo(v.top - 3)
		case MouseWheelDown:
			v.scrollTo(v.top + 3)
		default:
			return false
		}
		return true
	}
	return false
}

// Hints returns the view's keys for the status bar.
func (v *TextView) Hints() []Hint {
	return []Hint{{Keys: "↑↓ PgUp PgDn", Label: LabelHintScroll}}
}
