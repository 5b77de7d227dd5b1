package chatwin

import (
	"strings"

	"git.rickub.com/bots-garden/sidekicks/safetext"

	"git.rickub.com/bots-garden/sidekicks/window"
	"git.rickub.com/bots-garden/sidekicks/window/convo"
	"git.rickub.com/bots-garden/sidekicks/window/markdown"
)

// The most rows the input takes (it grows with its text up to a third of the window), the
// most the completion list takes, and the most queued messages listed.
const (
	maxInputRows = 10
	maxListRows  = 8
	maxQueued    = 3
)

// blanks is drawn to fill the end of rows.
var blanks = strings.Repeat(" ", 256)

// classes maps the class names the conversation view emits to the theme's classes.
var classes = func() map[string]window.Class {
	m := make(map[string]window.Class)
	names := []string{convo.ClassText, convo.ClassKeyword, convo.ClassComment, convo.ClassType,
		convo.ClassString, convo.ClassNumber, convo.ClassFunction, convo.ClassOperator,
		convo.ClassBuiltin, convo.ClassError, convo.ClassAdded, convo.ClassRemoved, convo.ClassSelection,
		markdown.ClassHeading, markdown.ClassStrong, markdown.ClassEmphasis, markdown.ClassStrike,
		markdown.ClassCode, markdown.ClassLink, markdown.ClassMarker}
	for i := 0; i < convo.IconColours; i++ {
		names = append(names, convo.IconClass(i))
	}
	for _, n := range names {
		if c, ok := window.ClassNamed(n); ok {
			m[n] = c
		}
	}
	return m
}()

// classOf returns the theme's class of a name the view emits; text for one it lacks.
func classOf(name string) window.Class {
	if c, ok := classes[name]; ok {
		return c
	}
	return window.ClassText
}

// fill paints the row y of r from column x to its end with spaces of class c.
func fill(r window.Region, x, y int, c window.Class) {
	W, _ := r.Size()
	for x < W {
		n := min(W-x, len(blanks))
		r.Text(x, y, blanks[:n], c)
		x += n
	}
}

// Draw paints the window's content: the conversation drawn from the bottom up, the queued
// messages under it, the completion list over its bottom, the rule, the input.
func (w *Widget) Draw(r window.Region, focused bool) {
	W, H := r.Size()
	w.width = W
	if W <= 0 || H <= 0 {
		return
	}
	req, waiting := w.request(focused)
	w.followSessionTitle() // sessiontitle.go
	if w.win != nil {
		switch {
		case req != nil && !w.win.Attention():
			w.win.SetAttention(true) // a request came before the window opened
		case req == nil && w.win.Attention() && w.win.Focused():
			w.win.SetAttention(false)
		}
	}
	rows := w.input.layout(inputWidth(W), maxInputRows)
	inRows := min(len(rows), max(1, min(maxInputRows, H/3)))
	ruleY := max(H-inRows-1, 0)
	if H < 2 {
		ruleY, inRows = -1, H
	}
	convH := max(ruleY, 0)
	queued := w.queuedLines()
	q := min(len(queued), max(convH-1, 0))
	var panel []panelLine
	if req != nil && convH-q >= 2 { // a window too small shows only its "!" mark
		panel = w.requestLines(req, waiting, max(min(convH-q-1, max(convH*2/3, 8)), 1))
		w.wakeWhenArmed()
	}
	w.perm.drawn = len(panel) > 0
	w.convH = max(convH-q-len(panel), 0)
	w.drawConversation(r.Sub(0, 0, W, w.convH))
	if len(panel) > 0 {
		drawRequest(r.Sub(0, w.convH, W, len(panel)), panel)
	}
	for i := 0; i < q; i++ {
		r.Line(w.convH+len(panel)+i, queued[i], window.ClassComment)
	}
	w.listRect = rect{}
	if w.focus == areaInput && w.list.visible() {
		w.drawList(r, convH)
	}
	switch {
	case ruleY >= 0 && w.find.open:
		w.drawFind(r.Sub(0, ruleY, W, 1), focused)
	case ruleY >= 0:
		w.drawRule(r.Sub(0, ruleY, W, 1))
	}
	w.inputTop = ruleY + 1
	w.drawInput(r.Sub(0, ruleY+1, W, inRows), rows, focused && w.focus == areaInput && !w.find.open)
}

// inputWidth is the width the input's text wraps at: one column is kept for the cursor
// after the last character of a row.
func inputWidth(W int) int { return max(W-1, 1) }

// catchUp lays out one more slice of the new text the pace held back, between frames
// (window.App.Background): a flood is laid out as fast as the loop is free, not one slice
// per frame, which at 60 frames a second showed a 400,000-line flood seconds behind the
// agent, and stopped it for as long as the user typed in another window (20 frames a
// second of 1 ms slices). The next frame drawn for what streams in shows what it laid out.
func (w *Widget) catchUp() bool {
	if w.view == nil || w.closed || !w.pace.Behind() {
		w.catching = false
		return false
	}
	w.layOut(true)
	w.app.InvalidateFlow()
	w.catching = w.pace.Behind()
	return w.catching
}

// layOut brings the view up to date with the conversation, and lays out the new text the
// pace holds back a chunk at a time (chunkBytes), until none is left, a slice's time has
// passed (paceTime, typingPaceTime while the user types) or input waits; with read false (a
// frame drawn for a key) it reads no new text.
func (w *Widget) layOut(read bool) {
	start := w.pace.now()
	limit := paceTime
	if w.app.Typing() {
		limit = typingPaceTime
	}
	for {
		w.pace.frame(read)
		w.view.Sync()
		w.pace.afterSync()
		if !read || !w.pace.Behind() || w.pace.now().Sub(start) >= limit || w.app.InputWaiting() {
			return
		}
	}
}

// drawConversation draws the rows of the viewport at the bottom of r, the cursor bar and
// the selection in editor.selection.
func (w *Widget) drawConversation(r window.Region) {
	W, H := r.Size()
	if H <= 0 {
		return
	}
	if w.view == nil {
		msg := catalogue.Text(w.app.Language(), tOpening)
		c := window.ClassComment
		if w.openErr {
			msg, c = catalogue.Text(w.app.Language(), tOpenFailed), window.ClassError
		}
		for y := 0; y < H-1; y++ {
			fill(r, 0, y, window.ClassText)
		}
		r.Line(H-1, " "+msg, c)
		return
	}
	w.view.SetSize(W, H)
	w.release()
	// A frame drawn for a key shows the key first: the new text waits for the next one.
	w.layOut(!w.app.InputFrame())
	w.findStep()
	w.homeStep()
	if w.pace.Behind() {
		w.app.InvalidateFlow() // the rest of the new text in the next frames
		if !w.catching {
			w.catching = true
			w.app.Background(w.catchUp)
		}
	}
	top, rows := w.view.Frame()
	y0 := H - len(rows)
	w.cur.top, w.cur.y0, w.cur.n = top, y0, len(rows)
	for y := 0; y < y0; y++ {
		fill(r, 0, y, window.ClassText)
	}
	cur, selA, selB := -1, -1, -2
	if w.focus == areaConversation && !w.find.open { // the find field marks its match instead
		cur = w.curRow()
	}
	if w.cur.selOn {
		selA, selB = w.selection()
	}
	for i := range rows {
		row := top + i
		if row == cur || row >= selA && row <= selB {
			drawRow(r, y0+i, &rows[i], window.ClassSelection, true)
		} else {
			drawRow(r, y0+i, &rows[i], window.ClassText, false)
		}
	}
	w.markMatches(r, y0, top, rows)
	if w.channel != nil {
		w.drawChannelEmpty(r)
	} else {
		w.drawAgentEmpty(r)
	}
}

// drawRow draws one row of the conversation: its indentation, its spans in their classes
// (or all in c when whole is set), then spaces to the end.
func drawRow(r window.Region, y int, row *convo.Row, c window.Class, whole bool) {
	x := 0
	if row.Indent > 0 {
		x = r.Text(0, y, blanks[:min(row.Indent, len(blanks))], c)
	}
	for _, s := range row.Spans {
		sc := c
		if !whole {
			sc = classOf(s.Class)
		}
		if s.URL != "" {
			x += r.Link(x, y, s.Text, sc, s.URL)
			continue
		}
		x += r.Text(x, y, s.Text, sc)
	}
	fill(r, x, y, c)
}

// queuedLines are the lines that list the messages waiting for the turn to end.
func (w *Widget) queuedLines() []string {
	q := w.svc.Queued(w.key)
	if len(q) == 0 {
		return nil
	}
	lang := w.app.Language()
	var out []string
	for i, m := range q {
		if i == maxQueued-1 && len(q) > maxQueued {
			out = append(out, " "+catalogue.Text(lang, tQueuedMore, len(q)-i))
			break
		}
		first, _, more := strings.Cut(strings.TrimSpace(m), "\n")
		if more {
			first += " …"
		}
		out = append(out, " "+catalogue.Text(lang, tQueued, first))
	}
	return out
}

// drawRule draws the line between the conversation and the input: the spinner and the
// agent's state while a turn is in progress (or when the agent is in error).
func (w *Widget) drawRule(r window.Region) {
	x := r.Text(0, 0, "─", window.ClassFrame)
	if text, busy := w.stateText(); text != "" || busy {
		x += r.Text(x, 0, " ", window.ClassFrame)
		if busy {
			x += r.Text(x, 0, w.app.SpinnerFrame(), window.ClassSpinner)
			x += r.Text(x, 0, " ", window.ClassFrame)
		}
		if text != "" {
			x += r.Text(x, 0, text+" ", window.ClassComment)
		}
	}
	if w.opts.SessionLabel != nil && w.channel == nil {
		if label := safetext.Line(w.opts.SessionLabel(w.agent.Name)); label != "" {
			x += r.Text(x, 0, "─ "+label+" ", window.ClassComment)
		}
	}
	W, _ := r.Size()
	r.Repeat(x, 0, W-x, "─", window.ClassFrame)
}

// drawInput draws the rows of the input that hold the cursor, and places the cursor.
func (w *Widget) drawInput(r window.Region, rows []vrow, focused bool) {
	_, H := r.Size()
	e := w.input
	crow, ccol := e.position(rows)
	top := min(w.inputScroll, max(len(rows)-H, 0))
	if crow < top {
		top = crow
	}
	if crow >= top+H {
		top = crow - H + 1
	}
	w.inputScroll = top
	for y := 0; y < H; y++ {
		x := 0
		if i := top + y; i < len(rows) {
			x = drawInputRow(r, y, e.text[rows[i].start:rows[i].end])
		}
		fill(r, x, y, window.ClassDialogInput)
	}
	if focused {
		r.ShowCursor(ccol, crow-top)
	}
}

// drawInputRow draws one row of the input's text, tabs as spaces up to the next stop. The
// text between two tabs (or control characters, which the input does not hold) goes to
// Region.Text in one piece, which lays out a run of printable ASCII at once: a cluster at a
// time, a key typed at the end of a long message repainted its rows at about a microsecond
// a character.
func drawInputRow(r window.Region, y int, s string) int {
	x := 0
	for s != "" {
		if n := textRun(s); n > 0 && !inputByCluster {
			x += r.Text(x, y, s[:n], window.ClassDialogInput)
			s = s[n:]
			continue
		}
		c, cw, rest := cluster(s, x)
		if c == "\t" {
			r.Text(x, y, blanks[:cw], window.ClassDialogInput)
		} else {
			r.Text(x, y, c, window.ClassDialogInput)
		}
		x += cw
		s = rest
	}
	return x
}

// inputByCluster makes drawInputRow draw a cluster at a time, for the test that compares
// the two ways (TestInputRowInOnePiece).
var inputByCluster = false

// textRun returns how long the text at the start of s is before its first control
// character (C0, DEL, C1): clusters never cross one, so Region.Text draws that text, and
// counts its cells, as drawInputRow's clusters one by one would.
func textRun(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c == 0xc2 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] <= 0x9f {
			return i
		}
	}
	return len(s)
}

// drawList draws the completion list over the bottom of the conversation, above the rule.
func (w *Widget) drawList(r window.Region, bottom int) {
	W, _ := r.Size()
	l := &w.list
	n := len(l.items)
	if n == 0 {
		n = 1 // "listing the files…"
	}
	n = min(n, maxListRows, bottom)
	if n <= 0 {
		return
	}
	if l.sel < l.top {
		l.top = l.sel
	}
	if l.sel >= l.top+n {
		l.top = l.sel - n + 1
	}
	l.top = max(min(l.top, len(l.items)-n), 0)
	y0 := bottom - n
	w.listRect = rect{0, y0, W, n}
	if len(l.items) == 0 {
		r.Line(y0, " "+catalogue.Text(w.app.Language(), tListingFiles), window.ClassMenuDisabled)
		return
	}
	if l.kind == listFiles && l.more && y0 > 0 {
		// Above the list, out of its rows: the files not listed are found by typing more.
		r.Line(y0-1, " "+catalogue.Text(w.app.Language(), tMoreFiles), window.ClassMenuDisabled)
	}
	nameW := 0
	for _, it := range l.items[l.top : l.top+n] {
		nameW = max(nameW, window.TextWidth(it.name))
	}
	nameW = min(nameW, max(W/2, 1))
	for i := 0; i < n; i++ {
		it := l.items[l.top+i]
		c := window.ClassMenuItem
		if l.top+i == l.sel {
			c = window.ClassMenuSelected
		}
		x := r.Text(0, y0+i, " ", c)
		x += r.Text(x, y0+i, it.name, c)
		if it.desc != "" || it.hint != "" {
			if pad := 1 + nameW - window.TextWidth(it.name); pad > 0 {
				x += r.Text(x, y0+i, blanks[:min(pad+1, len(blanks))], c)
			} else {
				x += r.Text(x, y0+i, "  ", c)
			}
			if it.desc != "" {
				x += r.Text(x, y0+i, it.desc+" ", c)
			}
			x += r.Text(x, y0+i, it.hint, c)
		}
		fill(r, x, y0+i, c)
	}
}
