package window

import (
	"fmt"
	"testing"
)

// checkTiling asserts what every tiling must be: no overlap, the whole area covered, and
// each tile usable when ok.
func checkTiling(t *testing.T, n int, area Rect, rects []Rect, ok bool) {
	t.Helper()
	if len(rects) != n {
		t.Fatalf("%d rectangles for %d windows", len(rects), n)
	}
	covered := make(map[[2]int]int)
	for i, r := range rects {
		if r.Empty() {
			t.Errorf("window %d has an empty rectangle %+v", i+1, r)
		}
		if r.Intersect(area) != r {
			t.Errorf("window %d at %+v leaves the area %+v", i+1, r, area)
		}
		if ok && (r.W < MinWindowWidth || r.H < MinWindowHeight) {
			t.Errorf("window %d is %d×%d, smaller than %d×%d, yet ok", i+1, r.W, r.H, MinWindowWidth, MinWindowHeight)
		}
		for y := r.Y; y < r.Y+r.H; y++ {
			for x := r.X; x < r.X+r.W; x++ {
				covered[[2]int{x, y}]++
			}
		}
	}
	for y := area.Y; y < area.Y+area.H; y++ {
		for x := area.X; x < area.X+area.W; x++ {
			switch covered[[2]int{x, y}] {
			case 0:
				t.Fatalf("cell (%d,%d) is covered by no window", x, y)
			case 1:
			default:
				t.Fatalf("cell (%d,%d) is covered by %d windows", x, y, covered[[2]int{x, y}])
			}
		}
	}
	if len(covered) != area.W*area.H {
		t.Fatalf("%d cells covered, the area has %d", len(covered), area.W*area.H)
	}
}

func TestTileInvariants(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}, {40, 10}, {100, 30}, {57, 13}} {
		area := Rect{0, 1, size[0], size[1] - 2}
		for n := 1; n <= MaxWindows; n++ {
			t.Run(fmt.Sprintf("%dx%d/%d", size[0], size[1], n), func(t *testing.T) {
				rects, ok := Tile(n, area)
				checkTiling(t, n, area, rects, ok)
				small := false
				for _, r := range rects {
					small = small || r.W < MinWindowWidth || r.H < MinWindowHeight
				}
				if ok == small {
					t.Errorf("ok = %v, but a tile below the minimum: %v", ok, small)
				}
			})
		}
	}
}

func TestTileShapes(t *testing.T) {
	area := Rect{0, 1, 120, 38}
	cases := []struct {
		n    int
		rows []int // windows per row, top to bottom
	}{
		{1, []int{1}}, {2, []int{2}}, {3, []int{2, 1}}, {4, []int{2, 2}}, {5, []int{3, 2}},
		{6, []int{3, 3}}, {7, []int{3, 2, 2}}, {8, []int{3, 3, 2}}, {9, []int{3, 3, 3}},
	}
	for _, c := range cases {
		rects, ok := Tile(c.n, area)
		if !ok {
			t.Errorf("%d windows do not fit in 120×38", c.n)
		}
		var rows []int
		lastY := -1
		for _, r := range rects {
			if r.Y != lastY {
				rows = append(rows, 0)
				lastY = r.Y
			}
			rows[len(rows)-1]++
		}
		if fmt.Sprint(rows) != fmt.Sprint(c.rows) {
			t.Errorf("%d windows: rows %v, want %v", c.n, rows, c.rows)
		}
		for i := 1; i < len(rects); i++ {
			if rects[i].Y == rects[i-1].Y && rects[i].X != rects[i-1].X+rects[i-1].W {
				t.Errorf("%d windows: window %d does not follow window %d in its row", c.n, i+1, i)
			}
		}
	}
	if r, _ := Tile(1, area); r[0] != area {
		t.Errorf("one window gets %+v, want the whole area %+v", r[0], area)
	}
	if r, _ := Tile(2, area); r[0].W != 60 || r[1].W != 60 || r[0].H != 38 {
		t.Errorf("two windows get %+v, want two columns of 60×38", r)
	}
}

func TestTileTooSmall(t *testing.T) {
	area := Rect{0, 1, 40, 8}
	if _, ok := Tile(2, area); !ok {
		t.Error("two windows should fit in 40×8")
	}
	if _, ok := Tile(9, area); ok {
		t.Error("nine windows cannot be usable in 40×8")
	}
	if r, ok := Tile(0, area); len(r) != 0 || !ok {
		t.Errorf("no window: got %v, %v", r, ok)
	}
}

func TestRect(t *testing.T) {
	a := Rect{0, 0, 10, 5}
	if got := a.Intersect(Rect{5, 2, 10, 10}); got != (Rect{5, 2, 5, 3}) {
		t.Errorf("intersection %+v", got)
	}
	if got := a.Intersect(Rect{20, 20, 2, 2}); !got.Empty() {
		t.Errorf("disjoint intersection %+v is not empty", got)
	}
	if !a.Contains(9, 4) || a.Contains(10, 4) || a.Contains(-1, 0) {
		t.Error("Contains is wrong at the edges")
	}
}
