package chat

import "testing"

// TestSessionNoticesComplete: the notices of a continued session have both languages,
// with the same verbs in each.
func TestSessionNoticesComplete(t *testing.T) {
	for _, p := range sessionText.Problems(msgSessionResumed) {
		t.Error(p)
	}
}
