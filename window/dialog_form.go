package window

import (
	"strings"

	"github.com/gdamore/tcell/v2"
)

// FormKind is the kind of a form's field.
type FormKind int

// The kinds of fields.
const (
	FormText   FormKind = iota // a line of text (numbers too: Validate reads them)
	FormBool                   // a box, ticked or not
	FormChoice                 // one of Choices
	FormMulti                  // some of Choices
)

// FormField is one field of a form.
type FormField struct {
	// Label names the field; Help, when set, is said under it; Required adds a mark.
	Label, Help string
	Required    bool
	Kind        FormKind
	// Text is a text field's first text; On a box's first state.
	Text string
	On   bool
	// Choices are a choice's values as shown; Selected is the one picked at first (-1:
	// none yet); Picked the values of a multiple choice picked at first.
	Choices  []string
	Selected int
	Picked   []bool
	// Validate checks the field when the first button is pressed: a text field's text, the
	// index chosen (-1: none) as text, or the indexes picked joined by commas. A message
	// shows under the field and the form stays open.
	Validate func(value string) (problem string)
}

// Form describes a form dialog: a message, an optional link, fields, and buttons.
type Form struct {
	Title   string
	Message string
	// Link, when set, is shown on a line of its own as a link (OSC 8, where the terminal
	// supports it; its text always).
	Link string
	// Fields are asked in order.
	Fields []FormField
	// Buttons are the answers, the first one the one that checks the fields (Accept).
	Buttons []string
}

// FormResult is what a form gives back: the button pressed and the fields' values.
type FormResult struct {
	Button   int
	Texts    []string // by field: a text field's text
	On       []bool   // by field: a box's state
	Selected []int    // by field: the index chosen (-1: none)
	Picked   [][]bool // by field: the values picked
}

// AskForm opens a form. onResult gets the result and true when a button is pressed (the
// first one only once every field is valid); Esc and Dismiss give false.
func (a *App) AskForm(f Form, onResult func(r FormResult, ok bool)) *Dialog {
	b := &formBody{form: f, done: onResult, problems: make([]string, len(f.Fields))}
	b.res = FormResult{Texts: make([]string, len(f.Fields)), On: make([]bool, len(f.Fields)),
		Selected: make([]int, len(f.Fields)), Picked: make([][]bool, len(f.Fields))}
	for i, fl := range f.Fields {
		in := NewInput()
		in.SetText(fl.Text)
		i := i
		in.OnChange = func() { b.problems[i] = "" }
		b.inputs = append(b.inputs, in)
		b.res.On[i], b.res.Selected[i] = fl.On, fl.Selected
		b.res.Picked[i] = make([]bool, len(fl.Choices))
		copy(b.res.Picked[i], fl.Picked)
		b.cursor = append(b.cursor, 0)
	}
	if len(f.Fields) == 0 {
		b.focus = 0 // the buttons
	}
	return a.open(f.Title, b, func() { onResult(FormResult{Button: -1}, false) })
}

type formBody struct {
	form     Form
	done     func(FormResult, bool)
	res      FormResult
	inputs   []*Input
	cursor   []int // by field: the value a multiple choice's cursor is on
	problems []string
	// focus is the field with the keyboard; len(fields) is the button row, whose button is
	// button.
	focus, button int
	top           int // the first row shown
	buttonSpots   []Rect
	rows          int // the rows drawn last
}

// fieldRows is how many rows a field takes: label, value, problem or help.
const fieldRows = 3

// lines are the rows above the fields: the message wrapped to W columns, then a row for
// the link, when there is one.
func (b *formBody) lines(W int) []string {
	var out []string
	if b.form.Message != "" {
		out = append(out, wrap(b.form.Message, W)...)
	}
	if b.form.Link != "" {
		out = append(out, b.form.Link)
	}
	return out
}

func (b *formBody) size(l Labels, maxW int) (int, int) {
	w := 44
	for _, ln := range strings.Split(b.form.Message, "\n") {
		w = max(w, TextWidth(ln))
	}
	w = max(w, TextWidth(b.form.Link), b.buttonsWidth())
	for _, f := range b.form.Fields {
		w = max(w, TextWidth(f.Label)+2, b.valueWidth(f))
	}
	w = min(w, maxW)
	h := len(b.lines(w)) + 1 + fieldRows*len(b.form.Fields) + 1
	return w, h
}

func (b *formBody) valueWidth(f FormField) int {
	n := 0
	for _, c := range f.Choices {
		n += TextWidth(c) + 6
	}
	return n
}

func (b *formBody) buttonsWidth() int {
	w := 0
	for i, t := range b.form.Buttons {
		if i > 0 {
			w += 2
		}
		w += TextWidth(t) + 4
	}
	return w
}

func (b *formBody) draw(r Region, l Labels) {
	W, H := r.Size()
	bg := r.style(ClassDialog)
	// Each row of the body is drawn by a function of its row on screen, so that the body
	// scrolls.
	var rows []func(y int)
	for _, ln := range b.lines(W) {
		rows = append(rows, func(y int) { n := r.text(0, y, ln, bg); r.spaces(n, y, W-n, bg) })
	}
	if b.form.Link != "" {
		rows[len(rows)-1] = func(y int) {
			st := r.style(ClassKeyword).Underline(true)
			if strings.HasPrefix(b.form.Link, "https://") || strings.HasPrefix(b.form.Link, "http://") {
				st = st.Url(b.form.Link)
			}
			n := r.text(0, y, truncate(b.form.Link, W), st)
			r.spaces(n, y, W-n, bg)
		}
	}
	rows = append(rows, func(y int) { r.spaces(0, y, W, bg) })
	fieldTop := len(rows)
	for i := range b.form.Fields {
		i := i
		rows = append(rows, func(y int) { b.drawLabel(r, y, i) }, func(y int) { b.drawValue(r, y, i) },
			func(y int) { b.drawNote(r, y, i) })
	}
	// The button row stays at the bottom; the rest scrolls to keep the focus in view.
	body := H - 1
	if b.focus < len(b.form.Fields) {
		first := fieldTop + fieldRows*b.focus
		if first < b.top {
			b.top = first
		}
		if first+fieldRows > b.top+body {
			b.top = first + fieldRows - body
		}
	}
	b.top = max(min(b.top, len(rows)-body), 0)
	for y := 0; y < body; y++ {
		if b.top+y < len(rows) {
			rows[b.top+y](y)
		} else {
			r.spaces(0, y, W, bg)
		}
	}
	b.rows = fieldTop
	b.drawButtons(r, H-1)
}

func (b *formBody) drawLabel(r Region, y, i int) {
	W, _ := r.Size()
	f := b.form.Fields[i]
	c := ClassDialog
	if b.focus == i {
		c = ClassDialogTitle
	}
	text := f.Label
	if f.Required {
		text += " *"
	}
	n := r.text(0, y, truncate(text, W), r.style(c))
	r.spaces(n, y, W-n, r.style(ClassDialog))
}

func (b *formBody) drawValue(r Region, y, i int) {
	W, _ := r.Size()
	f := b.form.Fields[i]
	bg := r.style(ClassDialog)
	focused := b.focus == i
	switch f.Kind {
	case FormText:
		b.inputs[i].Draw(r.Sub(0, y, W, 1), focused)
		return
	case FormBool:
		mark := "[ ]"
		if b.res.On[i] {
			mark = "[x]"
		}
		n := r.text(0, y, mark, b.valueStyle(r, focused))
		r.spaces(n, y, W-n, bg)
		if focused {
			r.ShowCursor(1, y)
		}
		return
	}
	x := 0
	for j, c := range f.Choices {
		var mark string
		if f.Kind == FormChoice {
			mark = "( ) "
			if b.res.Selected[i] == j {
				mark = "(•) "
			}
		} else {
			mark = "[ ] "
			if b.res.Picked[i][j] {
				mark = "[x] "
			}
		}
		st := bg
		if focused && b.cursor[i] == j {
			st = r.style(ClassDialogInput)
			r.ShowCursor(x+1, y)
		}
		x += r.text(x, y, mark+c, st)
		x += r.text(x, y, "  ", bg)
	}
	r.spaces(x, y, W-x, bg)
}

func (b *formBody) valueStyle(r Region, focused bool) tcell.Style {
	if focused {
		return r.style(ClassDialogInput)
	}
	return r.style(ClassDialog)
}

func (b *formBody) drawNote(r Region, y, i int) {
	W, _ := r.Size()
	n := 0
	if p := b.problems[i]; p != "" {
		n = r.text(0, y, truncate(p, W), r.style(ClassDialogError))
	} else if h := b.form.Fields[i].Help; h != "" {
		n = r.text(0, y, truncate(h, W), r.style(ClassComment))
	}
	r.spaces(n, y, W-n, r.style(ClassDialog))
}

func (b *formBody) drawButtons(r Region, y int) {
	W, _ := r.Size()
	bg := r.style(ClassDialog)
	x := max((W-b.buttonsWidth())/2, 0)
	r.spaces(0, y, x, bg)
	b.buttonSpots = b.buttonSpots[:0]
	for i, t := range b.form.Buttons {
		if i > 0 {
			x += r.text(x, y, "  ", bg)
		}
		c := ClassDialogButton
		if b.focus == len(b.form.Fields) && b.button == i {
			c = ClassDialogButtonFocused
		}
		start := x
		x += r.text(x, y, "[ "+t+" ]", r.style(c))
		b.buttonSpots = append(b.buttonSpots, Rect{start, y, x - start, 1})
	}
	r.spaces(x, y, W-x, bg)
}
