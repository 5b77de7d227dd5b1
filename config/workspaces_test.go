package config

import "testing"

// check's workspace warnings have both languages, with the same verbs.
func TestWorkspaceTextsComplete(t *testing.T) {
	for _, p := range workspaceCatalogue.Problems(wMissing) {
		t.Error(p)
	}
}
