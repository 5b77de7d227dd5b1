package markdown

import (
	"reflect"
	"strings"
	"testing"
)

// TestForgetKeepsIndexes streams a text in chunks through two states, one of which forgets
// its committed lines after each update (as the view does once it has read them): both
// return the same indexes and the same lines from the one that changed on, including when
// a change of width makes a table drawn again from the start, and the one that forgets
// holds few lines.
func TestForgetKeepsIndexes(t *testing.T) {
	text := strings.Repeat(sample+"\n", 40)
	all, forgetting := New(""), New("")
	width := 40
	for n, step := 0, 1; n < len(text); n, step = n+step, step%97+13 {
		if n > len(text)/2 {
			width = 30 // the tables depend on the width: both states start again
		}
		cut := text[:min(n+step, len(text))]
		done := len(cut) == len(text)
		c1 := all.Update(cut, done, width)
		c2 := forgetting.Update(cut, done, width)
		if c1 != c2 || all.Committed() != forgetting.Committed() {
			t.Fatalf("at byte %d: changed %d, %d committed; forgetting: %d, %d", len(cut), c1, all.Committed(), c2, forgetting.Committed())
		}
		gone, lines := forgetting.Forgotten(), forgetting.Lines()
		if c2 < gone {
			t.Fatalf("at byte %d: line %d changed, before the %d lines forgotten", len(cut), c2, gone)
		}
		if want := all.Lines(); gone+len(lines) != len(want) || !reflect.DeepEqual(lines[c2-gone:], want[c1:]) {
			t.Fatalf("at byte %d: the lines from %d differ:\n%q\n%q", len(cut), c1, texts(lines[c2-gone:]), texts(want[c1:]))
		}
		forgetting.Forget()
		if held := len(forgetting.Lines()); held > 2*maxSegLines {
			t.Fatalf("at byte %d: the forgetting state holds %d lines once it forgot", len(cut), held)
		}
	}
}
