package config

import (
	"strings"
	"unicode/utf8"
)

// nearest returns the candidate closest to word in edit distance, when one is close
// enough to be what was meant ("comand" → "command"), else a candidate that word is the
// start of ("lang" → "language"), else "". Case is ignored, so "Command" suggests
// "command".
func nearest(word string, candidates []string) string {
	lower := strings.ToLower(word)
	w := []rune(lower)
	best, bestDist := "", -1
	for _, c := range candidates {
		// Lengths more than two apart are more than two edits apart: skip the work.
		if n := utf8.RuneCountInString(c); n > len(w)+2 || n < len(w)-2 {
			continue
		}
		d := editDistance(w, []rune(strings.ToLower(c)))
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	// Two edits at most, and no more than a third of the word: "x" must not suggest "ui".
	if bestDist >= 0 && bestDist <= 2 && bestDist*3 <= len(w) {
		return best
	}
	if len(w) >= 3 {
		for _, c := range candidates {
			if strings.HasPrefix(strings.ToLower(c), lower) {
				return c
			}
		}
	}
	return ""
}

// editDistance is the optimal string alignment distance: insertions, deletions,
// substitutions and transpositions of two neighbours each count one.
func editDistance(a, b []rune) int {
	// Beyond this length a key is not a typo of a known key; keep the work bounded for
	// hostile input.
	const limit = 64
	if len(a) > limit || len(b) > limit {
		return limit
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
