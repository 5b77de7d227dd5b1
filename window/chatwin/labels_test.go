package chatwin

import (
	"testing"

	"git.rickub.com/bots-garden/sidekicks/window/windowtest"
)

// TestTextsComplete: every text has both languages, with the same verbs in each.
func TestTextsComplete(t *testing.T) {
	windowtest.CheckCatalogue(t, textsEN[textNone+1:], textsFR[textNone+1:])
}
