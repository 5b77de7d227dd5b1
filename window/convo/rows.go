package convo

import "sort"

// Total returns the number of rows of the conversation at the current width (until the
// entries off screen are all re-wrapped after a resize, it counts them at their old width).
func (v *View) Total() int { return v.fw.total }

// Frame returns the rows of the viewport, top to bottom, and the number of the first.
// The rows are valid until the next call of Frame or RowsAt.
func (v *View) Frame() (top int, rows []Row) {
	top = v.Top()
	return top, v.RowsAt(top, v.height)
}

// RowsAt returns height rows from row top (fewer at the end of the conversation). It costs
// O(log n) to find the first and O(1) for each (entries re-wrapped after a resize aside).
// The rows are valid until the next call of Frame or RowsAt.
func (v *View) RowsAt(top, height int) []Row {
	v.rowsBuf = v.rowsBuf[:0]
	v.spanBuf = v.spanBuf[:0]
	top = max(top, 0)
	if height <= 0 || top >= v.fw.total {
		v.seenFrom, v.seenTo = 0, 0
		return v.rowsBuf
	}
	i, r := v.locate(top)
	v.seenFrom, v.showed = i, true
	for ; i < len(v.ents) && len(v.rowsBuf) < height; i, r = i+1, 0 {
		ev := v.ensure(i)
		ev.shown = v.frames + 1
		for ; r < len(ev.rows) && len(v.rowsBuf) < height; r++ {
			v.rowsBuf = append(v.rowsBuf, v.materialize(i, ev, r))
		}
	}
	v.seenTo = i
	return v.rowsBuf
}

// locate returns the entry that holds row (0 ≤ row < Total) and the row's index in it, the
// entry wrapped at the current width.
func (v *View) locate(row int) (int, int) {
	for {
		i, r := v.fw.find(row)
		if i >= len(v.ents) {
			i = len(v.ents) - 1
			return i, len(v.ensure(i).rows) - 1
		}
		if ev := v.ents[i]; ev != nil && ev.width == v.width && !ev.parked {
			return i, min(r, len(ev.rows)-1)
		}
		v.ensure(i) // its count may change: look again
	}
}

// materialize turns row r of entry i into a Row.
func (v *View) materialize(i int, ev *entryView, r int) Row {
	w := ev.rows[r]
	if w.fold {
		return v.foldRow(i, ev, w)
	}
	l := &ev.lines[w.line]
	if l.kind == RowCode && l.block >= 0 {
		v.wantHighlight(ev, l.block)
	}
	row := Row{Entry: i, Region: int(l.region), Kind: l.kind, Indent: int(w.indent), Cont: w.start > 0}
	start := len(v.spanBuf)
	switch {
	case w.subst:
		v.spanBuf = append(v.spanBuf, Span{Text: placeholderGlyph, Class: l.classAt(int(w.start))})
	case w.end > w.start:
		v.spanBuf = l.appendSpans(v.spanBuf, int(w.start), int(w.end))
	}
	row.Spans = v.spanBuf[start:len(v.spanBuf):len(v.spanBuf)]
	return row
}

// appendSpans appends the spans of text[s:e].
func (l *line) appendSpans(buf []Span, s, e int) []Span {
	if l.runs() == nil {
		return append(buf, Span{Text: l.text[s:e], Class: l.cls.name()})
	}
	prev := 0
	for _, rn := range l.runs() {
		a, b := max(prev, s), min(int(rn.end), e)
		if a < b {
			buf = append(buf, Span{Text: l.text[a:b], Class: rn.cls.name(), URL: rn.url})
		}
		prev = int(rn.end)
		if prev >= e {
			return buf
		}
	}
	if a := max(prev, s); a < e {
		buf = append(buf, Span{Text: l.text[a:e], Class: l.cls.name()})
	}
	return buf
}

// classAt returns the class of the text at byte p.
func (l *line) classAt(p int) string {
	for _, rn := range l.runs() {
		if p < int(rn.end) {
			return rn.cls.name()
		}
	}
	return l.cls.name()
}

// Top returns the number of the viewport's first row.
func (v *View) Top() int {
	if v.follow {
		v.ensureBottom()
		return max(0, v.fw.total-v.height)
	}
	return min(v.RowOf(v.top), max(0, v.fw.total-v.height))
}

// ensureBottom wraps the last entries at the current width, enough to fill the viewport.
func (v *View) ensureBottom() {
	for i, n := len(v.ents)-1, 0; i >= 0 && n < v.height; i-- {
		n += len(v.ensure(i).rows)
	}
}

// Following reports whether the viewport follows the end of the conversation.
func (v *View) Following() bool { return v.follow }

// ScrollBy moves the viewport n rows down (up when n < 0). Reaching the end follows it
// again; moving up from it stops following.
//
// Moving up lays out the entries it crosses first: one counted at an estimate (parked at an
// older width, or never read) would otherwise move the landing row.
func (v *View) ScrollBy(n int) {
	top := v.Top()
	if n < 0 && top > 0 {
		i, r := v.locate(top)
		for j, need := i-1, -n-r; j >= 0 && need > 0; j-- {
			need -= len(v.ensure(j).rows)
		}
		top = v.Top()
	}
	v.ScrollTo(top + n)
}

// ScrollTo puts row top at the top of the viewport.
func (v *View) ScrollTo(top int) {
	v.ensureBottom()
	if top >= v.fw.total-v.height {
		v.follow = true
		return
	}
	v.follow = false
	v.top = v.AnchorAt(max(top, 0))
}

// ScrollToBottom follows the end of the conversation.
func (v *View) ScrollToBottom() { v.follow = true }

// ScrollToShow scrolls as little as needed for row to be in the viewport.
func (v *View) ScrollToShow(row int) {
	top := v.Top()
	switch {
	case row < top:
		v.ScrollTo(row)
	case row >= top+v.height:
		v.ScrollTo(row - v.height + 1)
	}
}

// Anchor is a place in the conversation that survives what changes row numbers: a resize, an
// entry above that changes, history loaded before the first entry.
type Anchor struct {
	id        int
	line, off int32
}

// AnchorAt returns the anchor of row (clamped to the conversation).
func (v *View) AnchorAt(row int) Anchor {
	if v.fw.total == 0 {
		return Anchor{}
	}
	i, r := v.locate(min(max(row, 0), v.fw.total-1))
	w := v.ents[i].rows[r]
	return Anchor{id: i - v.origin, line: w.line, off: w.start}
}

// RowOf returns the row an anchor is on now (O(log n)).
func (v *View) RowOf(a Anchor) int {
	if len(v.ents) == 0 {
		return 0
	}
	i := min(max(a.id+v.origin, 0), len(v.ents)-1)
	ev := v.ensure(i)
	r := sort.Search(len(ev.rows), func(k int) bool {
		w := ev.rows[k]
		return w.line > a.line || (w.line == a.line && w.start > a.off)
	})
	return v.fw.prefix(i) + max(r-1, 0)
}
