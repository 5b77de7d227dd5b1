package window

import "strings"

// Input is a one-line text field: a dialog's entry, a list's filter. It edits grapheme
// clusters, never half of one, and scrolls sideways to keep the cursor in view.
type Input struct {
	text   string
	cursor int // byte offset in text, on a cluster boundary
	offset int // the first column shown
	// Class is the field's colour; it defaults to dialog.input.
	Class Class
	// OnChange runs after each change of the text.
	OnChange func()
}

// NewInput returns an empty field.
func NewInput() *Input { return &Input{Class: ClassDialogInput} }

// Text returns what the field holds.
func (in *Input) Text() string { return in.text }

// SetText replaces the text and puts the cursor at its end.
func (in *Input) SetText(s string) {
	in.text = oneLine(s)
	in.cursor = len(in.text)
	in.changed()
}

// Cursor returns the cursor's byte offset in Text.
func (in *Input) Cursor() int { return in.cursor }

// Insert types s at the cursor. A newline or a tab becomes a space (the field has one
// line); other control characters are dropped.
func (in *Input) Insert(s string) {
	s = oneLine(s)
	if s == "" {
		return
	}
	in.text = in.text[:in.cursor] + s + in.text[in.cursor:]
	in.cursor += len(s)
	in.changed()
}

func (in *Input) changed() {
	if in.OnChange != nil {
		in.OnChange()
	}
}

// oneLine makes s fit a one-line field: CR LF, CR, LF and tab become one space each,
// other control characters go.
func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			return ' '
		case r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f:
			return -1
		}
		return r
	}, s)
}

// boundaries returns the byte offset of every cluster boundary of the text, 0 and
// len(text) included, with the column of each.
func (in *Input) boundaries() (offsets, cols []int) {
	offsets, cols = []int{0}, []int{0}
	s, at, col := in.text, 0, 0
	for s != "" {
		_, w, rest := nextCluster(s)
		at += len(s) - len(rest)
		col += w
		s = rest
		offsets = append(offsets, at)
		cols = append(cols, col)
	}
	return offsets, cols
}

// HandleEvent edits the field; it leaves Enter, Esc, Tab and the arrows up and down to
// the caller.
func (in *Input) HandleEvent(ev Event) bool {
	switch ev := ev.(type) {
	case Paste:
		in.Insert(ev.Text)
		return true
	case Mouse:
		if ev.Action == MousePress {
			offsets, cols := in.boundaries()
			target := ev.X + in.offset
			in.cursor = offsets[len(offsets)-1]
			for i, c := range cols {
				if c >= target {
					in.cursor = offsets[i]
					break
				}
			}
			return true
		}
		return false
	case Key:
		return in.key(ev)
	}
	return false
}

func (in *Input) key(k Key) bool {
	offsets, _ := in.boundaries()
	i := 0
	for i < len(offsets) && offsets[i] < in.cursor {
		i++
	}
	switch {
	case k.Printable():
		in.Insert(string(k.Rune))
	case k.Is(Named(KeyLeft, 0)):
		if i > 0 {
			in.cursor = offsets[i-1]
		}
	case k.Is(Named(KeyRight, 0)):
		if i < len(offsets)-1 {
			in.cursor = offsets[i+1]
		}
	case k.Is(Named(KeyHome, 0)) || k.Is(Ctrl('a')):
		in.cursor = 0
	case k.Is(Named(KeyEnd, 0)) || k.Is(Ctrl('e')):
		in.cursor = len(in.text)
	case k.Is(Named(KeyBackspace, 0)):
		if i > 0 {
			in.text = in.text[:offsets[i-1]] + in.text[in.cursor:]
			in.cursor = offsets[i-1]
			in.changed()
		}
	case k.Is(Named(KeyDelete, 0)) || k.Is(Ctrl('d')):
		if i < len(offsets)-1 {
			in.text = in.text[:in.cursor] + in.text[offsets[i+1]:]
			in.changed()
		}
	case k.Is(Ctrl('u')):
		in.text = in.text[in.cursor:]
		in.cursor = 0
		in.changed()
	case k.Is(Ctrl('k')):
		in.text = in.text[:in.cursor]
		in.changed()
	default:
		return false
	}
	return true
}

// Draw shows the part of the text around the cursor.
func (in *Input) Draw(r Region, focused bool) {
	W, _ := r.Size()
	st := r.style(in.Class)
	offsets, cols := in.boundaries()
	cursorCol := 0
	for i, o := range offsets {
		if o == in.cursor {
			cursorCol = cols[i]
		}
	}
	if cursorCol < in.offset {
		in.offset = cursorCol
	}
	if W > 0 && cursorCol >= in.offset+W {
		in.offset = cursorCol - W + 1
	}
	x := 0
	for i := 0; i+1 < len(offsets); i++ {
		c0, c1 := cols[i], cols[i+1]
		if c1 <= in.offset {
			continue
		}
		if c0 < in.offset {
			// A wide cluster cut by the left edge.
			r.spaces(0, 0, c1-in.offset, st)
			x = c1 - in.offset
			continue
		}
		if c0-in.offset >= W {
			break
		}
		x = c0 - in.offset + r.text(c0-in.offset, 0, in.text[offsets[i]:offsets[i+1]], st)
	}
	r.spaces(x, 0, W-x, st)
	if focused {
		r.ShowCursor(cursorCol-in.offset, 0)
	}
}
