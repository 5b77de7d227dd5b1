package app

import (
	"slices"
	"testing"
)

// TestSessionAndElicitationTextsComplete: the texts of Agent ▸ Sessions… and of the
// elicitation dialogs have both languages, with the same verbs in each.
func TestSessionAndElicitationTextsComplete(t *testing.T) {
	for _, p := range slices.Concat(sessionsText.Problems(sWhichAgent), elicitText.Problems(elTitle)) {
		t.Error(p)
	}
}
