package store

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// A hit's snippet is made here, in Go, rather than by FTS5's snippet(): that one scores
// every place where the words occur, which on an entry of a megabyte of the same word takes
// minutes. Here the words are looked for in the first snippetScan bytes of the entry's text
// only (the query reads no more of it), and the snippet is a few words around the first
// match found, so that a search costs at most its hits × snippetScan bytes.

// snippetScan is how many bytes of an entry's text are read to place its snippet; a match
// further on gives a snippet from the entry's start.
const snippetScan = 256 << 10

// snippetWords is how many words a snippet holds, and snippetBefore how many of them come
// before the first match.
const (
	snippetWords  = 16
	snippetBefore = 4
)

// queryTerms are the words of a query as the index compares them: folded (foldWord), the
// last one matching as a prefix when prefix is set.
type queryTerms struct {
	words  []string
	prefix bool
}

// termsOf returns the words matchExpr would search for.
func termsOf(query string) queryTerms {
	query = controlsAsSpaces(query)
	var t queryTerms
	seen := map[string]bool{}
	words := strings.Fields(query)
	for i, w := range words {
		if len(t.words) == maxSearchWords {
			break
		}
		// The tokenizer splits a typed word at its punctuation: its first part is the
		// one compared here.
		var parts []string
		for _, p := range strings.FieldsFunc(w, func(r rune) bool { return !isTokenRune(r) }) {
			parts = append(parts, foldWord(p))
		}
		if len(parts) == 0 {
			continue
		}
		last := i == len(words)-1
		for _, p := range parts {
			if !seen[p] {
				seen[p] = true
				t.words = append(t.words, p)
			}
		}
		if last && !endsWithSpace(query) {
			t.prefix = true
			// The prefix is the last part typed: put it last.
			p := parts[len(parts)-1]
			for k, x := range t.words {
				if x == p {
					t.words = append(append(t.words[:k:k], t.words[k+1:]...), p)
					break
				}
			}
		}
	}
	return t
}

// matches reports whether a folded word of an entry matches one of the terms.
func (t queryTerms) matches(word string) bool {
	for i, w := range t.words {
		if word == w || (t.prefix && i == len(t.words)-1 && strings.HasPrefix(word, w)) {
			return true
		}
	}
	return false
}

// foldWord is a word as the unicode61 tokenizer with remove_diacritics indexes it: in lower
// case, without its accents.
func foldWord(w string) string {
	out, _, err := transform.String(transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC), w)
	if err != nil {
		out = w
	}
	return strings.ToLower(out)
}

// wordSpan is a word of a text: its bytes [start, end).
type wordSpan struct{ start, end int }

// makeSnippet returns the snippet of text for the terms, marked as FTS5's snippet marks its
// matches (markOpen, markClose, "…" where cut), and whether a match was found. It reads at
// most snippetScan bytes of text.
func makeSnippet(text string, t queryTerms) (string, bool) {
	cut := len(text) > snippetScan
	if cut {
		end := snippetScan
		for end > 0 && !utf8.RuneStart(text[end]) {
			end--
		}
		text = text[:end]
	}
	var words []wordSpan // the last snippetBefore words, then those of the snippet
	first := -1          // index in words of the first match
	for w, ok := nextWord(text, 0); ok; w, ok = nextWord(text, w.end) {
		words = append(words, w)
		if first < 0 {
			if t.matches(foldWord(text[w.start:w.end])) {
				first = len(words) - 1
			} else if len(words) > snippetBefore {
				words = words[1:]
			}
		}
		if first >= 0 && len(words)-first >= snippetWords-snippetBefore {
			break
		}
	}
	if first < 0 {
		// No match read: the snippet is the entry's start.
		words = words[:0]
		for w, ok := nextWord(text, 0); ok && len(words) < snippetWords; w, ok = nextWord(text, w.end) {
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		return "", false
	}
	var b strings.Builder
	from, to := words[0].start, words[len(words)-1].end
	if from > 0 {
		b.WriteString("…")
	}
	at := from
	for k, w := range words {
		if first < 0 || k < first || !t.matches(foldWord(text[w.start:w.end])) {
			continue
		}
		b.WriteString(text[at:w.start])
		b.WriteString(markOpen + text[w.start:w.end] + markClose)
		at = w.end
	}
	more := cut || strings.IndexFunc(text[to:], isTokenRune) >= 0
	if !more {
		to = len(text) // the end of the entry, as it is
	}
	b.WriteString(text[at:to])
	if more {
		b.WriteString("…")
	}
	return b.String(), first >= 0
}

// nextWord returns the first word of text at or after byte i, and false when there is none.
func nextWord(text string, i int) (wordSpan, bool) {
	for i < len(text) {
		r, n := utf8.DecodeRuneInString(text[i:])
		if isTokenRune(r) {
			break
		}
		i += n
	}
	if i >= len(text) {
		return wordSpan{}, false
	}
	start := i
	for i < len(text) {
		r, n := utf8.DecodeRuneInString(text[i:])
		if !isTokenRune(r) {
			break
		}
		i += n
	}
	return wordSpan{start, i}, true
}
