package convo

import (
	"sync"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Accents, for Find: the letter a rune is without its accents, from a table built once
// (Unicode NFD: a letter followed by combining marks only), over the runes of the Latin,
// Greek and Cyrillic scripts and Latin Extended Additional (foldLow to foldHigh).
const (
	foldLow  = 0xC0
	foldHigh = 0x2000
)

var (
	foldOnce  sync.Once
	foldTable []rune // rune - foldLow → the letter without accents, 0 when it has none
)

// foldRune returns r without its accents (r when it has none).
func foldRune(r rune) rune {
	if r < foldLow || r >= foldHigh {
		return r
	}
	foldOnce.Do(buildFold)
	if f := foldTable[r-foldLow]; f != 0 {
		return f
	}
	return r
}

func buildFold() {
	t := make([]rune, foldHigh-foldLow)
	var buf [32]byte
	for r := rune(foldLow); r < foldHigh; r++ {
		d := norm.NFD.AppendString(buf[:0], string(r))
		var base rune
		marks := true
		for k, c := range string(d) {
			if k == 0 {
				base = c
			} else if !unicode.Is(unicode.Mn, c) {
				marks = false
			}
		}
		if marks && base != r && len(string(d)) > len(string(base)) {
			t[r-foldLow] = base
		}
	}
	foldTable = t
}
