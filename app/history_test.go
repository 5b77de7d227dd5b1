package app

import "testing"

// The texts of the damaged history's offer have both languages, with the same verbs.
func TestHistoryMessagesComplete(t *testing.T) {
	for _, p := range historyCatalogue.Problems(hmsgDamagedTitle) {
		t.Error(p)
	}
}
