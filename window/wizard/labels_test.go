package wizard

import (
	"regexp"
	"strings"
	"testing"
)

// verb is a formatting verb of fmt, such as %s or %.2f.
var verb = regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z%]`)

// TestTextsComplete: every text has both languages, with the same verbs in each.
func TestTextsComplete(t *testing.T) {
	for m := textNone + 1; m < textCount; m++ {
		en, fr := textsEN[m], textsFR[m]
		if en == "" || fr == "" {
			t.Errorf("text %d (%q, %q) lacks a language", m, en, fr)
		}
		if a, b := strings.Join(verb.FindAllString(en, -1), ""), strings.Join(verb.FindAllString(fr, -1), ""); a != b {
			t.Errorf("%q and %q use different verbs", en, fr)
		}
	}
}
