package window

// ScrollToShow returns the first row a view of height rows over n rows shows, starting
// from top, so that row sel is in view: the view moves as little as it can, and never
// past the last row. Every list-like widget keeps its highlight in view with it.
func ScrollToShow(top, sel, height, n int) int {
	h := max(height, 1)
	if sel < top {
		top = sel
	}
	if sel >= top+h {
		top = sel - h + 1
	}
	return max(min(top, n-h), 0)
}
