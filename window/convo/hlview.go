package convo

import "strings"

// closeBlock marks a code block finished and prepares its highlighting: plain when chroma
// has no lexer for its language or it is too large; at once when hl's cache has it; else
// when it is first on screen (View.wantHighlight).
func (ev *entryView) closeBlock(bi int32, hl *Highlighter) {
	b := &ev.blocks[bi]
	b.closed = true
	b.lx = LexerFor(b.lang)
	if b.lx == nil || b.first >= b.end {
		b.state = hlPlain
		return
	}
	code, ok := ev.blockCode(b)
	if !ok {
		b.state = hlPlain
		return
	}
	b.key = hlKeyOf(b.lx, code)
	if res, ok := hl.lookup(b.key); ok {
		ev.applyHighlight(bi, res)
	}
}

// blockCode returns the code of a block as the lexer reads it, each line ended by a newline;
// false when it is larger than MaxHighlight.
func (ev *entryView) blockCode(b *block) (string, bool) {
	size := 0
	for i := b.first; i < b.end; i++ {
		size += len(ev.lines[i].raw()) + 1
	}
	if size > MaxHighlight {
		return "", false
	}
	var sb strings.Builder
	sb.Grow(size)
	for i := b.first; i < b.end; i++ {
		sb.WriteString(ev.lines[i].raw())
		sb.WriteByte('\n')
	}
	return sb.String(), true
}

// applyHighlight gives a block's lines the classes of a highlighting result. The classes
// never change where rows break (wrapping reads the text only), so the rows stay.
func (ev *entryView) applyHighlight(bi int32, res *hlResult) {
	b := &ev.blocks[bi]
	b.state = hlPlain
	if res.spans == nil || len(res.spans) != int(b.end-b.first) {
		return
	}
	runs := make([][]run, len(res.spans))
	for j, spans := range res.spans {
		l := &ev.lines[int(b.first)+j]
		pos := 0
		var rs []run
		for _, sp := range spans {
			if !strings.HasPrefix(l.text[pos:], sp.Text) {
				return // the lexer did not give the line back as it is shown: stay plain
			}
			pos += len(sp.Text)
			cls := classNamed(sp.Class)
			if k := len(rs) - 1; k >= 0 && rs[k].cls == cls {
				rs[k].end = int32(pos)
			} else {
				rs = append(rs, run{end: int32(pos), cls: cls})
			}
		}
		if pos != len(l.text) {
			return
		}
		runs[j] = rs
	}
	for j, rs := range runs {
		l := &ev.lines[int(b.first)+j]
		*l = l.with(l.raw(), rs)
	}
	b.state = hlDone
}
