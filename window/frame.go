package window

import (
	"strconv"
	"time"

	"github.com/gdamore/tcell/v2"
)

// spinnerFrames turn on the frame of a window whose content is working.
var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// spinnerStep is how long each spinner frame shows.
const spinnerStep = 125 * time.Millisecond

// spinnerFrame picks the frame from the clock, not from a counter: two windows working at
// the same time turn in phase, and nothing is reset when a turn starts.
func spinnerFrame(now time.Time) string {
	return spinnerFrames[now.UnixMilli()/spinnerStep.Milliseconds()%int64(len(spinnerFrames))]
}

type boxChars struct{ h, v, tl, tr, bl, br string }

var (
	singleBox = boxChars{"─", "│", "┌", "┐", "└", "┘"}
	doubleBox = boxChars{"═", "║", "╔", "╗", "╚", "╝"}
)

// Places on a window's top edge, from its left and right ends.
const (
	closeAt   = 1 // "[x]" from x = 1
	spinnerAt = 5
	titleFrom = 7
	zoomBack  = 4 // "[■]" from x = W-4
	numberEnd = 6 // the number's block ends at x = W-6
)

// drawWindow draws w's frame and its widget inside.
func (a *App) drawWindow(screen Region, w *Window, focused bool) {
	r := screen.Sub(w.rect.X, w.rect.Y, w.rect.W, w.rect.H)
	box, frameClass, titleClass := singleBox, ClassFrame, ClassTitle
	if focused {
		box, frameClass, titleClass = doubleBox, ClassFrameActive, ClassTitleActive
	}
	fs := r.style(frameClass)
	W, H := w.rect.W, w.rect.H
	a.drawTopEdge(r, w, box, fs, r.style(titleClass))
	for y := 1; y < H-1; y++ {
		r.put(0, y, box.v, fs)
		r.put(W-1, y, box.v, fs)
	}
	r.put(0, H-1, box.bl, fs)
	for x := 1; x < W-1; x++ {
		r.put(x, H-1, box.h, fs)
	}
	r.put(W-1, H-1, box.br, fs)
	inner := r.Sub(1, 1, W-2, H-2)
	w.widget.Draw(inner, focused && len(a.dialogs) == 0 && !a.menu.open)
}

// drawTopEdge draws the top edge left to right, each cell once: the corner, [x], the
// spinner's place, the centred title, the number with its unread or attention mark, [■].
func (a *App) drawTopEdge(r Region, w *Window, box boxChars, fs, ts tcell.Style) {
	W := w.rect.W
	num := strconv.Itoa(w.Number())
	numX := W - numberEnd - len(num) // the number, then its mark at W-numberEnd
	x := 0
	line := func(to int) {
		for ; x < to; x++ {
			r.put(x, 0, box.h, fs)
		}
	}
	r.put(0, 0, box.tl, fs)
	x = 1
	x += r.text(x, 0, "[x]", fs)
	line(spinnerAt)
	if w.Busy() {
		r.put(x, 0, spinnerFrame(a.now()), r.style(ClassSpinner))
		x++
	}
	if avail := numX - 1 - titleFrom; avail >= 3 {
		title := " " + truncate(w.title, avail-2) + " "
		tw := TextWidth(title)
		line(min(max((W-tw)/2, titleFrom), numX-1-tw))
		x += r.text(x, 0, title, ts)
	}
	line(numX - 1)
	r.put(x, 0, " ", r.style(ClassWindowNumber))
	x++
	x += r.text(x, 0, num, r.style(ClassWindowNumber))
	switch {
	case w.attention:
		r.put(x, 0, "!", r.style(ClassAttention))
	case w.unread:
		r.put(x, 0, "●", r.style(ClassUnread))
	default:
		r.put(x, 0, " ", r.style(ClassWindowNumber))
	}
	x++
	line(W - zoomBack)
	x += r.text(x, 0, "[■]", fs)
	r.put(x, 0, box.tr, fs)
}

// closeButton and zoomButton report whether the cell (x, y) is on w's [x] or [■].
func (w *Window) closeButton(x, y int) bool {
	return y == w.rect.Y && x >= w.rect.X+closeAt && x < w.rect.X+closeAt+3
}

func (w *Window) zoomButton(x, y int) bool {
	return y == w.rect.Y && x >= w.rect.X+w.rect.W-zoomBack && x < w.rect.X+w.rect.W-1
}
