package config

import (
	"strings"
	"unicode"
)

// maxNameLength is the longest agent name the configuration allows.
const maxNameLength = 32

// NameFromTitle derives an agent name, the one used in @name, from free text such as a
// project agent's name: lower case, accents folded to plain letters (é → e, ß → ss), every
// run of other characters turned into one "-", no "-" at either end, "agent-" in front
// when it would not start with a letter ("agent" when nothing is left), and 32
// characters at most. "Bob (llama.cpp)" gives "bob-llama-cpp".
func NameFromTitle(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range title {
		folded, ok := foldLetter(unicode.ToLower(r))
		if !ok {
			dash = b.Len() > 0
			continue
		}
		for _, c := range folded {
			if dash {
				b.WriteByte('-')
				dash = false
			}
			b.WriteRune(c)
		}
	}
	name := b.String()
	switch {
	case name == "":
		name = "agent"
	case name[0] < 'a' || name[0] > 'z':
		name = "agent-" + name
	}
	if len(name) > maxNameLength {
		name = strings.TrimRight(name[:maxNameLength], "-")
	}
	return name
}

// foldLetter returns r as ASCII lower-case letters or digits, and false when r is neither
// (nor a Latin letter with an accent that folds to one).
func foldLetter(r rune) (string, bool) {
	if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
		return string(r), true
	}
	if s, ok := latinFolds[r]; ok {
		return s, true
	}
	return "", false
}

// latinFolds folds the lower-case Latin letters of Latin-1 and Latin Extended-A to ASCII.
var latinFolds = func() map[rune]string {
	groups := map[string]string{
		"a":  "àáâãäåāăą",
		"c":  "çćĉċč",
		"d":  "ďđð",
		"e":  "èéêëēĕėęě",
		"g":  "ĝğġģ",
		"h":  "ĥħ",
		"i":  "ìíîïĩīĭįı",
		"j":  "ĵ",
		"k":  "ķĸ",
		"l":  "ĺļľŀł",
		"n":  "ñńņňŉŋ",
		"o":  "òóôõöøōŏő",
		"r":  "ŕŗř",
		"s":  "śŝşšșſ",
		"t":  "ţťŧț",
		"u":  "ùúûüũūŭůűų",
		"w":  "ŵ",
		"y":  "ýÿŷ",
		"z":  "źżž",
		"ae": "æ",
		"oe": "œ",
		"ss": "ß",
		"th": "þ",
		"ij": "ĳ",
	}
	m := make(map[rune]string)
	for ascii, letters := range groups {
		for _, r := range letters {
			m[r] = ascii
		}
	}
	return m
}()
