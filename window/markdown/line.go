package markdown

// Span is a piece of a line drawn in one class. URL is the address of a link ("" for
// none): the drawer makes it a hyperlink where the terminal supports them.
type Span struct {
	Text  string
	Class string
	URL   string
}

// Kind says what a line shows.
type Kind uint8

// The kinds of lines.
const (
	KindBlank      Kind = iota // an empty line
	KindText                   // prose: a paragraph, a list item, a quote, a heading's text
	KindHeading                // a heading
	KindFenceOpen              // the header of a fenced code block: its language
	KindCode                   // a line of a fenced code block
	KindFenceClose             // where a fenced code block ends
	KindTable                  // a row of a table, or one of its borders
	KindRule                   // a thematic break
)

// Line is one line to show: wrapped at the width by the caller when Wrap is set, else cut
// where the width ends (a table's rows and a rule already fit the width they were made for).
type Line struct {
	Spans []Span
	// Raw is the source the line stands for, as written ("" when NoCopy): its source
	// line, and the source lines around it that show nothing (a table's delimiter row, a
	// link definition, a setext underline), joined by newlines. Off is where it starts in
	// the text (for a NoCopy line, where the source of the next line drawn starts). A
	// code line's Raw has the fence's indentation removed.
	Raw    string
	Off    int
	NoCopy bool
	Kind   Kind
	// Region numbers the top-level block the line belongs to: a paragraph, a list, a
	// quote, a table, a code block, a run of blank lines. It counts from 0 for the text.
	Region int
	// Cont is how far the rows of a wrapped line are indented, in cells: under the text
	// of a list item or a quote.
	Cont int
	Wrap bool
	// Block numbers the fenced code blocks of the text (KindFenceOpen, KindCode,
	// KindFenceClose); -1 for other lines. Lang and Findent are the block's language and
	// the indentation of its fence (KindFenceOpen).
	Block   int
	Lang    string
	Findent int
	// Sized says the line was made for the width (a table, a rule).
	Sized bool
}

// Text returns the line's text, spans joined.
func (l *Line) Text() string {
	if len(l.Spans) == 1 {
		return l.Spans[0].Text
	}
	n := 0
	for _, s := range l.Spans {
		n += len(s.Text)
	}
	b := make([]byte, 0, n)
	for _, s := range l.Spans {
		b = append(b, s.Text...)
	}
	return string(b)
}
