package window

import "math"

// Rect is a rectangle of cells: its top-left corner and its size.
type Rect struct{ X, Y, W, H int }

// Contains reports whether the cell (x, y) is inside r.
func (r Rect) Contains(x, y int) bool {
	return x >= r.X && y >= r.Y && x < r.X+r.W && y < r.Y+r.H
}

// Intersect returns the part of r inside o (an empty rectangle when they do not meet).
func (r Rect) Intersect(o Rect) Rect {
	x0, y0 := max(r.X, o.X), max(r.Y, o.Y)
	x1, y1 := min(r.X+r.W, o.X+o.W), min(r.Y+r.H, o.Y+o.H)
	if x1 <= x0 || y1 <= y0 {
		return Rect{x0, y0, 0, 0}
	}
	return Rect{x0, y0, x1 - x0, y1 - y0}
}

// Empty reports whether r holds no cell.
func (r Rect) Empty() bool { return r.W <= 0 || r.H <= 0 }

// The smallest window that stays usable: its frame, the decorations of its top edge, and
// three rows of content.
const (
	MinWindowWidth  = 20
	MinWindowHeight = 5
)

// The smallest terminal Sidekicks draws in: below it the screen says it is too small.
const (
	MinScreenWidth  = 40
	MinScreenHeight = 10
)

// Tile splits area between n windows and returns their rectangles in window order.
//
// One window takes the whole area; two sit side by side; n windows form a grid of
// ceil(sqrt(n)) columns and ceil(n/columns) rows, the rows balanced (they differ by one
// window at most, the first rows holding the extra ones), each row's windows sharing its
// width and the rows sharing the height, the remainders going to the first ones. The
// rectangles never overlap and cover the area exactly.
//
// ok is false when a tile would be smaller than MinWindowWidth × MinWindowHeight: the
// caller then shows the focused window alone over the whole area (see Manager).
func Tile(n int, area Rect) (rects []Rect, ok bool) {
	if n <= 0 {
		return nil, true
	}
	cols := int(math.Ceil(math.Sqrt(float64(n))))
	rows := (n + cols - 1) / cols
	if n == 2 {
		cols, rows = 2, 1
	}
	ok = true
	rects = make([]Rect, 0, n)
	heights := split(area.H, rows)
	y := area.Y
	for row := 0; row < rows; row++ {
		inRow := n / rows
		if row < n%rows {
			inRow++
		}
		widths := split(area.W, inRow)
		x := area.X
		for _, w := range widths {
			r := Rect{x, y, w, heights[row]}
			if r.W < MinWindowWidth || r.H < MinWindowHeight {
				ok = false
			}
			rects = append(rects, r)
			x += w
		}
		y += heights[row]
	}
	return rects, ok
}

// split divides total into n parts that differ by one at most, the larger ones first.
func split(total, n int) []int {
	parts := make([]int, n)
	for i := range parts {
		parts[i] = total / n
		if i < total%n {
			parts[i]++
		}
	}
	return parts
}
