package window

import (
	"io"
	"strings"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"
	"github.com/rivo/uniseg"
)

// termWriter sends a frame's changed cells to the terminal itself, where tcell's Show
// would read every cell of its buffer to find them: on a 200×60 screen, 12,000 cells of
// 150 bytes each, 0.5–1 ms a frame whatever changed, a third of all the CPU Sidekicks
// spends while an agent floods, and the most of a key's echo. The canvas already knows the
// few cells a frame changed (a key: one or two), so this writes those alone, with the
// terminal's own sequences (its terminfo entry, as tcell reads it) and the same choices
// tcell makes for colors, attributes, links (OSC 8) and wide characters.
//
// tcell's buffer is still given every cell (canvas.flush), so that tcell can draw the whole
// screen when it must: a resize, the terminal taken back after Suspend. A frame this
// writer does not handle — a link it was not told the address of (Region.Link tells it),
// a styled underline, the last cell of a terminal that scrolls when it is written and can
// insert a character (tcell's way round), a terminal without colors or UTF-8 — is drawn by tcell's Show. tcell sends only the cells whose content differs from what it
// sent itself last, and the terminal may show something else there: what the writer sent
// since. So before such a Show, every cell the writer sent since tcell's last frame is
// marked for tcell to send again (retell).
type termWriter struct {
	ti  *terminfo.Terminfo
	tty io.Writer
	// truecolor: the terminal takes 24-bit colors (tcell's Colors() of 1<<24); palette
	// holds the colors it has otherwise, and fit the nearest of them to the colors seen.
	truecolor bool
	palette   []tcell.Color
	fit       map[tcell.Color]tcell.Color
	// syncStart and syncEnd frame a frame's output on terminals that show it at once
	// (synchronized output, as tcell sends on xterm-like terminals); exitLink ends a link
	// a frame drawn by tcell may have left open.
	syncStart, syncEnd, exitLink string
	off                          bool // the terminal is not one this writer handles
	// ready: tcell has drawn the screen once (its first Show clears it); tcellDrew: the
	// last frame was tcell's.
	ready, tcellDrew bool

	// since lists the cells written since tcell's last frame; in marks them.
	since []int32
	in    []bool

	buf    strings.Builder
	cx, cy int
	cur    tcell.Style
	styled bool   // cur is what the terminal has now
	link   string // the address of the link the text written now belongs to
}

// newTermWriter returns the writer of a screen tcell opened on tty with the entry ti, or
// nil when there is none to write to.
func newTermWriter(screen tcell.Screen, tty io.Writer, ti *terminfo.Terminfo) *termWriter {
	if screen == nil || tty == nil || ti == nil {
		return nil
	}
	t := &termWriter{ti: ti, tty: tty, fit: map[tcell.Color]tcell.Color{}}
	colors := screen.Colors()
	t.off = colors == 0 || screen.CharacterSet() != "UTF-8" || ti.TGoto(0, 0) == "" || ti.HideCursor == "" ||
		ti.AttrOff == ""
	t.truecolor = colors == 1<<24
	n := min(ti.Colors, 256)
	for i := range n {
		c := tcell.PaletteColor(i)
		t.palette = append(t.palette, c)
		t.fit[c] = c // a color the terminal has is itself, not the first with its value
	}
	if ti.XTermLike {
		t.syncStart, t.syncEnd = "\x1b[?2026h", "\x1b[?2026l"
	}
	if (ti.Mouse != "" || ti.XTermLike) && !strings.Contains(ti.Name, "linux") {
		t.exitLink = "\x1b]8;;\x1b\\"
	}
	return t
}

// drawn notes a frame tcell drew (Show or Sync): it sent every cell it has to.
func (t *termWriter) drawn() {
	if t != nil {
		t.ready, t.tcellDrew = true, true
		for _, i := range t.since {
			t.in[i] = false
		}
		t.since = t.since[:0]
	}
}

// retell marks in tcell's buffer the cells the writer sent since tcell's last frame, so
// that its next Show sends them: putting an empty string, then the cell's content, leaves
// a cell tcell counts as never sent.
func (t *termWriter) retell(cv *canvas) {
	if t == nil {
		return
	}
	for _, i := range t.since {
		if int(i) >= len(cv.sent) {
			continue // a screen since made smaller: tcell redraws it all (Sync)
		}
		x, y := int(i)%cv.w, int(i)/cv.w
		c := cv.sent[i]
		var st tcell.Style
		if c.style > 0 {
			st = cv.styles[c.style-1]
		}
		cv.screen.Put(x, y, "", st)
		cv.screen.Put(x, y, c.str, st)
	}
}

// write sends the cells the canvas changed in its last flush, then places the cursor, and
// reports whether it did; when it did not, the frame is tcell's to draw.
func (t *termWriter) write(cv *canvas, cursor cursorState) bool {
	return t.send(cv, cursor, false)
}

// redraw is write for a frame that paints every cell after a resize (the canvas sent them
// all): the screen is cleared first, as tcell's Sync clears it, then every cell written. It
// leaves tcell's buffer as the resize left it, all of it to draw, which the next frame
// tcell draws, if any, does. It reports false when tcell must draw the frame (Sync).
func (t *termWriter) redraw(cv *canvas, cursor cursorState) bool {
	if t == nil || t.ti.Clear == "" {
		return false
	}
	return t.send(cv, cursor, true)
}

// send writes the frame's changed cells, after clearing the screen when clear is set.
func (t *termWriter) send(cv *canvas, cursor cursorState, clear bool) bool {
	if t == nil || t.off || !t.ready {
		return false
	}
	for _, i := range cv.changed {
		if !t.handles(cv, i) {
			return false
		}
	}
	t.buf.Reset()
	t.puts(t.syncStart)
	t.puts(t.ti.HideCursor)
	if t.tcellDrew {
		t.puts(t.exitLink)
	}
	t.cx, t.cy, t.styled, t.link = -1, -1, false, ""
	if clear {
		t.puts(t.ti.AttrOff)
		t.puts(t.ti.Clear)
	}
	if len(t.in) != len(cv.sent) {
		t.in, t.since = make([]bool, len(cv.sent)), t.since[:0] // a new size: tcell redraws all (Sync)
	}
	for _, i := range cv.changed {
		t.cell(cv, i)
		if !t.in[i] {
			t.in[i] = true
			t.since = append(t.since, i)
		}
	}
	t.linkTo("")
	if cursor.visible && cursor.x >= 0 && cursor.y >= 0 && cursor.x < cv.w && cursor.y < cv.h {
		t.puts(t.ti.TGoto(cursor.x, cursor.y))
		t.puts(t.ti.ShowCursor)
	}
	t.puts(t.syncEnd)
	_, _ = io.WriteString(t.tty, t.buf.String())
	t.tcellDrew = false
	return true
}

// handles reports whether the writer can send cell i as tcell would.
func (t *termWriter) handles(cv *canvas, i int32) bool {
	x, y := int(i)%cv.w, int(i)/cv.w
	if x == cv.w-1 && y == cv.h-1 && t.ti.AutoMargin && t.ti.DisableAutoMargin == "" && t.ti.InsertChar != "" {
		return false // tcell writes there its own way round, lest the terminal scroll
	}
	c := cv.sent[i]
	if c.style == 0 {
		return true
	}
	st := cv.styles[c.style-1]
	if st.Url("") != st {
		if _, ok := cv.links[c.style]; !ok || t.exitLink == "" {
			return false // a link whose address only tcell's style knows
		}
	}
	us := st.GetUnderlineStyle()
	return (us == tcell.UnderlineStyleNone || us == tcell.UnderlineStyleSolid) && st.GetUnderlineColor() == tcell.ColorDefault
}

// cell sends cell i of the canvas, as tcell's buffer now holds it.
func (t *termWriter) cell(cv *canvas, i int32) {
	x, y := int(i)%cv.w, int(i)/cv.w
	if x > 0 && clusterWidth(cv.sent[i-1].str) > 1 {
		return // the right half of a wide character: the terminal draws it with its left
	}
	c := cv.sent[i]
	str, width := c.str, clusterWidth(c.str)
	if str == "" {
		str, width = " ", 1
	}
	var st tcell.Style
	if c.style > 0 {
		st = cv.styles[c.style-1]
	}
	if t.cx != x || t.cy != y {
		t.puts(t.ti.TGoto(x, y))
		t.cx, t.cy = x, y
	}
	if !t.styled || st != t.cur {
		t.style(st)
		t.cur, t.styled = st, true
		t.linkTo(cv.links[c.style])
	}
	if len(str) > maxClusterBytes || !utf8.ValidString(str) {
		str = "?" // what tcell's encoder sends for a cluster it cannot encode
	}
	if x > cv.w-width {
		width, str = 1, " " // too wide for the last column
	}
	if width > 1 && x+width < cv.w {
		// Blank both cells first: some terminals leave the second cell's old content
		// beside a wide character written over two narrow ones (as tcell does).
		t.buf.WriteString("  \b\b")
	}
	t.buf.WriteString(str)
	t.cx += width
	if width > 1 {
		t.cx = -1 // where a terminal leaves the cursor after a wide character varies
	}
}

// style sends st: the attributes off, then its colors and attributes.
func (t *termWriter) style(st tcell.Style) {
	ti := t.ti
	fg, bg, attrs := st.Decompose()
	t.puts(ti.AttrOff)
	if fg == tcell.ColorReset || bg == tcell.ColorReset {
		t.puts(ti.ResetFgBg)
	}
	if t.truecolor {
		switch {
		case ti.SetFgBgRGB != "" && fg.IsRGB() && bg.IsRGB():
			r1, g1, b1 := fg.RGB()
			r2, g2, b2 := bg.RGB()
			t.puts(ti.TParm(ti.SetFgBgRGB, int(r1), int(g1), int(b1), int(r2), int(g2), int(b2)))
			fg, bg = tcell.ColorDefault, tcell.ColorDefault
		default:
			if fg.IsRGB() && ti.SetFgRGB != "" {
				r, g, b := fg.RGB()
				t.puts(ti.TParm(ti.SetFgRGB, int(r), int(g), int(b)))
				fg = tcell.ColorDefault
			}
			if bg.IsRGB() && ti.SetBgRGB != "" {
				r, g, b := bg.RGB()
				t.puts(ti.TParm(ti.SetBgRGB, int(r), int(g), int(b)))
				bg = tcell.ColorDefault
			}
		}
	}
	fg, bg = t.fitted(fg), t.fitted(bg)
	if fg.Valid() && bg.Valid() && ti.SetFgBg != "" {
		t.puts(ti.TParm(ti.SetFgBg, int(fg&0xff), int(bg&0xff)))
	} else {
		if fg.Valid() && ti.SetFg != "" {
			t.puts(ti.TParm(ti.SetFg, int(fg&0xff)))
		}
		if bg.Valid() && ti.SetBg != "" {
			t.puts(ti.TParm(ti.SetBg, int(bg&0xff)))
		}
	}
	if attrs&tcell.AttrBold != 0 {
		t.puts(ti.Bold)
	}
	if st.GetUnderlineStyle() != tcell.UnderlineStyleNone {
		t.puts(ti.Underline)
	}
	for _, a := range [...]struct {
		mask tcell.AttrMask
		seq  string
	}{{tcell.AttrReverse, ti.Reverse}, {tcell.AttrBlink, ti.Blink}, {tcell.AttrDim, ti.Dim},
		{tcell.AttrItalic, ti.Italic}, {tcell.AttrStrikeThrough, ti.StrikeThrough}} {
		if attrs&a.mask != 0 {
			t.puts(a.seq)
		}
	}
}

// linkTo makes the text written next a link to url (OSC 8), or no link when url is empty.
// A frame ends with no link open: text written later by anyone is no link.
func (t *termWriter) linkTo(url string) {
	if url == t.link || t.exitLink == "" {
		return
	}
	if url == "" {
		t.buf.WriteString(t.exitLink)
	} else {
		t.buf.WriteString("\x1b]8;;")
		for _, r := range url {
			if r >= 0x20 && r != 0x7f && (r < 0x80 || r > 0x9f) {
				t.buf.WriteRune(r) // control characters would end the sequence early
			}
		}
		t.buf.WriteString("\x1b\\")
	}
	t.link = url
}

// fitted is the terminal's color nearest to c (c itself when it has it).
func (t *termWriter) fitted(c tcell.Color) tcell.Color {
	if !c.Valid() {
		return c
	}
	v, ok := t.fit[c]
	if !ok {
		v = tcell.FindColor(c, t.palette)
		t.fit[c] = v
	}
	return v
}

// puts adds a terminfo string to the frame's output, its padding delays taken out.
func (t *termWriter) puts(s string) {
	if s != "" {
		t.ti.TPuts(&t.buf, s)
	}
}

// clusterWidth is the cells the cluster s takes on the terminal, as tcell counts them.
func clusterWidth(s string) int {
	if len(s) == 1 {
		return 1
	}
	if s == "" {
		return 0
	}
	_, _, w, _ := uniseg.FirstGraphemeClusterInString(s, -1)
	return max(w, 1)
}
