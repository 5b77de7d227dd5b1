package i18n

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for s, want := range map[string]Lang{
		"fr": French, "FR": French, "fr_CA.UTF-8": French, "fr-BE": French,
		"en": English, "": English, "de": English, "french": English, "C": English,
	} {
		if got := Parse(s); got != want {
			t.Errorf("Parse(%q) = %v, want %v", s, got, want)
		}
	}
	if English.Code() != "en" || French.Code() != "fr" || Parse(French.Code()) != French {
		t.Error("codes do not round-trip")
	}
}

type key int

const (
	keyNone key = iota
	keyHello
	keyCount
	keyOnlyEnglish
)

func TestCatalogue(t *testing.T) {
	c := NewCatalogue[key](
		[]string{"", "hello", "%d files", "only"},
		[]string{"", "bonjour", "%d fichiers", ""},
	)
	for _, tc := range []struct {
		l    Lang
		k    key
		args []any
		want string
	}{
		{English, keyHello, nil, "hello"},
		{French, keyHello, nil, "bonjour"},
		{French, keyCount, []any{3}, "3 fichiers"},
		{English, keyCount, []any{1}, "1 files"},
		{French, keyOnlyEnglish, nil, "only"}, // falls back to English
		{French, key(99), nil, ""},
	} {
		if got := c.Text(tc.l, tc.k, tc.args...); got != tc.want {
			t.Errorf("Text(%v, %d) = %q, want %q", tc.l, tc.k, got, tc.want)
		}
	}
	problems := c.Problems(keyHello)
	if len(problems) != 1 || !strings.Contains(problems[0], "lacks a language") {
		t.Errorf("problems %q, want the missing French text", problems)
	}
	bad := NewCatalogue[key]([]string{"", "%s and %d"}, []string{"", "%d et %s"})
	if p := bad.Problems(keyHello); len(p) != 1 || !strings.Contains(p[0], "takes") {
		t.Errorf("problems %q, want the verbs that differ", p)
	}
	quoted := NewCatalogue[key]([]string{"", "answered %q", "%q of %d"}, []string{"", "réponse « %s »", "« %s » sur %s"})
	if p := quoted.Problems(keyHello); len(p) != 1 || !strings.Contains(p[0], "of %d") {
		t.Errorf("problems %q, want %%q and %%s to count as one verb, and %%d and %%s as two", p)
	}
}
