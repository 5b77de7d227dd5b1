package markdown

import (
	"sort"
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// md is the parser: CommonMark with GitHub's tables, task lists and strikethrough (not its
// bare links, whose search costs a tenth of the parse of every block). goldmark's Markdown
// is safe for concurrent use.
var md = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList))

// renderer draws one segment of a text.
type renderer struct {
	base  string
	width int
	src   string
	bsrc  []byte // src, as goldmark reads it
	off   int    // where the segment starts in the text
	start []int  // where each of its lines starts in src
	out   []Line
	sized bool

	// region is the number the next region takes, cur the region of the block drawn;
	// newBlock says the next line starts a top-level block.
	region, cur int
	newBlock    bool
	blankReg    int
	haveBlank   bool
	// mapped: the source lines before it have a line; pending is the first of the source
	// lines that wait for the next line to carry them (-1 for none).
	mapped, pending int

	// The prefixes of the lines drawn inside quotes and list items: first for the next
	// line, rest for the lines after it; depth counts the containers.
	first, rest []Span
	depth       int
	lists       int

	// The line being built from inline content, and the source line it starts on.
	spans   []Span
	lineSrc int
	// The last of spans is src[lastFrom:lastTo] (lastTo -1 when it is not a slice of src).
	lastFrom, lastTo int

	// arena holds the spans of the lines drawn, a chunk at a time (see spanBuf).
	arena []Span
	// Buffers of table: a row being drawn, the cells of the rows, the rows, the rows of
	// each cell of a row once wrapped, and those of the cells that fit on one.
	tline  []Span
	tcells [][]Span
	trows  []tableRow
	twrap  [][][]Span
	tone   [][]Span

	// blanks says blank lines after src would render as blank lines after its lines (see
	// blanksOnly), in region blankTail (-1 for a new one).
	blanks    bool
	blankTail int
}

// spanBuf returns an empty slice with room for n spans, for a line's spans: lines take
// their spans from chunks shared by the lines of a segment, rather than one allocation
// each. Its capacity is n, so that an append past it does not write over the next line's.
func (r *renderer) spanBuf(n int) []Span {
	if cap(r.arena)-len(r.arena) < n {
		r.arena = make([]Span, 0, max(n, min(2*cap(r.arena), 256), 4*len(r.start)))
	}
	k := len(r.arena)
	r.arena = r.arena[:k+n]
	return r.arena[k : k : k+n]
}

// value returns the text of a segment of src.
func (r *renderer) value(s text.Segment) string {
	if s.Padding == 0 && !s.ForceNewline {
		return r.src[s.Start:s.Stop]
	}
	return string(s.Value(r.bsrc))
}

// style is how inline text is drawn: a class, and the address of the link it is in.
type style struct {
	cls string
	url string
}

// rank orders the classes inline markup may nest: the higher wins.
var rank = map[string]int{ClassHeading: 1, ClassStrike: 2, ClassEmphasis: 3, ClassStrong: 4, ClassLink: 5, ClassCode: 6}

func (s style) with(cls string) style {
	if rank[cls] > rank[s.cls] {
		s.cls = cls
	}
	return s
}

// render returns the lines of src, a segment that starts at byte off of the text, its
// regions numbered from region. The renderer is the state's, made again: it is valid until
// the next render, its lines' spans for good.
func (st *State) render(src string, off, region int) *renderer {
	r := st.scratch
	if r == nil {
		r = new(renderer)
		st.scratch = r
	}
	*r = renderer{base: st.base, width: st.width, src: src, off: off, region: region, pending: -1, lineSrc: -1,
		newBlock: true, start: r.start[:0], out: r.out[:0], spans: r.spans[:0], bsrc: r.bsrc[:0],
		tline: r.tline[:0], tcells: r.tcells[:0], trows: r.trows[:0], twrap: r.twrap[:0], tone: r.tone[:0],
		// What the last render left of its chunk of spans: a new chunk for each render of a
		// segment of 64 lines took 256 spans for the 64 it used, the largest part of what
		// laying out a flood allocated.
		arena: r.arena[len(r.arena):]}
	r.start = append(r.start, 0)
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' && i+1 < len(src) {
			r.start = append(r.start, i+1)
		}
	}
	if r.tooDeep() {
		r.newBlock = true
		r.plain(0, len(r.start))
		return r
	}
	if n := r.plainParagraph(); n > 0 && !goldmarkOnly {
		// What goldmark makes of it, drawn without it: a paragraph of one text per line.
		r.newBlock = true
		for k := range n {
			r.text(r.line(k), r.start[k], style{cls: r.base})
			r.breakLine(KindText)
		}
	} else {
		r.bsrc = append(r.bsrc, src...)
		doc := md.Parser().Parse(text.NewReader(r.bsrc))
		for c := doc.FirstChild(); c != nil; c = c.NextSibling() {
			r.newBlock = true
			r.block(c)
		}
	}
	r.newBlock = true // blank lines after the last block are a region of their own
	r.fill(len(r.start))
	if r.pending >= 0 { // source lines that show nothing, and no line to carry them
		r.newBlock = true
		p := r.pending
		r.pending = -1
		r.mapped = p
		r.plain(p, len(r.start))
		return r
	}
	r.blanks, r.blankTail = blanksOnly(src), -1
	if r.haveBlank {
		r.blankTail = r.blankReg
	}
	return r
}

// goldmarkOnly turns off the plain paragraph's own path (plainParagraph), for the tests
// that compare it with goldmark's.
var goldmarkOnly = false

// plainParagraph returns the lines of a segment that is one paragraph of plain prose,
// then blank lines only (0 when it is anything else): each line starts with an ASCII
// letter, ends with no space, and holds printable ASCII but none of the characters that
// start inline markup, a table's cell, an entity or an escape. goldmark draws such a
// paragraph as one text per line, which the renderer draws as the line itself: the prose
// an agent streams, and most of what a flood holds, are drawn without a parse (goldmark's
// nodes were the largest part of what laying out a flood allocated, and its parse the most
// of the time; TestPlainParagraphIsDrawnAsGoldmarkDoes compares the two).
func (r *renderer) plainParagraph() int {
	n := 0
	for k := range r.start {
		ln := r.line(k)
		if isBlank(ln) {
			if k == 0 {
				return 0
			}
			if n == 0 {
				n = k
			}
			continue
		}
		if n > 0 || !plainLine(ln) {
			return 0
		}
	}
	if n == 0 {
		n = len(r.start)
	}
	return n
}

// plainLine reports a line of plain prose (plainParagraph).
func plainLine(ln string) bool {
	if c := ln[0] | 0x20; c < 'a' || c > 'z' || ln[len(ln)-1] == ' ' {
		return false
	}
	for i := 0; i < len(ln); i++ {
		switch c := ln[i]; {
		case c < 0x20 || c > 0x7e:
			return false
		case c == '*' || c == '_' || c == '`' || c == '[' || c == ']' || c == '!' || c == '<' ||
			c == '>' || c == '\\' || c == '&' || c == '~' || c == '|':
			return false
		}
	}
	return true
}

// blanksOnly reports whether blank lines after src cannot change how src renders, nor be
// drawn but as blank lines after it: src holds no fence (a fenced block in a list item
// goes on past a blank line) and no line that starts with "<" after its container markers
// (nor an HTML block, some kinds of which go on past blank lines). The blocks left are
// closed by a blank line, and goldmark leaves out of an indented code block the blank
// lines that end it.
func blanksOnly(src string) bool {
	if strings.Contains(src, "```") || strings.Contains(src, "~~~") {
		return false
	}
	for p := 0; p < len(src); p++ {
		k := p + nesting(src[p:], maxNest)
		if k < len(src) && src[k] == '<' {
			return false
		}
		e := strings.IndexByte(src[k:], '\n')
		if e < 0 {
			break
		}
		p = k + e
	}
	return true
}

// tooDeep reports a line that starts with more container markers than maxNest, or that
// is longer than maxLineBytes or holds more than maxLineDelims delimiters.
func (r *renderer) tooDeep() bool {
	for k := range r.start {
		if ln := r.line(k); len(ln) > maxLineBytes || nesting(ln, maxNest) > maxNest || countDelims(ln) > maxLineDelims {
			return true
		}
	}
	return false
}

// line returns source line k, without its newline.
func (r *renderer) line(k int) string {
	end := len(r.src)
	if k+1 < len(r.start) {
		end = r.start[k+1] - 1
	}
	return strings.TrimSuffix(r.src[r.start[k]:end], "\n")
}

// lineOf returns the source line that holds byte p of src (-1 for p < 0).
func (r *renderer) lineOf(p int) int {
	if p < 0 || p > len(r.src) {
		return -1
	}
	return sort.SearchInts(r.start, p+1) - 1
}

// plain draws source lines [from, to) as they are written.
func (r *renderer) plain(from, to int) {
	for k := from; k < to; k++ {
		ln := r.line(k)
		if isBlank(ln) {
			r.emit(Line{Kind: KindBlank}, k)
			continue
		}
		t := display(ln)
		r.emit(Line{Spans: append(r.spanBuf(1), Span{Text: t, Class: r.base}), Kind: KindText, Wrap: true, Cont: hangingIndent(t)}, k)
	}
}

// emit appends a line that stands for source line s (-1, or a line that already has one:
// the line is drawn only). The source lines before s that have no line yet are blank
// lines, or go with the line before (or, when there is none, with this one).
func (r *renderer) emit(l Line, s int) {
	l.Block = -1
	if s >= r.mapped && s < len(r.start) {
		r.fill(s)
		from := s
		if r.pending >= 0 {
			from, r.pending = r.pending, -1
		}
		l.Raw, l.Off = r.between(from, s), r.off+r.start[from]
		r.mapped = s + 1
	} else {
		l.NoCopy, l.Raw = true, ""
		switch { // where its source line starts, or the next source line to be drawn
		case s >= 0 && s < len(r.start):
			l.Off = r.off + r.start[s]
		case r.mapped < len(r.start):
			l.Off = r.off + r.start[r.mapped]
		default:
			l.Off = r.off + len(r.src)
		}
	}
	if r.newBlock {
		r.cur = r.region
		r.region++
		r.newBlock, r.haveBlank = false, false
	}
	l.Region = r.cur
	r.out = append(r.out, l)
}

// between returns source lines [a, b], joined by newlines.
func (r *renderer) between(a, b int) string {
	end := len(r.src)
	if b+1 < len(r.start) {
		end = r.start[b+1] - 1
	}
	return strings.TrimSuffix(r.src[r.start[a]:end], "\n")
}

// fill gives the source lines [mapped, s) a place: a blank line is drawn blank; another
// (a link definition, a table's delimiter, a setext underline) joins the Raw of the last
// line that has one, or waits for the next.
func (r *renderer) fill(s int) {
	for k := r.mapped; k < s; k++ {
		switch {
		case r.pending >= 0:
		case isBlank(r.line(k)):
			reg := r.cur
			if r.newBlock {
				if !r.haveBlank {
					r.blankReg, r.haveBlank = r.region, true
					r.region++
				}
				reg = r.blankReg
			}
			r.out = append(r.out, Line{Raw: r.line(k), Off: r.off + r.start[k], Kind: KindBlank, Region: reg, Block: -1})
		default:
			if p := r.lastCopy(); p >= 0 {
				r.out[p].Raw = r.src[r.out[p].Off-r.off : r.start[k]+len(r.line(k))]
			} else {
				r.pending = k
			}
		}
	}
	r.mapped = max(r.mapped, s)
}

// lastCopy returns the last line that has a Raw (-1 for none).
func (r *renderer) lastCopy() int {
	for i := len(r.out) - 1; i >= 0; i-- {
		if !r.out[i].NoCopy {
			return i
		}
	}
	return -1
}

// maxCont bounds how far the rows of a wrapped line are indented (the caller gives way
// on a narrow width as well): it does not depend on the width, so that only tables and
// rules do.
const maxCont = 16

// prefixed returns the prefix of the next line followed by spans; the lines after it take
// the rest prefix.
func (r *renderer) prefixed(spans []Span) ([]Span, int) {
	out := r.spanBuf(len(r.first) + len(spans))
	out = append(out, r.first...)
	out = append(out, spans...)
	r.first = r.rest
	return out, min(spansWidth(r.rest), maxCont)
}

// enter starts a container whose first line starts with first and the others with rest.
func (r *renderer) enter(first, rest string) func() {
	oldFirst, oldRest, depth, n := r.first, r.rest, r.depth, len(r.out)
	r.depth++
	if r.depth <= maxDepth {
		r.first = append(append(r.spanBuf(len(r.first)+1), r.first...), Span{Text: first, Class: ClassMarker})
		r.rest = append(append(r.spanBuf(len(r.rest)+1), r.rest...), Span{Text: rest, Class: ClassMarker})
	}
	return func() {
		if len(r.out) == n {
			r.first = oldFirst
		} else {
			r.first = oldRest
		}
		r.rest, r.depth = oldRest, depth
	}
}

// block draws a block node.
func (r *renderer) block(n ast.Node) {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		r.inlines(n, style{cls: r.base}, KindText)
	case *ast.Heading:
		r.inlines(n, style{cls: ClassHeading}, KindHeading)
	case *ast.ThematicBreak:
		w := max(1, min(r.width-spansWidth(r.first), 200))
		spans, _ := r.prefixed([]Span{{Text: strings.Repeat("─", w), Class: ClassMarker}})
		r.sized = true
		r.emit(Line{Spans: spans, Kind: KindRule, Sized: true}, r.lineOf(n.Pos()))
	case *ast.FencedCodeBlock:
		head := "──"
		if lang := clean(string(n.Language(r.bsrc))); lang != "" {
			head = "── " + lang + " ──"
		}
		spans, _ := r.prefixed([]Span{{Text: head, Class: ClassMarker}})
		r.emit(Line{Spans: spans, Kind: KindText}, -1)
		r.code(n)
	case *ast.CodeBlock:
		r.code(n)
	case *ast.HTMLBlock:
		r.code(n)
		if n.HasClosure() {
			c := n.ClosureLine
			r.codeLine(r.src[c.Start:c.Stop], c.Start, r.base)
		}
	case *ast.Blockquote:
		leave := r.enter("│ ", "│ ")
		r.children(n)
		leave()
	case *ast.List:
		r.list(n)
	case *east.Table:
		r.table(n)
	default:
		r.children(n)
	}
}

// children draws a container's children; one with none draws its prefix alone.
func (r *renderer) children(n ast.Node) {
	if n.FirstChild() == nil {
		spans, _ := r.prefixed(nil)
		r.emit(Line{Spans: spans, Kind: KindText}, r.lineOf(n.Pos()))
		return
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		r.block(c)
	}
}

// bullets are the marks of unordered list items, by depth.
var bullets = [...]string{"• ", "◦ ", "▪ "}

// list draws a list: each item's first line after its bullet, number or task box.
func (r *renderer) list(n *ast.List) {
	r.lists++
	defer func() { r.lists-- }()
	num := n.Start
	for item := n.FirstChild(); item != nil; item = item.NextSibling() {
		var mark string
		switch {
		case n.IsOrdered():
			mark = strconv.Itoa(num) + string(n.Marker) + " "
			num++
		case hasTaskBox(item):
			mark = "" // the box is the mark
		default:
			mark = bullets[(r.lists-1)%len(bullets)]
		}
		leave := r.enter(mark, strings.Repeat(" ", width(mark)))
		r.children(item)
		leave()
	}
}

// hasTaskBox reports a list item that starts with a task box.
func hasTaskBox(item ast.Node) bool {
	if c := item.FirstChild(); c != nil {
		if b := c.FirstChild(); b != nil {
			_, ok := b.(*east.TaskCheckBox)
			return ok
		}
	}
	return false
}

// code draws the lines of a code block (indented, or fenced inside a container) as they
// are written.
func (r *renderer) code(n ast.Node) {
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		r.codeLine(r.value(seg), seg.Start, ClassCode)
	}
}

func (r *renderer) codeLine(s string, at int, cls string) {
	s = strings.TrimRight(s, "\r\n")
	spans, _ := r.prefixed([]Span{{Text: display(s), Class: cls}})
	r.emit(Line{Spans: spans, Kind: KindText}, r.lineOf(at))
}

// inlines draws a leaf block's inline content: a line for each of its source lines.
func (r *renderer) inlines(n ast.Node, s style, kind Kind) {
	r.spans, r.lineSrc = r.spans[:0], -1
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		r.inline(c, s, kind)
	}
	if len(r.spans) > 0 || r.lineSrc >= 0 || n.FirstChild() == nil {
		if r.lineSrc < 0 {
			r.lineSrc = r.lineOf(n.Pos())
		}
		r.breakLine(kind)
	}
}

// breakLine ends the line being built.
func (r *renderer) breakLine(kind Kind) {
	spans, cont := r.prefixed(r.spans)
	r.emit(Line{Spans: spans, Kind: kind, Wrap: true, Cont: cont}, r.lineSrc)
	r.spans, r.lineSrc = r.spans[:0], -1
}

// text adds text drawn in s; at is where it starts in src (-1 when it is not there as is).
// Text that goes on a span of the same style, right after it in src, extends that span's
// slice of src rather than being copied onto it.
func (r *renderer) text(t string, at int, s style) {
	if r.lineSrc < 0 && at >= 0 {
		r.lineSrc = r.lineOf(at)
	}
	verbatim := at >= 0 && !NeedsDisplay(t) && at+len(t) <= len(r.src) && r.src[at:at+len(t)] == t
	if !verbatim {
		t = clean(t)
	}
	if t == "" {
		return
	}
	if k := len(r.spans) - 1; k >= 0 && r.spans[k].Class == s.cls && r.spans[k].URL == s.url {
		if verbatim && r.lastTo == at {
			r.lastTo = at + len(t)
			r.spans[k].Text = r.src[r.lastFrom:r.lastTo]
			return
		}
		r.spans[k].Text += t
		r.lastTo = -1
		return
	}
	r.spans = append(r.spans, Span{Text: t, Class: s.cls, URL: s.url})
	r.lastFrom, r.lastTo = at, -1
	if verbatim {
		r.lastTo = at + len(t)
	}
}

// inline draws an inline node.
func (r *renderer) inline(n ast.Node, s style, kind Kind) {
	switch n := n.(type) {
	case *ast.Text:
		r.text(r.value(n.Segment), n.Segment.Start, s)
		if n.SoftLineBreak() || n.HardLineBreak() {
			r.breakLine(kind)
		}
		return
	case *ast.String:
		r.text(string(n.Value), -1, s)
		return
	case *ast.CodeSpan:
		s = s.with(ClassCode)
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch t := c.(type) {
			case *ast.Text:
				r.text(r.value(t.Segment), t.Segment.Start, s)
			case *ast.String:
				r.text(string(t.Value), -1, s)
			}
		}
		return
	case *ast.Emphasis:
		if n.Level >= 2 {
			s = s.with(ClassStrong)
		} else {
			s = s.with(ClassEmphasis)
		}
	case *east.Strikethrough:
		s = s.with(ClassStrike)
	case *ast.Link:
		s = s.with(ClassLink)
		s.url = cleanURL(string(n.Destination))
	case *ast.Image:
		s = s.with(ClassLink)
		s.url = cleanURL(string(n.Destination))
	case *ast.AutoLink:
		url := string(n.URL(r.bsrc))
		if n.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(url), "mailto:") {
			url = "mailto:" + url
		}
		r.text(string(n.Label(r.bsrc)), n.Pos(), style{cls: s.with(ClassLink).cls, url: cleanURL(url)})
		return
	case *ast.RawHTML:
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			r.text(r.value(seg), seg.Start, s)
		}
		return
	case *east.TaskCheckBox:
		box := "☐ "
		if n.IsChecked {
			box = "☑ "
		}
		r.text(box, -1, style{cls: ClassMarker})
		return
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		r.inline(c, s, kind)
	}
}
