package workbench

import (
	"testing"

	"git.rickub.com/bots-garden/sidekicks/config"
)

func TestQuoteArgsMasksSecrets(t *testing.T) {
	got := quoteArgs([]string{"sbx", "rm", "--token=ghp_1", "it's"})
	if want := "sbx rm --token=" + config.Masked + ` 'it'\''s'`; got != want {
		t.Errorf("quoteArgs = %q; want %q", got, want)
	}
}
