package markdown

import "strings"

// Bounds on what one parse reads, so that the open segment of a streaming text is parsed
// again at a bounded cost, and hostile text renders in bounded time.
const (
	// maxSegLines and maxSegBytes cut a segment that finds no boundary: the lines after
	// the cut start a new one (a paragraph or a list goes on the same; a table cut there
	// goes on as its source).
	maxSegLines = 64
	maxSegBytes = 16 << 10
	// maxLineBytes: a longer line is a segment of its own, shown as written (goldmark's
	// inline parsing of a line of a megabyte of brackets, backticks or asterisks takes
	// minutes).
	maxLineBytes = 16 << 10
	// maxLineDelims and maxSegDelims bound the inline delimiters (` * _ ~ [ ] < !) a line
	// and a segment may hold to be parsed: goldmark's inline parsing takes a time that
	// grows with their square (4 KB of "[a](" take 17 ms, 16 KB half a second). A line
	// with more is a segment of its own, shown as written.
	maxLineDelims = 256
	maxSegDelims  = 1024
	// maxDepth is the deepest quote or list drawn: deeper ones are drawn at that depth.
	maxDepth = 8
	// maxNest bounds the container markers (quote marks, list markers and the spaces
	// between them) a line may start with to be parsed: a segment with a deeper line is
	// shown as written.
	maxNest = 200
	// maxBlank is the longest blank line that addBlanks appends without a parse (a longer
	// one may make its segment too deep, or long).
	maxBlank = 64
)

// State is the rendering of one text as it grows: the lines of its committed segments,
// which never change, then those of its open segment, then the line still arriving.
type State struct {
	base  string
	width int
	// lines are the lines from gone on: those before were committed and let go (Forget).
	lines []Line
	gone  int
	// committed lines, and the bytes of text they stand for; region and blocks are the
	// numbers the next region and the next fenced block take after them.
	nCommitted int
	off        int
	region     int
	blocks     int
	sized      bool
	fence      fence
	// The open segment: text[openFrom:openTo] rendered as lines [nCommitted,
	// nCommitted+nOpen), kept while its complete lines stay the same.
	openFrom, openTo, nOpen int
	openSized               bool
	openRegion              int // the region after the open segment's
	// openBlanks says blank lines after the open segment would only add blank lines to
	// its rendering (see blanksOnly), in region openBlank (-1: a new one, openRegion).
	openBlanks bool
	openBlank  int
	// scratch is the renderer, kept for its buffers.
	scratch *renderer
	// tail is the display of the line still arriving, kept as it grows; the line that
	// starts at scanFrom has no newline before scanned (a long word is not looked through
	// again at each Update for its end).
	tail              growing
	scanFrom, scanned int
}

// fence is an open fenced code block: its character, length, indentation, number and region.
type fence struct {
	open   bool
	ch     byte
	n      int
	indent int
	block  int
	region int
}

// New returns the state of an empty text whose plain prose takes class base.
func New(base string) *State {
	if base == "" {
		base = ClassText
	}
	return &State{base: base, width: -1}
}

// Lines returns the lines from Forgotten() on (all of them unless Forget was called); they
// are valid until the next Update.
func (st *State) Lines() []Line { return st.lines }

// Forgotten returns how many lines Forget let go of: Lines()[0] is line Forgotten().
func (st *State) Forgotten() int { return st.gone }

// Forget lets go of the committed lines, for a caller that has read them: they never change
// as the text grows (Update returns an index at or after them), and a streaming text's state
// so holds its open segment only. The indexes Update and Committed return stay those of all
// the lines; after a Reset (a width a line depends on, a text that is not the last one with
// more), the lines start again from 0.
func (st *State) Forget() {
	n := st.nCommitted - st.gone
	if n <= 0 {
		return
	}
	k := copy(st.lines, st.lines[n:])
	clear(st.lines[k:])
	st.lines = st.lines[:k]
	st.gone = st.nCommitted
}

// keepLines cuts the lines held to the first n of all the lines.
func (st *State) keepLines(n int) { st.lines = st.lines[:n-st.gone] }

// Committed returns how many of the lines are committed: they will not change as the
// text grows (they change when the width does, if Sized says one depends on it).
func (st *State) Committed() int { return st.nCommitted }

// Sized reports whether a line depends on the width.
func (st *State) Sized() bool { return st.sized || st.openSized }

// Base returns the class of plain prose the state was made with.
func (st *State) Base() string { return st.base }

// Reset forgets the text.
func (st *State) Reset() {
	lines := st.lines[:0]
	*st = State{base: st.base, width: -1, lines: lines, scratch: st.scratch}
}

// Update brings the lines to text, which is the text of the last call with more at its
// end (or anything, after Reset), laid out for width cells. With done, the text is
// complete: every line is committed, and a fence still open is closed. It returns the
// index of the first line that changed: the lines before it are those of the last call.
func (st *State) Update(text string, done bool, width int) int {
	width = max(width, 1)
	if len(text) < st.off || width != st.width && st.Sized() {
		st.Reset()
	}
	st.width = width
	changed := st.nCommitted + st.nOpen
	st.keepLines(changed)

	pos, segStart, nseg, delims := st.off, st.off, 0, 0
	prevBlank, prevHeading, prevLong := false, false, false
	// The last complete line outside code, where it starts, and whether it and the line
	// before it start with "|".
	lastStart, lastPipe, prevPipe := -1, false, false
	for pos < len(text) {
		// The line still arriving was looked through for its end up to scanned already.
		from := pos
		if pos == st.scanFrom {
			from = max(pos, min(st.scanned, len(text)))
		}
		end := strings.IndexByte(text[from:], '\n')
		if end >= 0 {
			end += from - pos
		}
		next := pos + end + 1
		if end < 0 {
			if !done {
				st.scanFrom, st.scanned = pos, len(text)
				break
			}
			end, next = len(text)-pos, len(text)
		}
		ln := text[pos : pos+end]
		if st.fence.open {
			st.codeLine(ln, pos)
			pos = next
			st.off, segStart = pos, pos
			continue
		}
		if ch, n, info, ind, ok := opensFence(ln); ok {
			changed = min(changed, st.commitSegment(text, segStart, pos))
			st.openFence(ln, pos, ch, n, ind, fenceLang(info))
			pos = next
			st.off, segStart, nseg, delims = pos, pos, 0, 0
			prevBlank, prevHeading, prevLong = false, false, false
			continue
		}
		blank := isBlank(ln)
		heading := isHeading(ln)
		nd := countDelims(ln)
		long := len(ln) > maxLineBytes || nd > maxLineDelims
		if pos > segStart && (nseg >= maxSegLines || pos-segStart >= maxSegBytes || delims+nd > maxSegDelims || long || prevLong ||
			!blank && (prevHeading || heading || prevBlank && ln[0] != ' ' && ln[0] != '\t')) {
			changed = min(changed, st.commitSegment(text, segStart, pos))
			segStart, nseg, delims = pos, 0, 0
			st.off = pos
		}
		prevBlank, prevHeading, prevLong = blank, heading, long
		if end < len(text)-pos {
			lastStart, prevPipe, lastPipe = pos, lastPipe, pipeLine(ln)
		}
		nseg++
		delims += nd
		pos = next
	}
	if done {
		changed = min(changed, st.commitSegment(text, segStart, pos))
		st.off = pos
		st.fence.open = false // a block left open ends with the text
		return changed
	}
	// The open segment: its complete lines, rendered again only when they changed, and
	// not when only blank lines were added. A last line that may be a table's header (it
	// starts with "|", the line before it does not) waits for the next one, which says
	// whether it is, shown as written as the line still arriving is.
	to := pos
	if lastStart >= segStart && lastPipe && (lastStart == segStart || !prevPipe) {
		to = lastStart
	}
	if (st.openFrom != segStart || st.openTo != to || st.nOpen == 0 && to > segStart) && !st.addBlanks(text, segStart, to) {
		changed = min(changed, st.nCommitted)
		st.keepLines(st.nCommitted)
		st.openFrom, st.openTo = segStart, to
		st.nOpen = 0
		st.openSized, st.openRegion, st.openBlanks = false, st.region, false
		if to > segStart {
			st.keepOpen(st.render(text[segStart:to], segStart, st.region))
		}
	}
	if to < pos {
		st.lines = append(st.lines, st.partial(strings.TrimSuffix(text[to:pos-1], "\r"), to))
	}
	if rest := text[pos:]; rest != "" {
		st.lines = append(st.lines, st.partial(rest, pos))
	}
	return changed
}

// pipeLine reports a line that starts with "|", after at most three spaces: a table's
// header, maybe.
func pipeLine(ln string) bool {
	n := leadingSpaces(ln)
	return n <= 3 && n < len(ln) && ln[n] == '|'
}

// commitSegment commits text[from:to] as a segment, reusing the lines of the open
// segment when it is the one rendered; it returns the first line that changed.
func (st *State) commitSegment(text string, from, to int) int {
	changed := st.nCommitted + st.nOpen
	if (st.openFrom != from || st.openTo != to || st.nOpen == 0 && to > from) && !st.addBlanks(text, from, to) {
		changed = st.nCommitted
		st.keepLines(st.nCommitted)
		if to > from {
			r := st.render(text[from:to], from, st.region)
			st.lines = append(st.lines, r.out...)
			st.nOpen, st.openSized, st.region = len(r.out), r.sized, r.region
		} else {
			st.nOpen, st.openSized = 0, false
		}
	} else if st.nOpen > 0 {
		st.region = st.openRegion
	}
	st.nCommitted += st.nOpen
	st.sized = st.sized || st.openSized
	st.keepLines(st.nCommitted)
	st.nOpen, st.openSized = 0, false
	st.openFrom, st.openTo, st.openRegion = to, to, st.region
	return changed
}

// keepOpen appends the lines of the open segment, rendered.
func (st *State) keepOpen(r *renderer) {
	st.nOpen = len(r.out)
	st.openSized, st.openRegion = r.sized, r.region
	st.openBlanks, st.openBlank = r.blanks, r.blankTail
	st.lines = append(st.lines, r.out...)
}

// addBlanks brings the open segment, text[from:st.openTo], to text[from:to] when what
// was added is blank lines that render as blank lines after it (openBlanks): it appends
// them as rendering text[from:to] whole would, and reports whether it did. A reply's
// blocks end with a blank line, so the last rendering of each is saved.
func (st *State) addBlanks(text string, from, to int) bool {
	if !st.openBlanks || st.nOpen == 0 || st.openFrom != from || st.openTo >= to ||
		st.gone+len(st.lines) != st.nCommitted+st.nOpen {
		return false
	}
	for p := st.openTo; p < to; {
		end := strings.IndexByte(text[p:to], '\n')
		if end < 0 {
			end = to - p
		}
		if end > maxBlank || !isBlank(text[p:p+end]) {
			return false
		}
		p += end + 1
	}
	for p := st.openTo; p < to; {
		end := strings.IndexByte(text[p:to], '\n')
		if end < 0 {
			end = to - p
		}
		if st.openBlank < 0 {
			st.openBlank = st.openRegion
			st.openRegion++
		}
		st.lines = append(st.lines, Line{Raw: text[p : p+end], Off: p, Kind: KindBlank, Region: st.openBlank, Block: -1})
		st.nOpen++
		p += end + 1
	}
	st.openTo = to
	return true
}

// openFence commits the line that opens a fenced block: a thin header with its language.
func (st *State) openFence(ln string, off int, ch byte, n, indent int, lang string) {
	st.fence = fence{open: true, ch: ch, n: n, indent: indent, block: st.blocks, region: st.region}
	st.blocks++
	st.region++
	st.openRegion = st.region
	head := "──"
	if lang != "" {
		head = "── " + clean(lang) + " ──"
	}
	st.lines = append(st.lines, Line{Spans: []Span{{Text: head, Class: ClassMarker}}, Raw: ln, Off: off,
		Kind: KindFenceOpen, Region: st.fence.region, Block: st.fence.block, Lang: lang, Findent: indent})
	st.nCommitted++
	st.openFrom, st.openTo = off+len(ln)+1, off+len(ln)+1
}

// codeLine commits a complete line inside a fenced block: code, or the fence that closes it.
func (st *State) codeLine(ln string, off int) {
	f := &st.fence
	if closesFence(ln, f.ch, f.n) {
		f.open = false
		st.lines = append(st.lines, Line{Spans: []Span{{Text: "", Class: st.base}}, Raw: ln, Off: off,
			Kind: KindFenceClose, Region: f.region, Block: f.block})
	} else {
		st.lines = append(st.lines, st.code(ln, off))
	}
	st.nCommitted++
	st.openFrom, st.openTo = off+len(ln)+1, off+len(ln)+1
}

// code is a line of the open fenced block.
func (st *State) code(ln string, off int) Line {
	c := stripSpaces(ln, st.fence.indent)
	at := off + len(ln) - len(c)
	return Line{Spans: []Span{{Text: st.tail.show(c, at), Class: ClassText}}, Raw: c, Off: at,
		Kind: KindCode, Region: st.fence.region, Block: st.fence.block}
}

// partial is the line still arriving, shown as written until it is complete.
func (st *State) partial(ln string, off int) Line {
	if st.fence.open {
		return st.code(ln, off)
	}
	if isBlank(ln) {
		return Line{Raw: ln, Off: off, Kind: KindBlank, Region: st.openRegion, Block: -1}
	}
	region := st.openRegion
	if n := len(st.lines); st.nOpen > 0 && st.lines[n-1].Kind != KindBlank {
		region = st.lines[n-1].Region // it goes on with the open block, most likely
	}
	t := st.tail.show(ln, off)
	return Line{Spans: []Span{{Text: t, Class: st.base}}, Raw: ln, Off: off, Kind: KindText,
		Region: region, Wrap: true, Cont: hangingIndent(t), Block: -1}
}
