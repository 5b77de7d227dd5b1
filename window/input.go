package window

import "strings"

// Input is a one-line text field: a dialog's entry, a list's filter. It edits grapheme
// clusters, never half of one, and scrolls sideways to keep the cursor in view. A key costs
// what is shown, whatever the length of the text: the field finds the clusters around the
// cursor and lays out only the clusters it shows (the text itself is copied by an edit).
type Input struct {
	text   string
	cursor int // byte offset in text, on a cluster boundary
	first  int // byte offset of the first cluster shown
	// grow holds the text while it is typed at its end, which then costs the characters
	// typed, not a copy of the whole text; inGrow says text is grow's.
	grow   strings.Builder
	inGrow bool
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
	in.setText(oneLine(s))
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
	if in.cursor == len(in.text) {
		if !in.inGrow {
			in.grow = strings.Builder{} // strings handed out keep the old buffer
			in.grow.WriteString(in.text)
		}
		in.grow.WriteString(s)
		in.setText(in.grow.String())
		in.inGrow = true
	} else {
		in.setText(in.text[:in.cursor] + s + in.text[in.cursor:])
	}
	in.cursor += len(s)
	in.changed()
}

// setText is every change of the text but typing at its end.
func (in *Input) setText(s string) {
	in.text = s
	in.inGrow = false
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

// ClusterStart returns the start of the grapheme cluster of s that holds the byte at (len(s)
// when at is len(s) or beyond, 0 when at is 0 or before). It segments s from a boundary
// shortly before at, not from the start: between two ASCII characters (but CR LF) there is
// always one, so in most text it reads a few bytes, and at most boundaryReach before at.
func ClusterStart(s string, at int) int {
	if at <= 0 {
		return 0
	}
	if at >= len(s) {
		return len(s)
	}
	p := boundaryBefore(s, at)
	for p < at {
		_, _, rest := nextCluster(s[p:])
		next := len(s) - len(rest)
		if next > at {
			return p
		}
		p = next
	}
	return p
}

// boundaryReach is how far back from a byte ClusterStart looks for two ASCII characters in a
// row before it segments from the start of the text.
const boundaryReach = 4096

// boundaryBefore returns a cluster boundary at or before at (0 < at < len(s)).
func boundaryBefore(s string, at int) int {
	for q := at; q > 0 && at-q < boundaryReach; q-- {
		if s[q] < 0x80 && s[q-1] < 0x80 && (s[q-1] != '\r' || s[q] != '\n') {
			return q
		}
	}
	return 0
}

// clusterEnd returns the end of the cluster that starts at at.
func clusterEnd(s string, at int) int {
	if at >= len(s) {
		return len(s)
	}
	_, _, rest := nextCluster(s[at:])
	return len(s) - len(rest)
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
			// The first boundary at or past the column clicked.
			p, col := min(in.first, len(in.text)), 0
			for p < len(in.text) && col < ev.X {
				_, w, _ := nextCluster(in.text[p:])
				col += w
				p = clusterEnd(in.text, p)
			}
			in.cursor = p
			return true
		}
		return false
	case Key:
		return in.key(ev)
	}
	return false
}

func (in *Input) key(k Key) bool {
	switch {
	case k.Printable():
		in.Insert(string(k.Rune))
	case k.Is(Named(KeyLeft, 0)):
		in.cursor = ClusterStart(in.text, in.cursor-1)
	case k.Is(Named(KeyRight, 0)):
		in.cursor = clusterEnd(in.text, in.cursor)
	case k.Is(Named(KeyHome, 0)) || k.Is(Ctrl('a')):
		in.cursor = 0
	case k.Is(Named(KeyEnd, 0)) || k.Is(Ctrl('e')):
		in.cursor = len(in.text)
	case k.Is(Named(KeyBackspace, 0)):
		if in.cursor > 0 {
			p := ClusterStart(in.text, in.cursor-1)
			in.setText(in.text[:p] + in.text[in.cursor:])
			in.cursor = p
			in.changed()
		}
	case k.Is(Named(KeyDelete, 0)) || k.Is(Ctrl('d')):
		if in.cursor < len(in.text) {
			in.setText(in.text[:in.cursor] + in.text[clusterEnd(in.text, in.cursor):])
			in.changed()
		}
	case k.Is(Ctrl('u')):
		in.setText(in.text[in.cursor:])
		in.cursor = 0
		in.changed()
	case k.Is(Ctrl('k')):
		in.setText(in.text[:in.cursor])
		in.changed()
	default:
		return false
	}
	return true
}

// Draw shows the part of the text around the cursor: from the first cluster shown as
// before, moved so that the cursor is in view (at the last column when it was past it).
func (in *Input) Draw(r Region, focused bool) {
	W, _ := r.Size()
	st := r.style(in.Class)
	// An edit may have put the first cluster shown in the middle of one (a combining
	// mark typed there joins the cluster before it).
	in.first = ClusterStart(in.text, min(in.first, in.cursor))
	if W > 0 && in.columns(in.first, in.cursor, W) >= W {
		first, col := in.cursor, 0
		for first > 0 {
			p := ClusterStart(in.text, first-1)
			_, w, _ := nextCluster(in.text[p:])
			if col+w > W-1 {
				break
			}
			col, first = col+w, p
		}
		in.first = first
	}
	x, cursorCol := 0, -1
	for p := in.first; ; {
		if p == in.cursor {
			cursorCol = x
		}
		if p >= len(in.text) || x >= W {
			break
		}
		end := clusterEnd(in.text, p)
		x += r.text(x, 0, in.text[p:end], st)
		p = end
	}
	r.spaces(x, 0, W-x, st)
	if focused && cursorCol >= 0 {
		r.ShowCursor(cursorCol, 0)
	}
}

// columns returns the width of the text from the boundary a to the boundary b, or limit
// once it reaches it.
func (in *Input) columns(a, b, limit int) int {
	col := 0
	for p := a; p < b && col < limit; {
		_, w, rest := nextCluster(in.text[p:])
		col += w
		p = len(in.text) - len(rest)
	}
	return col
}
