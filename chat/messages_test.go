package chat

import (
	"slices"
	"strings"
	"testing"
)

// Every message exists in every language, with the same values to fill in.
func TestCatalogueComplete(t *testing.T) {
	for _, p := range slices.Concat(catalogue.Problems(0), routeCatalogue.Problems(0)) {
		t.Error(p)
	}
	for lang, msgs := range map[string][]string{"en": messagesEN[:], "fr": messagesFR[:]} {
		for k, m := range msgs {
			if strings.Count(m, "%") != strings.Count(m, "%s") {
				t.Errorf("%s: message %d has a verb other than %%s: %q", lang, k, m)
			}
		}
	}
}
