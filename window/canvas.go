package window

import "github.com/gdamore/tcell/v2"

// canvas stands between the frames and tcell's screen: it remembers what each cell was
// last given, and passes on only the cells whose content or style changes. A frame still
// paints every cell (each by its owner), but the cells that stay as they were — all of a
// window but the input when a key is typed — cost a comparison instead of tcell's Put,
// which takes the screen's lock and segments the text again for every cell.
//
// What the canvas remembers is what tcell's buffer holds, as long as nothing else writes
// there: it is forgotten when the screen's size changes and when the screen is redrawn in
// full (a resize, the terminal handed back after Suspend), where tcell may have cleared it.
type canvas struct {
	screen tcell.Screen
	w, h   int
	cells  []canvasCell
}

type canvasCell struct {
	str   string // "" for a cell the canvas knows nothing of
	style tcell.Style
}

// frame starts a frame on a screen of w×h cells; forget drops what the canvas knew.
func (c *canvas) frame(screen tcell.Screen, w, h int, forget bool) {
	if c.screen != screen || c.w != w || c.h != h || forget {
		c.screen, c.w, c.h = screen, w, h
		c.cells = make([]canvasCell, w*h)
	}
}

// put gives the cell (x, y) the cluster g in style st, as tcell's Put does, unless it holds
// them already.
func (c *canvas) put(x, y int, g string, st tcell.Style) {
	if x < 0 || y < 0 || x >= c.w || y >= c.h {
		return
	}
	cell := &c.cells[y*c.w+x]
	if cell.str == g && cell.style == st && g != "" {
		return
	}
	cell.str, cell.style = g, st
	c.screen.Put(x, y, g, st)
}
