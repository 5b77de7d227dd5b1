package window

import "github.com/gdamore/tcell/v2"

// Region is a rectangle of the screen a widget draws in, with coordinates relative to its
// top-left corner. It refuses to draw outside itself: a widget cannot spoil its
// neighbours, whatever it is asked to draw. A Region is only valid during the Draw call
// that received it.
type Region struct {
	screen tcell.Screen
	cv     *canvas // what the cells hold already; nil to put every cell on screen
	origin Rect    // the region's own rectangle, in screen coordinates
	clip   Rect    // what may be drawn: origin within every parent
	theme  *Theme
	cursor *cursorState
}

// cursorState is where the terminal's cursor goes at the end of a frame.
type cursorState struct {
	x, y    int
	visible bool
}

// Size returns the region's width and height in cells.
func (r Region) Size() (width, height int) { return r.origin.W, r.origin.H }

// Sub returns the part of r at (x, y) of the given size, clipped to r.
func (r Region) Sub(x, y, width, height int) Region {
	o := Rect{r.origin.X + x, r.origin.Y + y, max(width, 0), max(height, 0)}
	return Region{screen: r.screen, cv: r.cv, origin: o, clip: r.clip.Intersect(o), theme: r.theme, cursor: r.cursor}
}

// Style returns the style of a class in the current theme.
func (r Region) style(c Class) tcell.Style { return r.theme.Style(c) }

// Fill paints the whole region with spaces in the style of class c.
func (r Region) Fill(c Class) { r.fill(r.style(c)) }

func (r Region) fill(st tcell.Style) {
	p := r.pen(st)
	for y := r.clip.Y; y < r.clip.Y+r.clip.H; y++ {
		for x := r.clip.X; x < r.clip.X+r.clip.W; x++ {
			r.putCell(x, y, " ", &p)
		}
	}
}

// Text draws s at (x, y) in the style of class c, clipped to the region, and returns the
// number of cells it took.
func (r Region) Text(x, y int, s string, c Class) int { return r.text(x, y, s, r.style(c)) }

// Link is Text drawn as a hyperlink to url: tcell sends it as an OSC 8 link where the
// terminal supports them, and draws the text alone elsewhere. url must hold no control
// character (window/markdown removes them).
func (r Region) Link(x, y int, s string, c Class, url string) int {
	st := r.style(c).Url(url)
	if r.cv != nil {
		r.cv.link(r.cv.styleID(st), url) // for termWriter: tcell's style does not tell it
	}
	return r.text(x, y, s, st)
}

// Line draws s at the start of row y in the style of class c and fills the rest of the row
// with spaces of the same style.
func (r Region) Line(y int, s string, c Class) {
	st := r.style(c)
	n := r.text(0, y, s, st)
	r.spaces(n, y, r.origin.W-n, st)
}

// text draws s at (x, y), one grapheme cluster after another, stopping at the right
// edge. A wide cluster that does not fit leaves a space in the last cell.
func (r Region) text(x, y int, s string, st tcell.Style) int {
	p := r.pen(st)
	start := x
	ay := r.origin.Y + y
	if ay < r.clip.Y || ay >= r.clip.Y+r.clip.H {
		return TextWidth(s)
	}
	right := r.clip.X + r.clip.W
	for s != "" {
		if r.cv != nil && s[0] >= 0x20 && s[0] < 0x7f && r.origin.X+x >= r.clip.X {
			if n := r.cv.ascii(r.origin.X+x, ay, s, p.id, right); n > 0 {
				s, x = s[n:], x+n
				continue
			}
		}
		g, w, rest := nextCluster(s)
		s = rest
		if w == 0 {
			continue
		}
		ax := r.origin.X + x
		if ax+w > right {
			if ax < right && ax >= r.clip.X {
				r.putCell(ax, ay, " ", &p)
			}
			return x - start + w + TextWidth(s)
		}
		if ax >= r.clip.X {
			r.putCell(ax, ay, g, &p)
			r.covered(ax, ay, w, &p)
		} else if ax+w > r.clip.X {
			// A wide cluster cut by the left edge: draw only its visible cell, blank.
			r.putCell(r.clip.X, ay, " ", &p)
		}
		x += w
	}
	return x - start
}

// covered gives the cells a cluster of width w drawn at (ax, ay), in screen coordinates,
// covers after its first the cluster's style. tcell's Put writes only the first cell of a
// wide cluster and leaves the next one as an earlier frame left it, style included; the
// terminal never shows that cell, but the screen's buffer would keep a stale style there.
func (r Region) covered(ax, ay, w int, p *pen) {
	for i := 1; i < w; i++ {
		r.putCell(ax+i, ay, " ", p)
	}
}

// spaces draws n spaces from (x, y).
func (r Region) spaces(x, y, n int, st tcell.Style) { r.repeat(x, y, n, " ", st) }

// Repeat draws the one-cell cluster g (a box-drawing character: a rule) n times from (x, y)
// in the style of class c, clipped to the region: one style and one cluster for the whole
// run, where Text called for each cell segments it again each time.
func (r Region) Repeat(x, y, n int, g string, c Class) { r.repeat(x, y, n, g, r.style(c)) }

func (r Region) repeat(x, y, n int, g string, st tcell.Style) {
	ay := r.origin.Y + y
	if ay < r.clip.Y || ay >= r.clip.Y+r.clip.H {
		return
	}
	p := r.pen(st)
	for i := 0; i < n; i++ {
		ax := r.origin.X + x + i
		if ax >= r.clip.X && ax < r.clip.X+r.clip.W {
			r.putCell(ax, ay, g, &p)
		}
	}
}

// put draws one cell-wide string (a box-drawing character, a mark) at (x, y).
func (r Region) put(x, y int, g string, st tcell.Style) {
	ax, ay := r.origin.X+x, r.origin.Y+y
	if r.clip.Contains(ax, ay) {
		p := r.pen(st)
		r.putCell(ax, ay, g, &p)
	}
}

// pen is a style to put cells in: numbered by the canvas once for all the cells of a call,
// rather than compared field by field at each cell.
type pen struct {
	st tcell.Style
	id uint32 // the canvas's number for st (0 without a canvas)
}

func (r Region) pen(st tcell.Style) pen {
	if r.cv != nil {
		return pen{st: st, id: r.cv.styleID(st)}
	}
	return pen{st: st}
}

// putCell puts one cluster in the screen's cell (x, y), in screen coordinates.
func (r Region) putCell(x, y int, g string, p *pen) {
	if r.cv != nil {
		r.cv.put(x, y, g, p.id)
		return
	}
	r.screen.Put(x, y, g, p.st)
}

// ShowCursor places the terminal's cursor at (x, y) of the region at the end of the
// frame; a focused text input calls it. A position outside the region hides it.
func (r Region) ShowCursor(x, y int) {
	if r.cursor == nil {
		return
	}
	ax, ay := r.origin.X+x, r.origin.Y+y
	if !r.clip.Contains(ax, ay) {
		return
	}
	r.cursor.x, r.cursor.y, r.cursor.visible = ax, ay, true
}
