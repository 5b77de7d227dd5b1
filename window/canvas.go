package window

import (
	"strings"

	"github.com/gdamore/tcell/v2"
)

// canvas stands between the frames and tcell's screen: it remembers what each cell was
// last given, and passes on only the cells whose content or style changed over the whole
// frame. A frame still paints every cell (each by its owner, some twice: a window's
// background, then its text), but the cells that end the frame as they were — all of a
// window but the input when a key is typed — cost a comparison instead of tcell's Put,
// which takes the screen's lock, segments the text again, and marks the cell for the
// terminal whenever its text differs from the one before, even for a moment within a frame.
// So a cell painted blank then written is held here until the frame ends (flush), and
// reaches tcell only if it ends the frame changed.
//
// What the canvas remembers is what tcell's buffer holds, as long as nothing else writes
// there: it is forgotten when the screen's size changes and when the screen is redrawn in
// full (a resize, the terminal handed back after Suspend), where tcell may have cleared it.
type canvas struct {
	screen tcell.Screen
	w, h   int
	// cells is the frame being painted; sent what tcell holds. Between two frames they are
	// the same. touched lists the cells painted with something else in this frame.
	cells, sent []canvasCell
	touched     []int32
	// styles numbers the styles the cells hold (styleID); last is the last one numbered.
	styles   []tcell.Style
	styleIDs map[tcell.Style]uint32
	// links holds the address of each style numbered for a link (Region.Link).
	links map[uint32]string
	// clusters holds the one copy of each cluster other than ASCII the cells hold (own).
	clusters map[string]string
	last     tcell.Style
	lastID   uint32
	// changed lists the cells the last flush sent, and the cell after each that held a
	// wide character before (the terminal draws it again): what termWriter writes.
	changed []int32
	// hold lists the windows a frame left as they were (a frame drawn for a key paints its
	// window alone): what an earlier frame that gave way painted there is not sent by this
	// one, but by the next that paints them. A key's frame carries the key, not a flood.
	hold []Rect
}

type canvasCell struct {
	str   string // "" for a cell the canvas knows nothing of
	style uint32 // its style: an index in canvas.styles
	// touched: the cell is in canvas.touched (in cells; never set in sent).
	touched bool
}

// maxStyles bounds the styles the canvas numbers: past it (a conversation full of links,
// each a style of its own), the next frame starts afresh and numbers them again.
const maxStyles = 4096

// frame starts a frame on a screen of w×h cells; forget drops what the canvas knew. It
// reports whether the canvas starts empty: every cell must be painted again.
func (c *canvas) frame(screen tcell.Screen, w, h int, forget bool) (fresh bool) {
	if c.screen != screen || c.w != w || c.h != h || forget || len(c.styles) > maxStyles {
		c.screen, c.w, c.h = screen, w, h
		c.cells, c.sent = make([]canvasCell, w*h), make([]canvasCell, w*h)
		c.touched = c.touched[:0]
		c.styles, c.styleIDs, c.lastID = c.styles[:0], map[tcell.Style]uint32{}, 0
		c.links = nil
		return true
	}
	return false
}

// styleID numbers st: a cell holds its style's number, a comparison of two numbers where
// tcell's Style takes a comparison of seven fields, two of them strings, and a cell is a
// quarter of the size, so that a frame's comparisons of the whole screen stay in the
// processor's cache. Successive cells mostly share a style: the last one is kept at hand.
func (c *canvas) styleID(st tcell.Style) uint32 {
	if c.lastID != 0 && st == c.last {
		return c.lastID
	}
	id, ok := c.styleIDs[st]
	if !ok {
		c.styles = append(c.styles, st)
		id = uint32(len(c.styles)) // from 1: 0 is no style yet
		c.styleIDs[st] = id
	}
	c.last, c.lastID = st, id
	return id
}

// link notes that the style numbered id is a link to url.
func (c *canvas) link(id uint32, url string) {
	if c.links == nil {
		c.links = map[uint32]string{}
	}
	c.links[id] = url
}

// put gives the cell (x, y) the cluster g in the style numbered id (styleID), as tcell's Put
// does, by the end of the frame (flush), unless it holds them already.
func (c *canvas) put(x, y int, g string, id uint32) {
	if x < 0 || y < 0 || x >= c.w || y >= c.h {
		return
	}
	i := y*c.w + x
	cell := &c.cells[i]
	if cell.str == g && cell.style == id && g != "" {
		return
	}
	cell.str, cell.style = c.own(g), id
	if !cell.touched {
		cell.touched = true
		c.touched = append(c.touched, int32(i))
	}
}

// ascii puts the run of printable ASCII characters s starts with, one a cell from (x, y),
// up to the column right, and returns how many it put. It is put's loop for the most
// common text, without the segmenting: a character followed by a byte that may start a
// combining mark ends the run (it may be the start of a longer cluster).
func (c *canvas) ascii(x, y int, s string, id uint32, right int) int {
	if y < 0 || y >= c.h || x < 0 {
		return 0
	}
	right = min(right, c.w)
	i := y*c.w + x
	n := 0
	for ; n < len(s) && x+n < right; n++ {
		b := s[n]
		if b < 0x20 || b >= 0x7f || n+1 < len(s) && s[n+1] >= 0x80 {
			break
		}
		cell := &c.cells[i+n]
		if len(cell.str) == 1 && cell.str[0] == b && cell.style == id {
			continue
		}
		cell.str, cell.style = asciiCells[b], id
		if !cell.touched {
			cell.touched = true
			c.touched = append(c.touched, int32(i+n))
		}
	}
	return n
}

// asciiCells holds a string for each ASCII character, which a cell holding it shares.
var asciiCells = func() (t [128]string) {
	for b := range t {
		t[b] = string(rune(b))
	}
	return t
}()

// own is the string a cell keeps for the cluster g: a cell must not hold a substring of
// the text it was drawn from, or a conversation's whole buffer (a long reply's, replaced
// since by a larger one) stays alive as long as one of its characters is on the screen.
// The clusters other than ASCII are kept once each (up to maxClusters, then afresh).
func (c *canvas) own(g string) string {
	if len(g) == 1 && g[0] < 0x80 {
		return asciiCells[g[0]]
	}
	if len(g) > maxClusterBytes {
		return "?" // what tcell sends for it too; a copy would let hostile text fill memory
	}
	if s, ok := c.clusters[g]; ok {
		return s
	}
	if c.clusters == nil || len(c.clusters) >= maxClusters {
		c.clusters = map[string]string{}
	}
	s := strings.Clone(g)
	c.clusters[s] = s
	return s
}

// maxClusters bounds the clusters other than ASCII the canvas keeps (own).
const maxClusters = 4096

// maxClusterBytes is the longest cluster a cell holds: tcell cannot encode a longer one
// (a character with hundreds of combining marks) and sends "?" instead.
const maxClusterBytes = 128

// flush ends a frame: it puts on tcell's screen the cells painted in it that end it
// different from what tcell holds, and returns how many.
func (c *canvas) flush() (sent int) {
	kept := c.touched[:0]
	c.changed = c.changed[:0]
	for _, i := range c.touched {
		cell, was := &c.cells[i], &c.sent[i]
		if c.held(i) {
			kept = append(kept, i)
			continue
		}
		cell.touched = false
		if cell.str == was.str && cell.style == was.style && cell.str != "" {
			continue
		}
		if int(i)%c.w+1 < c.w && clusterWidth(was.str) > 1 {
			c.changed = append(c.changed, i, i+1)
		} else {
			c.changed = append(c.changed, i)
		}
		*was = *cell
		c.screen.Put(int(i)%c.w, int(i)/c.w, cell.str, c.styles[cell.style-1])
		sent++
	}
	c.touched = kept
	return sent
}

// waiting reports whether cells painted by an earlier frame wait to be sent (hold).
func (c *canvas) waiting() bool { return len(c.touched) > 0 }

// held reports whether cell i lies in a window the frame left as it was.
func (c *canvas) held(i int32) bool {
	for _, r := range c.hold {
		if r.Contains(int(i)%c.w, int(i)/c.w) {
			return true
		}
	}
	return false
}
