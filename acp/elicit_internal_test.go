package acp

import (
	"slices"
	"testing"
)

// TestSessionTextsComplete: the texts of the elicitations' checks and of the start wait
// have both languages, with the same verbs in each.
func TestSessionTextsComplete(t *testing.T) {
	for _, p := range slices.Concat(elicitText.Problems(eRequired), startText.Problems(sLastWords)) {
		t.Error(p)
	}
}
