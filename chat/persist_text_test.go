package chat

import "testing"

// The history's texts have both languages, with the same verbs.
func TestPersistTextsComplete(t *testing.T) {
	for _, p := range persistText.Problems(0) {
		t.Error(p)
	}
}
