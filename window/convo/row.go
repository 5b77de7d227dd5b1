package convo

// Span is a piece of a row drawn in one class. URL is the address of a link ("" for none):
// the drawer makes it a hyperlink where the terminal supports them.
type Span struct {
	Text  string
	Class string
	URL   string
}

// RowKind says what a row shows.
type RowKind uint8

// The kinds of rows.
const (
	RowBlank      RowKind = iota // an empty line: between entries, between paragraphs
	RowLabel                     // a speaker's label, or the label of a thought
	RowProse                     // a line of prose
	RowFence                     // the opening or closing line of a fenced code block
	RowCode                      // a line of a fenced code block
	RowToolHeader                // a tool call's title and state
	RowToolOutput                // a line of a tool call's output
	RowPlan                      // an entry of a plan
	RowNotice                    // a notice of Sidekicks, or what an entry lost to the cap
	RowToolAction                // what a tool call does: a file it works on, its command
)

var rowKindNames = [...]string{"blank", "label", "prose", "fence", "code", "tool-header", "tool-output", "plan", "notice", "tool-action"}

// String returns the kind's name, for tests and logs.
func (k RowKind) String() string {
	if int(k) < len(rowKindNames) {
		return rowKindNames[k]
	}
	return "unknown"
}

// Row is one line on screen.
type Row struct {
	// Spans are drawn from column Indent, one after the other. They share memory with the
	// view's cache and with the next frame's rows: read them, do not keep or modify them.
	Spans []Span
	// Entry is the index of the entry the row belongs to in the conversation.
	Entry int
	// Region numbers, within its entry, the region the row belongs to: a code block, a prose
	// passage, a tool call's output, a plan, a notice; a label or a tool call header is a
	// region of its own. Two rows are in the same region when Entry and Region are equal.
	Region int
	// Kind says what the row shows.
	Kind RowKind
	// Indent is the display indentation in cells, before the first span.
	Indent int
	// Cont says the row continues the line above it (the line was wrapped).
	Cont bool
}

// Width returns the cells the row takes, indentation included.
func (r Row) Width() int {
	w := r.Indent
	for _, s := range r.Spans {
		w += textWidth(s.Text)
	}
	return w
}

// Text returns the row's text, without its indentation.
func (r Row) Text() string {
	if len(r.Spans) == 1 {
		return r.Spans[0].Text
	}
	n := 0
	for _, s := range r.Spans {
		n += len(s.Text)
	}
	b := make([]byte, 0, n)
	for _, s := range r.Spans {
		b = append(b, s.Text...)
	}
	return string(b)
}
