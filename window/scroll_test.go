package window

import "testing"

func TestScrollToShow(t *testing.T) {
	for _, c := range []struct {
		top, sel, height, n, want int
	}{
		{0, 0, 5, 10, 0}, // in view
		{0, 4, 5, 10, 0}, // the last row of the view
		{0, 5, 5, 10, 1}, // one below: scroll by one
		{6, 2, 5, 10, 2}, // above: the row becomes the first
		{0, 9, 5, 10, 5}, // the end
		{8, 9, 5, 10, 5}, // never past the last row
		{3, 1, 5, 3, 0},  // fewer rows than the view
		{0, 3, 0, 10, 3}, // a view of no height shows one row
		{2, -1, 5, 0, 0}, // nothing to show
	} {
		if got := ScrollToShow(c.top, c.sel, c.height, c.n); got != c.want {
			t.Errorf("ScrollToShow(%d, %d, %d, %d) = %d, want %d", c.top, c.sel, c.height, c.n, got, c.want)
		}
	}
}
