package wizard

import (
	"unicode"

	"git.rickub.com/bots-garden/sidekicks/window"
)

// buttonRow is a dialog's row of buttons: [ Preview ]  [ Cancel ].
type buttonRow struct {
	labels []string      // the buttons' texts, each mnemonic letter between tildes
	spots  []window.Rect // where each was drawn, for clicks
}

// draw centres the row on line y of r; focus is the focused button, -1 for none.
func (b *buttonRow) draw(r window.Region, y int, focus int) {
	W, _ := r.Size()
	texts := make([]string, len(b.labels))
	total := 0
	for i := range b.labels {
		texts[i] = "[ " + b.text(i) + " ]"
		total += window.TextWidth(texts[i])
		if i > 0 {
			total += 2
		}
	}
	r.Sub(0, y, W, 1).Fill(window.ClassDialog)
	x := max((W-total)/2, 0)
	b.spots = b.spots[:0]
	for i, t := range texts {
		if i > 0 {
			x += 2
		}
		c := window.ClassDialogButton
		if i == focus {
			c = window.ClassDialogButtonFocused
		}
		n := r.Text(x, y, t, c)
		b.spots = append(b.spots, window.Rect{X: x, Y: y, W: n, H: 1})
		x += n
	}
}

// text returns button i's text, without its mnemonic marks.
func (b *buttonRow) text(i int) string {
	s, _ := window.SplitMnemonic(b.labels[i])
	return s
}

// at returns the button at (x, y), -1 for none.
func (b *buttonRow) at(x, y int) int {
	for i, s := range b.spots {
		if s.Contains(x, y) {
			return i
		}
	}
	return -1
}

// letter returns the button whose marked letter (~P~review) is r, -1 for none.
func (b *buttonRow) letter(r rune) int {
	for i, lb := range b.labels {
		if _, m := window.SplitMnemonic(lb); m != 0 && unicode.ToLower(m) == unicode.ToLower(r) {
			return i
		}
	}
	return -1
}
