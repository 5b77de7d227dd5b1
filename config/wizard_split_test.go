package config

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

func TestSplitWords(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"   ", nil},
		{"--acp", []string{"--acp"}},
		{"  --acp   --config  agent.yaml ", []string{"--acp", "--config", "agent.yaml"}},
		{"a\tb\nc", []string{"a", "b", "c"}},
		{`"my agent.yaml"`, []string{"my agent.yaml"}},
		{`'my agent.yaml'`, []string{"my agent.yaml"}},
		{`--name="a b"`, []string{"--name=a b"}},
		{`"a"'b'c`, []string{"abc"}},
		{`"" x ''`, []string{"", "x", ""}},
		{`'it''s'`, []string{"its"}},
		{`"it's"`, []string{"it's"}},
		{`'say "hi"'`, []string{`say "hi"`}},
		{`"a \"b\" c"`, []string{`a "b" c`}},
		{`"back\\slash"`, []string{`back\slash`}},
		{`"C:\dir\n"`, []string{`C:\dir\n`}},
		{`'no \' escape`, []string{`no \`, "escape"}}, // no escape inside single quotes
		{`a\ b`, []string{"a b"}},
		{`\"quoted\"`, []string{`"quoted"`}},
		{`end\`, []string{`end\`}},
		{`/Users/me/My\ Agents/agent.yaml`, []string{"/Users/me/My Agents/agent.yaml"}},
		{"émile 🤖 'naïve café'", []string{"émile", "🤖", "naïve café"}},
		{`$HOME ~/x *.go`, []string{"$HOME", "~/x", "*.go"}},
	} {
		got, err := splitWords(tt.in)
		if tt.want == nil && strings.Count(tt.in, "'")%2 == 1 {
			if err == nil {
				t.Errorf("splitWords(%q) = %q; want an error", tt.in, got)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("splitWords(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestSplitWordsUnterminated(t *testing.T) {
	for _, tt := range []struct {
		in     string
		en, fr string
	}{
		{`"abc`, `the quote " opened at character 1 is not closed`, `le guillemet " ouvert au caractère 1 n'est pas fermé`},
		{`ok 'abc`, `the quote ' opened at character 4 is not closed`, `le guillemet ' ouvert au caractère 4 n'est pas fermé`},
		{`é "x\"`, `the quote " opened at character 3 is not closed`, `le guillemet " ouvert au caractère 3 n'est pas fermé`},
		{`"a" "b`, `the quote " opened at character 5 is not closed`, `le guillemet " ouvert au caractère 5 n'est pas fermé`},
	} {
		_, err := splitWords(tt.in)
		var we *wordsError
		if !errors.As(err, &we) || we.Error() != tt.en || catalogue.Text(i18n.French, mUnterminatedQuote, we.quote, we.at) != tt.fr {
			t.Errorf("splitWords(%q) error = %#v; want %q / %q", tt.in, err, tt.en, tt.fr)
		}
	}
}

// joinWords writes words back the way splitWords reads them, for the fuzz target.
func joinWords(words []string) string {
	parts := make([]string, len(words))
	for i, w := range words {
		parts[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(parts, " ")
}

// FuzzSplitWords checks that any text either splits or says which quote is open, never
// panics, that every word is made of the text's own characters, and that the words,
// written back quoted, split into the same words.
func FuzzSplitWords(f *testing.F) {
	for _, s := range []string{"", "a b", `"a b" 'c d'`, `a\ b`, `"x\"y"`, `'open`, `"open`, `end\`, "é 🤖", "\x00\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words, err := splitWords(s)
		if err != nil {
			var we *wordsError
			if !errors.As(err, &we) || !strings.Contains(s, "'") && !strings.Contains(s, `"`) {
				t.Fatalf("splitWords(%q): unexpected error %v", s, err)
			}
			return
		}
		total := 0
		for _, w := range words {
			total += len(w)
			if strings.ContainsAny(w, " \t\n\r") && !strings.ContainsAny(s, `"'\`) {
				t.Fatalf("splitWords(%q): word %q holds a separator with no quote", s, w)
			}
			if utf8.ValidString(s) && !utf8.ValidString(w) {
				t.Fatalf("splitWords(%q): word %q is not valid UTF-8", s, w)
			}
		}
		if total > len(s) {
			t.Fatalf("splitWords(%q): the words are longer than the text: %q", s, words)
		}
		again, err := splitWords(joinWords(words))
		if err != nil || !reflect.DeepEqual(again, words) && !(len(again) == 0 && len(words) == 0) {
			t.Fatalf("splitWords(%q) = %q; written back %q it splits as %q (%v)", s, words, joinWords(words), again, err)
		}
	})
}
