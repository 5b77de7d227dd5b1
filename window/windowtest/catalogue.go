package windowtest

import (
	"regexp"
	"strings"
	"testing"
)

// verb is a formatting verb of fmt, such as %s or %.2f.
var verb = regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z%]`)

// CheckCatalogue reports, with t.Errorf, every text of a catalogue of English and French
// texts (en[i] and fr[i] are the same text) that lacks a language, or whose French version
// takes other verbs than the English one. Give it the catalogue from its first text (the
// zero value of a catalogue's keys is usually no text).
func CheckCatalogue(t testing.TB, en, fr []string) {
	t.Helper()
	if len(en) != len(fr) {
		t.Fatalf("%d English texts, %d French", len(en), len(fr))
	}
	for i := range en {
		if en[i] == "" || fr[i] == "" {
			t.Errorf("text %d (%q, %q) lacks a language", i, en[i], fr[i])
		}
		if a, b := strings.Join(verb.FindAllString(en[i], -1), " "), strings.Join(verb.FindAllString(fr[i], -1), " "); a != b {
			t.Errorf("%q takes %q, its French text %q", en[i], a, b)
		}
	}
}
