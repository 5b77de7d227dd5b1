package convo

import (
	"hash/fnv"
	"io"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// Folding: a long entry shows its first lines and a marker row that says how many more it
// has. The cut is made after the entry is laid out (View.cut): its rows stop after the
// first lines kept, the marker follows, then the entry's foot (what it lost, that it was
// interrupted). The lines stay whole in the layout: copying, the copy of a region, and Find
// read them all.
//
// Which entries fold: a user's message of more than userFoldAbove lines shows its first
// userFoldShow; a thought or a tool call's output of more than otherFoldAbove lines shows its
// first otherFoldShow. An agent's message, a plan or a notice never folds. An entry folds
// once it is done (one still streaming shows all it has). The user toggles an entry
// (View.ToggleFold); the choice lasts as long as the view, keyed by what the entry says
// (foldKey) rather than by its Seq: an entry that left memory (chat.Conversation.Release)
// and is read back from the history gets a new Seq, but says the same.
const (
	userFoldAbove  = 20
	userFoldShow   = 10
	otherFoldAbove = 12
	otherFoldShow  = 6
)

// foldState is what a view keeps of folding: the entries the user toggled from what they
// would be, and the words of the marker.
type foldState struct {
	flipped map[uint64]bool
	label   func(lines int) string
}

// foldRule returns, for an entry of kind k, above how many lines it folds and how many it
// then shows; 0 when it never folds.
func foldRule(k chat.EntryKind) (above, show int) {
	switch k {
	case chat.KindUser:
		return userFoldAbove, userFoldShow
	case chat.KindThought, chat.KindToolCall:
		return otherFoldAbove, otherFoldShow
	}
	return 0, 0
}

// foldBody returns the lines of ev that folding may hide: after the head (spacer, labels,
// a tool call's header and what it acts on), before the foot.
func (ev *entryView) foldBody() (from, to int) {
	from = ev.nHead
	for from < len(ev.lines) {
		switch ev.lines[from].kind {
		case RowLabel, RowToolHeader, RowToolAction:
			from++
			continue
		}
		break
	}
	to = len(ev.lines)
	if ev.lost > 0 {
		to--
	}
	if ev.interrupted {
		to--
	}
	return from, max(to, from)
}

// foldable reports whether ev is long enough to fold, and the lines it hides when folded.
func (ev *entryView) foldable() (hideFrom, hideTo int, ok bool) {
	above, show := foldRule(ev.kind)
	if above == 0 || !ev.done || ev.parked || len(ev.rows) == 0 {
		return 0, 0, false
	}
	from, to := ev.foldBody()
	if to-from <= above {
		return 0, 0, false
	}
	return from + show, to, true
}

// cut folds entry ev when it should be folded: its rows are its whole layout when it is
// called (after a layout or a re-wrap). The rows of the lines hidden give way to the rows of
// a marker line (entryView.fold, wrapped at the width like any line), whose wrow.line is the
// first line hidden, so that rows stay in the order of their lines.
func (v *View) cut(ev *entryView) {
	if ev == nil {
		return
	}
	hf, ht, ok := ev.foldable()
	if !ok || len(v.fold.flipped) > 0 && v.fold.flipped[ev.foldKey()] {
		return
	}
	label := v.fold.label
	if label == nil {
		label = FoldLabelFor(i18n.English)
	}
	body := &ev.lines[hf]
	t := displayText(label(ht-hf), 0)
	ev.fold = line{text: t, cls: classNamed(ClassComment), kind: RowNotice, block: -1, region: body.region,
		indent: body.indent, cont: 2, word: true}
	ev.foldTo = int32(ht)
	first, last := v.rowOfLine(ev, hf), v.rowOfLine(ev, ht)
	tail := append([]wrow(nil), ev.rows[last:]...)
	ev.rows = wrapLine(ev.rows[:first], hf, &ev.fold, v.width, 0)
	for k := first; k < len(ev.rows); k++ {
		ev.rows[k].fold = true
	}
	ev.rows = append(ev.rows, tail...)
	ev.lineRow = ev.lineRow[:0] // no longer one per line: nothing may extend a folded entry
	ev.fit()
}

// rowOfLine returns the first row of line li in ev's whole layout (its row count for the
// end).
func (v *View) rowOfLine(ev *entryView, li int) int {
	if li < len(ev.lineRow) {
		return int(ev.lineRow[li])
	}
	return len(ev.rows)
}

// foldRow turns a row of a marker into the row shown.
func (v *View) foldRow(i int, ev *entryView, w wrow) Row {
	l := &ev.fold
	row := Row{Entry: i, Region: int(l.region), Kind: l.kind, Indent: int(w.indent), Cont: w.start > 0}
	start := len(v.spanBuf)
	if w.subst {
		v.spanBuf = append(v.spanBuf, Span{Text: placeholderGlyph, Class: l.cls.name()})
	} else if w.end > w.start {
		v.spanBuf = l.appendSpans(v.spanBuf, int(w.start), int(w.end))
	}
	row.Spans = v.spanBuf[start:len(v.spanBuf):len(v.spanBuf)]
	return row
}

// foldRaw appends the source of the lines a marker hides, for a copy.
func (ev *entryView) foldRaw(parts []string, w wrow) []string {
	for _, l := range ev.lines[w.line:ev.foldTo] {
		parts = append(parts, l.raw())
	}
	return parts
}

// SetFoldLabel sets the words of the marker of a folded entry (FoldLabelFor by default,
// in English).
func (v *View) SetFoldLabel(label func(lines int) string) { v.fold.label = label }

// FoldAt reports whether row is of the marker of a folded entry: where a click unfolds.
func (v *View) FoldAt(row int) bool {
	if row < 0 || row >= v.fw.total {
		return false
	}
	i, r := v.locate(row)
	return v.ents[i].rows[r].fold
}

// Foldable reports whether the entry that holds row folds (ok), and whether it shows
// folded now.
func (v *View) Foldable(row int) (folded, ok bool) {
	if row < 0 || row >= v.fw.total {
		return false, false
	}
	i, _ := v.locate(row)
	if _, _, ok := v.ents[i].foldable(); !ok {
		return false, false
	}
	return v.Folded(i), true
}

// ToggleFold folds or unfolds the entry that holds row, when it is long enough to fold. It
// reports whether it did.
func (v *View) ToggleFold(row int) bool {
	if row < 0 || row >= v.fw.total {
		return false
	}
	i, _ := v.locate(row)
	return v.toggleEntry(i, !v.Folded(i))
}

// Folded reports whether entry i shows folded.
func (v *View) Folded(i int) bool {
	if i < 0 || i >= len(v.ents) {
		return false
	}
	ev := v.ensure(i)
	for _, w := range ev.rows {
		if w.fold {
			return true
		}
	}
	return false
}

// Unfold unfolds entry i (a match of Find is in it); it reports whether it was folded.
func (v *View) Unfold(i int) bool {
	if !v.Folded(i) {
		return false
	}
	return v.toggleEntry(i, false)
}

// toggleEntry folds (fold) or unfolds entry i, if it can fold.
func (v *View) toggleEntry(i int, fold bool) bool {
	ev := v.ensure(i)
	if _, _, ok := ev.foldable(); !ok {
		return false
	}
	if v.fold.flipped == nil {
		v.fold.flipped = make(map[uint64]bool)
	}
	if fold {
		delete(v.fold.flipped, ev.foldKey())
	} else {
		v.fold.flipped[ev.foldKey()] = true
	}
	ev.rewrap(v.width)
	v.cut(ev)
	v.fw.set(i, len(ev.rows))
	v.laid(ev)
	return true
}

// foldKey identifies an entry for its fold state: a hash of its kind, author, text and, for
// a tool call, its id and title. Two entries that say exactly the same share their state.
func (ev *entryView) foldKey() uint64 {
	h := fnv.New64a()
	io.WriteString(h, string(ev.kind))
	h.Write([]byte{0})
	io.WriteString(h, ev.author)
	h.Write([]byte{0})
	io.WriteString(h, ev.text)
	if ev.tool != nil {
		h.Write([]byte{0})
		io.WriteString(h, ev.tool.ID)
		h.Write([]byte{0})
		io.WriteString(h, ev.tool.Title)
	}
	return h.Sum64()
}

// FoldLabelFor returns the words of a fold marker in lang: "… 2,807 more lines — Enter
// unfolds", with the language's grouping of digits.
func FoldLabelFor(lang i18n.Lang) func(lines int) string {
	return func(n int) string {
		digits := groupDigits(int64(n))
		if lang == i18n.French {
			digits = strings.ReplaceAll(digits, ",", " ")
		}
		return foldCatalogue.Text(lang, 0, digits)
	}
}

var foldCatalogue = i18n.NewCatalogue[int](
	[]string{"… %s more lines — Enter unfolds"},
	[]string{"… %s lignes de plus — Entrée déplie"},
)
