package window_test

import (
	"testing"

	"git.rickub.com/bots-garden/sidekicks/window/windowtest"
)

// BenchmarkTcellFullRedraw is tcell's own cost of changing every cell of a 200×60
// simulation screen and showing it: the baseline of BenchmarkFrame9Windows.
func BenchmarkTcellFullRedraw(b *testing.B) { windowtest.TcellFullRedraw(b) }
