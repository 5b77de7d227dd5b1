package windowtest

import (
	"testing"

	"github.com/gdamore/tcell/v2"
)

// TcellFullRedraw is the body of a benchmark of tcell's own cost of changing every cell of a
// 200×60 simulation screen and showing it: the baseline that the packages' frame
// benchmarks are compared with, measured in the same run as theirs.
func TcellFullRedraw(b *testing.B) {
	sim := tcell.NewSimulationScreen("UTF-8")
	if err := sim.Init(); err != nil {
		b.Fatal(err)
	}
	defer sim.Fini()
	sim.SetSize(200, 60)
	st := tcell.StyleDefault.Foreground(tcell.ColorSilver).Background(tcell.ColorNavy)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		for y := 0; y < 60; y++ {
			for x := 0; x < 200; x++ {
				sim.SetContent(x, y, rune('a'+(x+y+i)%26), nil, st)
			}
		}
		sim.Show()
	}
}
