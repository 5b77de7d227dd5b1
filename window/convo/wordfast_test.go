package convo

import (
	"math/rand"
	"strings"
	"testing"
)

// wordRef is word a byte at a time, without its run of eight bytes: the reference the
// fast path is checked against (TestWordRunsOfEight).
func (m *measurer) wordRef(pos, room int) (end, width int, fits bool) {
	text := m.text
	for pos < len(text) {
		if m.ascii(pos, '!') {
			if width+1 > room {
				m.remember(pos)
				return pos, width, false
			}
			width++
			pos++
			continue
		}
		if m.space(pos) {
			break
		}
		next, cw := m.cluster(pos)
		if cw > 1 {
			if width == 0 {
				if cw > room {
					return pos, 0, false
				}
				return next, cw, true
			}
			return pos, width, true
		}
		if width+cw > room {
			return pos, width, false
		}
		width += cw
		pos = next
	}
	return pos, width, true
}

// TestWordRunsOfEight: word measures what wordRef measures, and leaves the measurer as
// wordRef does, for words of printable ASCII with spaces, tabs, DEL, combining marks, wide
// characters and bytes that are not UTF-8 among them, at any room, from a cluster measured
// last anywhere.
func TestWordRunsOfEight(t *testing.T) {
	pieces := []string{"a", "Z", "0", "+", "/", "=", "~", "!", " ", "\u0301", "中", "é", "\x7f", "\x80", "\xff", "e\u0301", "😀"}
	rnd := rand.New(rand.NewSource(1))
	for range 20000 {
		var b strings.Builder
		for range rnd.Intn(120) {
			if rnd.Intn(4) == 0 {
				b.WriteString(pieces[rnd.Intn(len(pieces))])
			} else {
				b.WriteString(strings.Repeat("QUJD"[rnd.Intn(4):], 1+rnd.Intn(8)))
			}
		}
		text := b.String()
		if text == "" {
			continue
		}
		pos, room := rnd.Intn(len(text)), 1+rnd.Intn(90)
		at := -1
		if rnd.Intn(2) == 0 {
			at = rnd.Intn(len(text))
		}
		fast, ref := newMeasurer(text), newMeasurer(text)
		if at >= 0 {
			fast.cluster(at)
			ref.cluster(at)
			fast.work, ref.work = 0, 0
		}
		e1, w1, f1 := fast.word(pos, room)
		e2, w2, f2 := ref.wordRef(pos, room)
		if e1 != e2 || w1 != w2 || f1 != f2 || fast != ref {
			t.Fatalf("word(%q, %d, %d) from %d = %d %d %v, measurer %+v; a byte at a time: %d %d %v, %+v",
				text, pos, room, at, e1, w1, f1, fast, e2, w2, f2, ref)
		}
	}
}

// TestGraphic8: the eight-byte test agrees with a byte at a time, for each byte value in
// each place.
func TestGraphic8(t *testing.T) {
	for c := range 256 {
		for i := range 8 {
			b := []byte("QUJDREVG")
			b[i] = byte(c)
			want := c >= '!' && c <= '~'
			if got := graphic8(string(b)); got != want {
				t.Fatalf("graphic8(%q) = %v, want %v", b, got, want)
			}
		}
	}
}
