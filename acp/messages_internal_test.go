package acp

import "testing"

// TestMessagesComplete: every message has both languages, with the same verbs in each.
func TestMessagesComplete(t *testing.T) {
	for _, p := range catalogue.Problems(mAuthRequired) {
		t.Error(p)
	}
}
