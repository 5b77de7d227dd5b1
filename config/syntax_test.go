package config

import (
	"strconv"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// TestSyntaxErrors checks that a YAML mistake is reported on its own line (the YAML
// library often names the line where the enclosing block starts), in words.
func TestSyntaxErrors(t *testing.T) {
	const indentation = "invalid YAML: this line is not indented like the lines around it; the keys of one mapping, and the items (-) of one list, start in the same column"
	for _, c := range []struct {
		name, doc string
		line      int
		en        string
	}{
		{"key indented less", "version: 1\nagents:\n  - name: a\n   command: mm\n", 4, indentation},
		{"key dedented in list", "version: 1\nagents:\n  - name: a\n    command: mm\n  title: x\n", 5, indentation},
		{"list item in mapping", "version: 1\nagents:\n  - name: a\n    command: x\n  - name: b\n    - x\n", 6, indentation},
		{"colon in value", "version: 1\nagents:\n  - name: a\n    title: Alice: the best\n", 4,
			`invalid YAML: a ":" is not expected here; put a value that contains ": " in quotes, or check the indentation`},
		{"tab", "version: 1\nagents:\n  - name: a\n\ttitle: x\n", 4,
			"invalid YAML: a tab is used for indentation; YAML indents with spaces only"},
		{"unclosed quote", "version: 1\nagents:\n  - name: a\n    title: \"abc\n    command: x\n", 4,
			"invalid YAML: the file ends inside a quoted text or a bracket; close the quote, the [ or the {"},
		{"unclosed list", "version: 1\nagents:\n  - name: a\n    args: [a, b\n    title: x\n", 4,
			"invalid YAML: a list in [ ] is not closed, or a comma is missing between two of its items"},
		{"unclosed mapping", "version: 1\nagents:\n  - {name: a\n", 3,
			"invalid YAML: a mapping in { } is not closed, or a comma is missing between two of its keys"},
		{"reserved character", "version: 1\nagents:\n  - name: a\n    title: @x\n", 4,
			"invalid YAML: a value starts with a character YAML reserves (such as @, ` or %); put the value in quotes"},
		{"escape", "version: 1\nagents:\n  - name: a\n    title: \"a\\qb\"\n", 4,
			`invalid YAML: a text in double quotes holds an unknown escape (\); write \\ for a backslash, or use single quotes`},
		{"unknown anchor", "version: 1\nagents:\n  - name: a\n    args: *x\n", 4,
			"invalid YAML: an alias (*name) refers to no anchor (&name) defined before it"},
		{"key without colon", "version: 1\nagents:\n  - name: a\n    title\n    command: x\n", 4,
			`invalid YAML: a key is not followed by ":"; write key: value`},
		{"control character", "version: 1\nagents:\n  - name: a\x01b\n", 3,
			"invalid YAML: the file holds a control character or bytes that are not UTF-8 text"},
		{"not UTF-8", "version: 1\nagents: []\nui:\n  theme: \xff\n", 4,
			"invalid YAML: the file holds a control character or bytes that are not UTF-8 text"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, d := parseText(t, c.doc)
			if len(d) != 1 {
				t.Fatalf("got %d diagnostics: %v", len(d), messages(d))
			}
			if d[0].Line != c.line {
				t.Errorf("line %d, want %d", d[0].Line, c.line)
			}
			if want := "line " + strconv.Itoa(c.line) + " — " + c.en; d[0].Message != want {
				t.Errorf("message\n  %s\nwant\n  %s", d[0].Message, want)
			}
		})
	}
}

func TestSyntaxErrorInFrench(t *testing.T) {
	t.Setenv("LANG", "C")
	// ui.language comes before the mistake: the file says French, though it cannot be
	// read to its end.
	_, d := parseIn(t, t.TempDir(), "ui:\n  language: fr\nversion: 1\nagents:\n  - name: a\n   command: mm\n")
	wantMessages(t, messages(d),
		"ligne 6 — YAML invalide : cette ligne n'est pas indentée comme ses voisines ; les clés d'un même ensemble, et les éléments (-) d'une même liste, commencent à la même colonne")
	// Nothing readable says it: LANG does.
	t.Setenv("LANG", "fr_CA.UTF-8")
	_, d = parseIn(t, t.TempDir(), "version: 1\nagents:\n  - name: a\n    title: Alice: the best\n")
	wantMessages(t, messages(d),
		"ligne 4 — YAML invalide : un « : » n'est pas attendu ici ; mettez entre guillemets une valeur qui contient « : », ou vérifiez l'indentation")
}

func TestYAMLProblemsAllTranslated(t *testing.T) {
	for _, p := range yamlProblems {
		en, fr := catalogue.Text(i18n.English, p.text), catalogue.Text(i18n.French, p.text)
		if en == "" || fr == "" || en == fr || len(p.prefixes) == 0 {
			t.Errorf("incomplete entry %+v (%q, %q)", p, en, fr)
		}
	}
	generic := yamlProblemText(i18n.English, "something never seen")
	if generic == "" || strings.Contains(generic, "something never seen") {
		t.Errorf("an unknown problem must get the generic message, not the library's text: %q", generic)
	}
}

func TestLanguage(t *testing.T) {
	for _, c := range []struct {
		lang, doc, want string
	}{
		{"C", "version: 1\nui: {language: fr}\n", "fr"},
		{"fr_FR.UTF-8", "version: 1\nui: {language: en}\n", "en"},
		{"fr_FR.UTF-8", "version: 1\n", "fr"},
		{"fr", "version: 1\nui: {language: de}\n", "fr"},
		{"de_DE.UTF-8", "version: 1\nui: {language: de}\n", "en"},
		{"", "", "en"},
		{"FR_fr", "", "fr"},
		{"C", "ui: {language: fr}\nagents:\n  - a\n - b\n", "fr"},
		{"fr_BE", "agents: [\n", "fr"},
		{"C", "ui: {language: fr}\n---\nx: 1\n", "fr"},
	} {
		t.Setenv("LANG", c.lang)
		if got := LanguageOf([]byte(c.doc)); got.Code() != c.want {
			t.Errorf("LANG=%s, %q: %s, want %s", c.lang, c.doc, got, c.want)
		}
	}
}

func TestFileLanguageWinsOverLANG(t *testing.T) {
	t.Setenv("LANG", "fr_FR.UTF-8")
	t.Setenv("PATH", t.TempDir())
	_, d := parseIn(t, t.TempDir(), "version: 1\nui: {language: en}\nagents:\n  - name: a\n")
	wantMessages(t, messages(d), `line 4 — agents[0]: missing key "command"`)
	t.Setenv("LANG", "en_US.UTF-8")
	// An invalid ui.language falls back to LANG, and is itself reported.
	_, d = parseIn(t, t.TempDir(), "version: 1\nui: {language: de}\nagents: []\n")
	wantMessages(t, messages(d), `line 2 — ui.language: "de" is not allowed here: use en or fr`)
}

// The language of messages follows POSIX: LC_ALL, then LC_MESSAGES, then LANG; an empty
// variable counts as unset.
func TestLanguageFollowsPOSIXOrder(t *testing.T) {
	for _, c := range []struct{ all, messages, lang, want string }{
		{"fr_FR.UTF-8", "", "", "fr"},
		{"fr_FR.UTF-8", "en_US.UTF-8", "en_US.UTF-8", "fr"},
		{"C", "fr_FR.UTF-8", "fr_FR.UTF-8", "en"},
		{"", "fr_CA.UTF-8", "en_US.UTF-8", "fr"},
		{"", "C", "fr_FR.UTF-8", "en"},
		{"", "", "fr_FR.UTF-8", "fr"},
		{"", "", "", "en"},
	} {
		t.Setenv("LC_ALL", c.all)
		t.Setenv("LC_MESSAGES", c.messages)
		t.Setenv("LANG", c.lang)
		if got := LanguageOf([]byte("version: 1\n")); got.Code() != c.want {
			t.Errorf("LC_ALL=%q LC_MESSAGES=%q LANG=%q: %s, want %s", c.all, c.messages, c.lang, got, c.want)
		}
	}
}

// Two mistakes the YAML library explains wrongly get the right explanation: an unclosed
// [ or { (not an indentation problem) and a tab in the indentation (not a reserved
// character); a reserved character and a wrong indentation keep theirs.
func TestSyntaxErrorsExplainedByTheFile(t *testing.T) {
	for _, c := range []struct{ doc, en, fr string }{
		{"version: 1\nagents: [\n",
			"line 2 — invalid YAML: a list in [ ] is not closed, or a comma is missing between two of its items",
			"ligne 2 — YAML invalide : une liste entre [ ] n'est pas refermée, ou il manque une virgule entre deux de ses éléments"},
		{"version: 1\nagents: [\n  - name: a\n",
			"line 2 — invalid YAML: a list in [ ] is not closed, or a comma is missing between two of its items",
			"ligne 2 — YAML invalide : une liste entre [ ] n'est pas refermée, ou il manque une virgule entre deux de ses éléments"},
		{"version: 1\nagents: []\nui: {\n",
			"line 3 — invalid YAML: a mapping in { } is not closed, or a comma is missing between two of its keys",
			"ligne 3 — YAML invalide : un ensemble entre { } n'est pas refermé, ou il manque une virgule entre deux de ses clés"},
		{"version: 1\nagents:\n\t- name: a\n",
			"line 3 — invalid YAML: a tab is used for indentation; YAML indents with spaces only",
			"ligne 3 — YAML invalide : une tabulation sert d'indentation ; YAML n'indente qu'avec des espaces"},
		{"version: 1\nagents: []\nui:\n  \ttheme: dark\n",
			"line 4 — invalid YAML: a tab is used for indentation; YAML indents with spaces only",
			"ligne 4 — YAML invalide : une tabulation sert d'indentation ; YAML n'indente qu'avec des espaces"},
		{"version: 1\nagents: []\nui: {theme: @x}\n",
			"line 3 — invalid YAML: a value starts with a character YAML reserves (such as @, ` or %); put the value in quotes",
			"ligne 3 — YAML invalide : une valeur commence par un caractère que YAML réserve (comme @, ` ou %) ; mettez la valeur entre guillemets"},
		{"version: 1\nagents:\n  - name: a[b\n   command: mm\n",
			"line 4 — invalid YAML: this line is not indented like the lines around it; the keys of one mapping, and the items (-) of one list, start in the same column",
			"ligne 4 — YAML invalide : cette ligne n'est pas indentée comme ses voisines ; les clés d'un même ensemble, et les éléments (-) d'une même liste, commencent à la même colonne"},
	} {
		for _, lang := range []string{"C", "fr_FR.UTF-8"} {
			t.Setenv("LC_ALL", "")
			t.Setenv("LANG", lang)
			t.Setenv("PATH", t.TempDir())
			_, d := parseIn(t, t.TempDir(), c.doc)
			want := c.en
			if lang != "C" {
				want = c.fr
			}
			wantMessages(t, messages(d), want)
		}
	}
}
