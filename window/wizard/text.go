package wizard

import (
	"strings"

	"git.rickub.com/bots-garden/sidekicks/window"
)

// pad fills s with spaces up to width cells.
func pad(s string, width int) string {
	if n := width - window.TextWidth(s); n > 0 {
		return s + strings.Repeat(" ", n)
	}
	return s
}
