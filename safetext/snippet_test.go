package safetext_test

import (
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/safetext"
)

func TestSnippet(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                         "plain",
		"a\x1b[31mred\x1b[0m":           "a[31mred[0m",
		"line\nbreak\ttab":              "line break tab",
		"bad\xff":                       "bad\uFFFD",
		"c1\u0085\u009b":                "c1",
		"bidi\u202e\u2066x\u2069\u200f": "bidix",
		"nul\x00del\x7f":                "nuldel",
	} {
		if got := safetext.Snippet(in, 100); got != want {
			t.Errorf("Snippet(%q) = %q, want %q", in, got, want)
		}
	}
	if got := safetext.Snippet(strings.Repeat("é", 300), 10); got != "ééééé…" {
		t.Errorf("Snippet cut = %q", got)
	}
}
