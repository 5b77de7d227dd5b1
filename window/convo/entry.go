package convo

import (
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/safetext"
	"git.rickub.com/bots-garden/sidekicks/window/markdown"
	"github.com/alecthomas/chroma/v2"
)

// entryView is what the view keeps of one entry: its lines (which depend on the entry and,
// for the label, on the entry before it) and its rows (which depend on the width too).
type entryView struct {
	seq    int64
	rev    uint64
	kind   chat.EntryKind
	author string
	done   bool
	text   string // the text the lines were read from
	lost   int64
	tool   *chat.ToolCall
	// interrupted: the entry was cut by Sidekicks stopping (chat.Entry.Interrupted).
	interrupted bool

	// lines is the head (spacer, labels), then the body, then the foot (what was lost). Of
	// a text entry's body, the first nBody lines are committed (md.Committed); nProv more
	// are those of its last, still open block and of the line still arriving.
	lines               []line
	nHead, nBody, nProv int
	blocks              []block
	// md renders a text entry's Markdown while it streams (a done entry lets it go), at
	// mdWidth cells (the width less the body's indentation); sized says a line was drawn
	// for the width (a table): it is drawn again when the width changes. bodyRegion is the region of its first line; hl the Highlighter its
	// closed code blocks take their highlighting from.
	md         *markdown.State
	sized      bool
	mdWidth    int
	bodyRegion int32
	hl         *Highlighter

	// rows are the lines wrapped at width; lineRow[i] is the first row of line i.
	width   int
	rows    []wrow
	lineRow []int32

	diffs []diffMemo

	// fold is the marker's line when the entry shows folded (fold.go), foldTo the line
	// after the last it hides.
	fold   line
	foldTo int32

	// parked: the entry is far from the viewport and its layout (text, lines, rows, blocks)
	// was let go; the view keeps its row count and reads it again from the Source when it
	// is needed (View.ensure). held is the lines and rows it counted for while it was laid
	// out, queued that it is in the view's queue of laid-out entries, shown the view's
	// count of frames (View.frames) after the last one that showed it.
	parked bool
	queued bool
	held   int
	shown  uint64
	// laidAt is the view's tick when the entry was last laid out: one laid out in this
	// Sync is not parked before a frame could show it.
	laidAt uint64

	// renders and wraps count full renders and full re-wraps, for tests.
	renders, wraps int
}

// park lets go of everything but what says which entry this is and its row count (and
// whether it is still in the view's queue; what it weighs there is the caller's to settle).
func (ev *entryView) park() {
	*ev = entryView{seq: ev.seq, rev: ev.rev, kind: ev.kind, author: ev.author, done: ev.done,
		width: ev.width, parked: true, queued: ev.queued, renders: ev.renders, wraps: ev.wraps}
}

// unread reports an entry the view has counted but never read (View.appendUnread; nil in
// View.ents until it is needed): its Seq is not known yet, and its row count is an estimate.
func (ev *entryView) unread() bool { return ev == nil || ev.parked && ev.seq == 0 }

// cost is what the entry's layout weighs, in lines and rows.
func (ev *entryView) cost() int { return len(ev.lines) + len(ev.rows) + len(ev.blocks) }

// block is a fenced code block of a text entry.
type block struct {
	lang        string
	findent     int
	first, end  int32 // its code lines: lines[first:end]
	closed      bool
	state       hlState
	key         hlKey
	lx          chroma.Lexer
	requestedAt uint64 // the highlighter's generation when the view asked
}

// hlState is where a block's highlighting stands.
type hlState uint8

const (
	hlNone    hlState = iota // not asked yet (or still streaming)
	hlPlain                  // stays plain: no lexer, too large, or chroma gave up
	hlPending                // asked; the Highlighter has it
	hlDone                   // its lines carry the classes
)

// renderCtx is what rendering an entry needs besides the entry.
type renderCtx struct {
	opts *Options
	// prev is the entry before this one (nil for the first): it decides the spacer and
	// whether the speaker's label is shown.
	prevKind   chat.EntryKind
	prevAuthor string
	first      bool
	// width is the view's: a table is drawn for it.
	width int
}

func isTextKind(k chat.EntryKind) bool {
	return k == chat.KindUser || k == chat.KindAgent || k == chat.KindThought
}

// update brings the entry's lines and rows to e at width: reading only what a streaming text
// appended when it can, the whole entry otherwise.
func (ev *entryView) update(e chat.Entry, rc *renderCtx, width int) {
	rc.width = width
	if ev.canExtend(e) {
		ev.extend(e, rc, width)
		return
	}
	ev.render(e, rc)
	ev.rewrap(width)
}

// canExtend reports whether e only appended text to what the lines were read from.
func (ev *entryView) canExtend(e chat.Entry) bool {
	return ev.lines != nil && !ev.done && e.Seq == ev.seq && e.Kind == ev.kind && isTextKind(e.Kind) &&
		hasPrefix(e.Text, ev.text)
}

// hasPrefix is strings.HasPrefix made cheap for a streaming entry: while the chat model's
// builder has room, the new text and the old one share their first byte, and then the old
// one is a prefix without looking (Go strings are immutable).
func hasPrefix(s, p string) bool {
	if len(s) < len(p) {
		return false
	}
	if len(p) == 0 || unsafe.StringData(s) == unsafe.StringData(p) {
		return true
	}
	return s[:len(p)] == p
}

// render reads the whole entry again.
func (ev *entryView) render(e chat.Entry, rc *renderCtx) {
	md := ev.md
	*ev = entryView{seq: e.Seq, rev: e.Rev, kind: e.Kind, author: e.Author, done: e.Done, text: e.Text,
		lost: e.Lost, tool: e.Tool, interrupted: e.Interrupted, lines: ev.lines[:0], rows: ev.rows[:0], lineRow: ev.lineRow[:0], diffs: ev.diffs,
		renders: ev.renders + 1, wraps: ev.wraps, queued: ev.queued, held: ev.held, shown: ev.shown}
	ev.appendHead(e, rc)
	ev.nHead = len(ev.lines)
	ev.bodyRegion = ev.nextRegion()
	switch e.Kind {
	case chat.KindUser, chat.KindAgent, chat.KindThought:
		if md != nil && md.Base() == textBase(e.Kind) {
			md.Reset()
			ev.md = md
		}
		ev.parse(rc.opts.Highlighter, rc.width)
	case chat.KindToolCall:
		ev.renderTool(e, rc)
	case chat.KindPlan:
		ev.renderPlan(e, rc)
	default: // notices, and kinds this view does not know, as text in the error colour
		ev.renderNotice(e)
	}
	ev.appendFoot(rc)
}

// extend reads what a streaming text appended: the lines of the blocks committed stay, those
// of the last, still open block are read again when one of its lines is complete, and the
// line still arriving keeps its rows but the last two when it only grew (resumeRow).
func (ev *entryView) extend(e chat.Entry, rc *renderCtx, width int) {
	sameWidth := ev.width == width && len(ev.lineRow) == len(ev.lines)
	// The line still arriving, and its rows: if it is the first line that changes and it
	// only grew, its first rows stay.
	last := ev.nHead + ev.nBody + ev.nProv - 1
	var prev line
	var prevRows []wrow
	if ev.nProv > 0 && sameWidth {
		prev = ev.lines[last]
		end := len(ev.rows)
		if last+1 < len(ev.lineRow) {
			end = int(ev.lineRow[last+1])
		}
		prevRows = ev.rows[ev.lineRow[last]:end]
	}
	ev.rev, ev.done, ev.text, ev.lost, ev.interrupted = e.Rev, e.Done, e.Text, e.Lost, e.Interrupted
	keep := ev.parse(rc.opts.Highlighter, width)
	ev.appendFoot(rc)
	if !sameWidth {
		ev.rewrap(width)
		return
	}
	rowsAt := len(ev.rows)
	if keep < len(ev.lineRow) {
		rowsAt = int(ev.lineRow[keep])
	}
	ev.lineRow = ev.lineRow[:keep]
	from := keep
	if len(prevRows) > 0 && keep == last && keep < len(ev.lines) && grew(&prev, &ev.lines[keep]) {
		// The rows of the line before resumeRow stay as they are.
		k := resumeRow(prevRows)
		ev.rows = ev.rows[:rowsAt+k]
		ev.lineRow = append(ev.lineRow, int32(rowsAt))
		ev.rows = wrapLine(ev.rows, keep, &ev.lines[keep], width, int(prevRows[k].start))
		from = keep + 1
	} else {
		ev.rows = ev.rows[:rowsAt]
	}
	ev.lineRow = grow(ev.lineRow, len(ev.lines)-from)
	ev.rows = grow(ev.rows, len(ev.lines)-from) // a row a line, mostly
	for i := from; i < len(ev.lines); i++ {
		ev.lineRow = append(ev.lineRow, int32(len(ev.rows)))
		ev.rows = wrapLine(ev.rows, i, &ev.lines[i], width, 0)
	}
	ev.fit()
}

// grow returns s with room for n more elements, twice its capacity when it has to move:
// a streaming entry's lines and rows grow a chunk at a time, and append's growth of a
// quarter for large slices copied a 40,000-line reply's lines about twenty times (a fifth
// of what a flood's layout allocated); fit gives the spare room back once the entry is done.
func grow[T any](s []T, n int) []T {
	if cap(s)-len(s) >= n {
		return s
	}
	return append(make([]T, 0, max(len(s)+n, 2*cap(s))), s...)
}

// grew reports whether b is a, with more text at its end and shown the same way. A line
// that ended in the middle of a UTF-8 sequence (the chat model never gives one, a Source
// might) did not only grow: its last bytes may now be part of a character.
func grew(a, b *line) bool {
	if r, size := utf8.DecodeLastRuneInString(a.text); r == utf8.RuneError && size == 1 {
		return false
	}
	return a.kind == b.kind && a.region == b.region && a.indent == b.indent && a.cont == b.cont &&
		a.word == b.word && a.cls == b.cls && a.runs() == nil && b.runs() == nil && a.off == b.off &&
		hasPrefix(b.text, a.text)
}

// rewrap wraps every line at width; a text with a table is drawn again for it first.
func (ev *entryView) rewrap(width int) {
	if ev.sized && ev.mdWidth != bodyWidth(width) {
		body := ev.nHead + ev.nBody + ev.nProv
		foot := slices.Clone(ev.lines[body:])
		ev.lines = ev.lines[:body]
		ev.parse(ev.hl, width)
		ev.lines = append(ev.lines, foot...)
	}
	ev.wraps++
	ev.width = width
	// A line is at least one row: the rows of lines that each take one are made at their
	// count.
	ev.rows = slices.Grow(ev.rows[:0], len(ev.lines))
	ev.lineRow = slices.Grow(ev.lineRow[:0], len(ev.lines))
	for i := range ev.lines {
		ev.lineRow = append(ev.lineRow, int32(len(ev.rows)))
		ev.rows = wrapLine(ev.rows, i, &ev.lines[i], width, 0)
	}
	ev.fit()
}

// fit lets go of the room a done entry's layout grew into: its lines, rows and blocks are
// kept at their length (within 1/16), as a view may hold many. An entry still streaming
// keeps its room, so that appending to it stays linear; the room goes when it is done.
func (ev *entryView) fit() {
	if !ev.done {
		return
	}
	if isTextKind(ev.kind) {
		ev.repoint()
	}
	ev.lines = fitted(ev.lines)
	ev.rows = fitted(ev.rows)
	ev.lineRow = fitted(ev.lineRow)
	ev.blocks = fitted(ev.blocks)
}

// repoint makes the lines' strings parts of the entry's final text where they are parts of
// the text at all. While the entry streamed, each line was cut from its text as it was then,
// and the conversation grows that text by copies (a buffer twice as large each time it is
// full, the spare room given back when the entry is done): a line still pointing into an
// older copy kept that copy alive, and a long reply's text was held three or four times.
func (ev *entryView) repoint() {
	t := ev.text
	for i := range ev.lines {
		l := &ev.lines[i]
		if l.off < 0 || int(l.off) > len(t) {
			continue
		}
		src := t[l.off:]
		if l.x == nil {
			l.text = within(src, l.text)
			continue
		}
		l.x.raw = within(src, l.x.raw)
		if n := len(l.x.raw); n <= len(src) {
			l.text = within(src[:n], l.text) // a Markdown line's text, where it is a part of its raw
		}
	}
}

// within returns s as the part of t it is equal to (the first, at the start of t when it
// is there), or s itself when t holds none.
func within(t, s string) string {
	if s == "" || unsafe.StringData(s) == unsafe.StringData(t) {
		return s
	}
	if strings.HasPrefix(t, s) {
		return t[:len(s)]
	}
	if i := strings.Index(t[:min(len(t), 4*len(s)+64)], s); i >= 0 {
		return t[i : i+len(s)]
	}
	return s
}

// fitted returns s, copied at its length when its capacity is more than 1/16 above it.
func fitted[S ~[]E, E any](s S) S {
	if cap(s) <= len(s)+len(s)/16 {
		return s
	}
	if len(s) == 0 {
		return nil // s[:0:0] would keep the array
	}
	return slices.Clone(s)
}

// nextRegion is the number a new region at the end of the lines takes.
func (ev *entryView) nextRegion() int32 {
	if len(ev.lines) == 0 {
		return 0
	}
	return ev.lines[len(ev.lines)-1].region + 1
}

// appendHead appends the spacer that separates the entry from the one before, the
// speaker's label when the speaker changes, and a thought's label.
func (ev *entryView) appendHead(e chat.Entry, rc *renderCtx) {
	if !rc.first {
		ev.lines = append(ev.lines, line{kind: RowBlank, block: -1, cls: classText, region: ev.nextRegion()})
	}
	labelled := false
	switch e.Kind {
	case chat.KindUser:
		labelled = true
	case chat.KindNotice:
	default:
		labelled = rc.first || rc.prevKind == chat.KindUser || rc.prevKind == chat.KindNotice || rc.prevAuthor != e.Author
	}
	if labelled {
		ev.lines = append(ev.lines, ev.speakerLine(e, rc))
	}
	if e.Kind == chat.KindThought {
		t := displayText(rc.opts.Labels.Thought, 0)
		ev.lines = append(ev.lines, line{text: t, cls: classNamed(ClassComment), kind: RowLabel, block: -1,
			region: ev.nextRegion(), indent: 2, cont: 2, word: true})
	}
}

// speakerLine is the label of the user, or of an agent: its icon and its title.
func (ev *entryView) speakerLine(e chat.Entry, rc *renderCtx) line {
	l := line{kind: RowLabel, block: -1, region: ev.nextRegion(), cont: 2, word: true, cls: classNamed(ClassKeyword)}
	if e.Kind == chat.KindUser {
		l.text = displayText(rc.opts.Labels.You, 0)
		return l
	}
	icon, title := rc.opts.Speaker(e.Author)
	if title == "" {
		title = e.Author
	}
	glyph, colour, emoji := IconFor(icon, title, e.Author)
	title = displayText(safetext.Line(title), 0)
	glyph = displayText(safetext.Line(glyph), 0)
	gcls := IconClass(colour)
	if emoji {
		gcls = ClassText
	}
	l.text = glyph + " " + title
	return l.with(title, []run{{end: int32(len(glyph)), cls: classNamed(gcls)}, {end: int32(len(glyph) + 1), cls: classText},
		{end: int32(len(l.text)), cls: classNamed(ClassKeyword)}})
}

// appendFoot appends the lines that say what the entry lost to the cap, and that it was
// interrupted.
func (ev *entryView) appendFoot(rc *renderCtx) {
	if ev.lost > 0 {
		ev.appendFootLine(rc.opts.Labels.Dropped(ev.lost))
	}
	if ev.interrupted {
		ev.appendFootLine(rc.opts.Labels.Interrupted)
	}
}

// footLines returns how many lines appendFoot appends.
func (ev *entryView) footLines() int {
	n := 0
	if ev.lost > 0 {
		n++
	}
	if ev.interrupted {
		n++
	}
	return n
}

// appendFootLine appends one line of the foot, in the error colour.
func (ev *entryView) appendFootLine(text string) {
	t := displayText(safetext.Line(text), 0)
	indent := int16(2)
	if ev.kind == chat.KindNotice {
		indent = 0
	}
	ev.lines = append(ev.lines, line{text: t, cls: classNamed(ClassError), kind: RowNotice, block: -1,
		region: ev.nextRegion(), indent: indent, cont: 2, word: true})
}

// textBase is the class of the plain prose of a text entry.
func textBase(k chat.EntryKind) string {
	if k == chat.KindThought {
		return ClassComment
	}
	return ClassText
}

// bodyWidth is the width a text's Markdown is drawn for: the view's, less the body's
// indentation.
func bodyWidth(width int) int { return max(1, width-2) }

// parse brings the body to the text (ev.lines holds the head and the body, no foot): the
// lines of the blocks committed stay, the others are read again (window/markdown). It
// returns the index of the first line that changed. A code block is recorded when its
// fence is committed, and a block closed takes its highlighting from hl's cache when it is
// there.
func (ev *entryView) parse(hl *Highlighter, width int) int {
	if ev.md == nil {
		ev.md = markdown.New(textBase(ev.kind))
	}
	ev.hl, ev.mdWidth = hl, bodyWidth(width)
	oldCommitted := ev.nBody
	changed := ev.md.Update(ev.text, ev.done, ev.mdWidth)
	if changed < oldCommitted { // drawn again from the start (the width changed)
		oldCommitted = 0
		ev.blocks = ev.blocks[:0]
	}
	// The state holds the lines from gone on: those before were read by the last parse.
	mls, gone := ev.md.Lines(), ev.md.Forgotten()
	total := gone + len(mls)
	committed := ev.md.Committed()
	keep := ev.nHead + changed
	need := keep + total - changed + ev.footLines()
	switch {
	case cap(ev.lines) >= need:
		ev.lines = ev.lines[:keep]
	case changed == 0 && ev.done: // read whole: the lines made at their count
		ev.lines = append(make([]line, 0, need), ev.lines[:keep]...)
	default:
		ev.lines = grow(ev.lines[:keep], need-keep)
	}
	for j := changed; j < total; j++ {
		m := &mls[j-gone]
		idx := int32(len(ev.lines))
		ev.lines = append(ev.lines, ev.mdLine(m))
		if j < oldCommitted || j >= committed {
			continue
		}
		switch m.Kind {
		case markdown.KindFenceOpen:
			ev.blocks = append(ev.blocks, block{lang: m.Lang, findent: m.Findent, first: idx + 1, end: idx + 1})
		case markdown.KindCode:
			if m.Block < len(ev.blocks) {
				ev.blocks[m.Block].end = idx + 1
			}
		case markdown.KindFenceClose:
			if m.Block < len(ev.blocks) {
				ev.closeBlock(int32(m.Block), hl)
			}
		}
	}
	ev.nBody, ev.nProv = committed, total-committed
	ev.sized = ev.md.Sized()
	// The committed lines are read: the state lets them go (a streaming entry holds its
	// lines once, here, not twice).
	ev.md.Forget()
	if ev.done { // nothing more will change: let the state go, and a block left open ends
		ev.md = nil
		for bi := range ev.blocks {
			if !ev.blocks[bi].closed {
				ev.closeBlock(int32(bi), hl)
			}
		}
	}
	return keep
}

// mdLine is a line of the Markdown as the view keeps it.
func (ev *entryView) mdLine(m *markdown.Line) line {
	l := line{off: int32(m.Off), block: -1, region: ev.bodyRegion + int32(m.Region), indent: 2,
		cont: int16(m.Cont), word: m.Wrap, nocopy: m.NoCopy, cls: classNamed(textBase(ev.kind))}
	switch m.Kind {
	case markdown.KindBlank:
		l.kind = RowBlank
		return l.with(m.Raw, nil)
	case markdown.KindFenceOpen, markdown.KindFenceClose:
		l.kind = RowFence
	case markdown.KindCode:
		l.kind, l.block, l.cont = RowCode, int32(m.Block), 2
		l.text, l.cls = displayText(m.Raw, 0), classText
		return l.with(m.Raw, nil)
	default:
		l.kind = RowProse
	}
	l.fits = m.Sized // a table's row or border, a rule: made to fit the width, one row
	if len(m.Spans) == 1 && m.Spans[0].URL == "" {
		l.text, l.cls = m.Spans[0].Text, classNamed(m.Spans[0].Class)
		return l.with(m.Raw, nil)
	}
	n := 0
	for _, sp := range m.Spans {
		n += len(sp.Text)
	}
	b := make([]byte, 0, n)
	runs := make([]run, 0, len(m.Spans))
	for _, sp := range m.Spans {
		b = append(b, sp.Text...)
		cls := classNamed(sp.Class)
		if k := len(runs) - 1; k >= 0 && runs[k].cls == cls && runs[k].url == sp.URL {
			runs[k].end = int32(len(b))
			continue
		}
		runs = append(runs, run{end: int32(len(b)), cls: cls, url: sp.URL})
	}
	l.text = string(b)
	return l.with(m.Raw, runs)
}
