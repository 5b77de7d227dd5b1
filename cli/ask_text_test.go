package cli

import "testing"

// TestAskTextsComplete: every message of `sidekicks ask` has both languages, with the
// same verbs in each.
func TestAskTextsComplete(t *testing.T) {
	for _, p := range askCatalogue.Problems(askNeedArgs) {
		t.Error(p)
	}
}
