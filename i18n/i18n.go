// Package i18n is the languages Sidekicks speaks to its user and the catalogues of its
// texts: one language type, carried everywhere a text is chosen, and one catalogue type,
// which every package that shows or prints words keeps its English and French texts in.
package i18n

import (
	"fmt"
	"regexp"
	"strings"
)

// Lang is a language of the user: English, the default, or French.
type Lang int

// The languages, as ui.language names them ("en", "fr").
const (
	English Lang = iota
	French
)

// Parse returns the language a setting names: "fr" (any case, with a region or not:
// "fr_CA.UTF-8") is French, anything else English.
func Parse(s string) Lang {
	s = strings.ToLower(s)
	if s == "fr" || strings.HasPrefix(s, "fr_") || strings.HasPrefix(s, "fr-") || strings.HasPrefix(s, "fr.") {
		return French
	}
	return English
}

// Code is the language as ui.language writes it: "en" or "fr".
func (l Lang) Code() string {
	if l == French {
		return "fr"
	}
	return "en"
}

// String is Code, for logs and %v.
func (l Lang) String() string { return l.Code() }

// Catalogue holds the texts of a set of keys K (an enumeration starting at 0) in English
// and French. A text is looked up with its language; one with formatting verbs is
// formatted with the arguments given.
type Catalogue[K ~int] struct {
	en, fr []string
}

// NewCatalogue makes a catalogue from the English and French texts, indexed by key. A key
// without a French text falls back to its English one (Problems reports it).
func NewCatalogue[K ~int](en, fr []string) Catalogue[K] {
	return Catalogue[K]{en: en, fr: fr}
}

// Text returns the text of k in l, formatted with args when there are any.
func (c Catalogue[K]) Text(l Lang, k K, args ...any) string {
	s := c.raw(l, k)
	if len(args) > 0 {
		return fmt.Sprintf(s, args...)
	}
	return s
}

func (c Catalogue[K]) raw(l Lang, k K) string {
	i := int(k)
	if l == French && i >= 0 && i < len(c.fr) && c.fr[i] != "" {
		return c.fr[i]
	}
	if i >= 0 && i < len(c.en) {
		return c.en[i]
	}
	return ""
}

// verb is a formatting verb of fmt, such as %s or %.2f.
var verb = regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z%]`)

// verbs lists the formatting verbs of s, and the same with %q written %s: a language
// quotes a value its own way, as French does with « %s » where English writes %q.
func verbs(s string) (all, unquoted string) {
	vs := verb.FindAllString(s, -1)
	all = strings.Join(vs, " ")
	for i, v := range vs {
		if strings.HasSuffix(v, "q") {
			vs[i] = strings.TrimSuffix(v, "q") + "s"
		}
	}
	return all, strings.Join(vs, " ")
}

// Problems lists what is wrong with the catalogue's texts from key from on (the zero key
// is often "no text"): a text missing in a language, or a French text whose formatting
// verbs are not the English one's (%q and %s count as one). A test of each catalogue
// checks it is empty.
func (c Catalogue[K]) Problems(from K) []string {
	var out []string
	if len(c.en) != len(c.fr) {
		out = append(out, fmt.Sprintf("%d English texts, %d French", len(c.en), len(c.fr)))
	}
	for i := int(from); i < max(len(c.en), len(c.fr)); i++ {
		en, fr := c.raw(English, K(i)), ""
		if i < len(c.fr) {
			fr = c.fr[i]
		}
		if en == "" || fr == "" {
			out = append(out, fmt.Sprintf("text %d (%q, %q) lacks a language", i, en, fr))
			continue
		}
		a, ua := verbs(en)
		b, ub := verbs(fr)
		if ua != ub {
			out = append(out, fmt.Sprintf("%q takes %q, its French text %q", en, a, b))
		}
	}
	return out
}
