package chatwin

import "testing"

// TestTextsComplete: every text has both languages, with the same verbs in each.
func TestTextsComplete(t *testing.T) {
	for _, p := range catalogue.Problems(textNone + 1) {
		t.Error(p)
	}
}
