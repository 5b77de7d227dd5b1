package app

import (
	"strconv"
	"time"
)

// focusWindow presses Alt-n and waits until window n has the keyboard.
func (h *appHarness) focusWindow(n int) {
	h.t.Helper()
	h.alt(rune('0' + n))
	h.waitCondition("window "+strconv.Itoa(n)+" in front", func() bool {
		var got int
		h.onUI(func() {
			if w := h.ap.app.Focused(); w != nil {
				got = w.Number()
			}
		})
		return got == n
	})
}

var _ = time.Second
