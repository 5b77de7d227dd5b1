package chatwin

import "testing"

// TestStartingTextComplete: the starting time's text has both languages, with the same
// verbs in each.
func TestStartingTextComplete(t *testing.T) {
	for _, p := range startingText.Problems(sStartingFor) {
		t.Error(p)
	}
}
