package window

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// benchText is a long text: lines of prose of varied lengths.
func benchText(lines int) []TextLine {
	words := strings.Fields("the quick brown fox jumps over the lazy dog while agents stream markdown code and tool calls into windows that tile side by side")
	out := make([]TextLine, lines)
	for i := range out {
		n := 5 + i*7%25
		var b strings.Builder
		for j := 0; j < n; j++ {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[(i+j)%len(words)])
		}
		out[i] = TextLine{Text: b.String(), Class: Class(int(ClassText) + (i%3)*int(ClassKeyword-ClassText)*boolInt(i%3 == 1))}
	}
	return out
}

// BenchmarkFrame9Windows draws full frames of 9 tiled windows at 200×60, each a text
// view full of text, scrolled by one row between frames so that every content cell
// changes, then shown on the simulation screen.
func BenchmarkFrame9Windows(b *testing.B) {
	sim := tcell.NewSimulationScreen("UTF-8")
	if err := sim.Init(); err != nil {
		b.Fatal(err)
	}
	defer sim.Fini()
	sim.SetSize(200, 60)
	a, err := New(Options{Screen: sim})
	if err != nil {
		b.Fatal(err)
	}
	a.SetMenus(SampleMenus(a))
	var views []*TextView
	for i := 0; i < 9; i++ {
		v := NewTextView()
		v.SetLines(benchText(2000))
		views = append(views, v)
		if _, err := a.AddWindow(fmt.Sprintf("Window %d", i+1), v); err != nil {
			b.Fatal(err)
		}
	}
	a.draw()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		for _, v := range views {
			v.scrollTo(i % 2)
		}
		a.draw()
	}
}
