package config

import (
	"strings"
	"unicode/utf8"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// splitWords splits what the user typed into words the way a shell does in the simple
// cases, as the specification asks of the wizard's program, arguments and lifecycle
// commands:
//
//   - spaces (and tabs and line breaks) separate words;
//   - single quotes group: everything up to the next single quote is taken as it is;
//   - double quotes group too; inside them a backslash escapes only a double quote or a
//     backslash (\" and \\), and any other backslash is kept, as a shell keeps it;
//   - outside quotes, a backslash takes the next character as it is (a\ b is one word,
//     which is how terminals write a dropped path holding spaces); a backslash at the
//     very end is kept;
//   - quoted and unquoted pieces written together make one word (--name="a b" gives
//     --name=a b), and an empty pair of quotes is an empty word.
//
// Nothing else is special: no variable, no ~, no wildcard is expanded, since args are
// passed to the program as they are written. An unterminated quote is an error that
// says where the quote opened.
func splitWords(s string) ([]string, error) {
	var words []string
	var word strings.Builder
	inWord := false // a word has started, even an empty one ("")
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
			i += size
		case r == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, unterminatedQuote(s, i, r)
			}
			word.WriteString(s[i+1 : i+1+end])
			inWord = true
			i += end + 2
		case r == '"':
			j := i + 1
			for ; j < len(s) && s[j] != '"'; j++ {
				if s[j] == '\\' && j+1 < len(s) && (s[j+1] == '"' || s[j+1] == '\\') {
					j++
				}
				word.WriteByte(s[j])
			}
			if j >= len(s) {
				return nil, unterminatedQuote(s, i, r)
			}
			inWord = true
			i = j + 1
		case r == '\\' && i+1 < len(s):
			_, next := utf8.DecodeRuneInString(s[i+1:])
			word.WriteString(s[i+1 : i+1+next])
			inWord = true
			i += 1 + next
		default:
			word.WriteString(s[i : i+size])
			inWord = true
			i += size
		}
	}
	if inWord {
		words = append(words, word.String())
	}
	return words, nil
}

// unterminatedQuote is the error of a quote opened at byte offset at of s and never
// closed; the message counts characters from 1, as a person does.
func unterminatedQuote(s string, at int, quote rune) error {
	return &wordsError{quote: quote, at: utf8.RuneCountInString(s[:at]) + 1}
}

// wordsError is an unterminated quote, and the character it opened at (counted from 1);
// WizardSpec puts the field in front of it.
type wordsError struct {
	quote rune
	at    int
}

func (e *wordsError) Error() string {
	return catalogue.Text(i18n.English, mUnterminatedQuote, e.quote, e.at)
}
