package chat

import (
	"strings"
	"testing"
)

// Every message exists in every language, with the same values to fill in.
func TestCatalogueComplete(t *testing.T) {
	en := catalogue["en"]
	for lang, msgs := range catalogue {
		for k := range msgCount {
			if msgs[k] == "" {
				t.Errorf("%s: message %d is missing", lang, k)
			}
			if got, want := strings.Count(msgs[k], "%s"), strings.Count(en[k], "%s"); got != want {
				t.Errorf("%s: message %d has %d values, English %d", lang, k, got, want)
			}
			if strings.Count(msgs[k], "%") != strings.Count(msgs[k], "%s") {
				t.Errorf("%s: message %d has a verb other than %%s: %q", lang, k, msgs[k])
			}
		}
	}
	if len(catalogue) < 2 {
		t.Error("the catalogue lacks a language")
	}
}
