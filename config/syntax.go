package config

import (
	"bytes"
	"errors"
	"regexp"
	"strconv"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// yamlError splits the YAML library's "yaml: line 4: problem" into its parts.
var yamlError = regexp.MustCompile(`^yaml: (?:line ([0-9]+): )?(.*)$`)

// maxRefineSize bounds the files whose syntax error line is searched for (see errorLine).
const maxRefineSize = 64 << 10

// syntaxError reports a document the YAML parser refused.
func (l *loader) syntaxError(data []byte, err error) {
	var second errSecondDocument
	if errors.As(err, &second) {
		l.lang = languageOfPrefix(data, second.line)
		l.errorAt(second.line, 0, "", catalogue.Text(l.lang, mSecondDocument))
		return
	}
	line, problem := splitYAMLError(err)
	if found := errorLine(data, problem); found > 0 {
		line = found
	}
	l.lang = languageOfPrefix(data, line)
	l.errorAt(line, 0, "", catalogue.Text(l.lang, mInvalidYAML, catalogue.Text(l.lang, yamlProblemAt(data, line, problem))))
}

func splitYAMLError(err error) (line int, problem string) {
	m := yamlError.FindStringSubmatch(err.Error())
	if m == nil {
		return 1, err.Error()
	}
	line, _ = strconv.Atoi(m[1])
	return max(line, 1), m[2]
}

// errorLine finds the line of a syntax error. The YAML library reports the line where the
// structure being read started (a block mapping, a list), often far above the mistake,
// and no line at all for some problems. The first line at which the file's beginning
// already fails with the same problem is where the mistake is; a binary search finds it.
// It returns 0 when it cannot tell.
func errorLine(data []byte, problem string) int {
	if len(data) > maxRefineSize {
		return 0
	}
	ends := lineEnds(data)
	fails := func(n int) bool {
		_, err := parseTree(data[:ends[n-1]])
		if err == nil {
			return false
		}
		_, p := splitYAMLError(err)
		return p == problem
	}
	if len(ends) == 0 || !fails(len(ends)) {
		return 0
	}
	lo, hi := 1, len(ends)
	for lo < hi {
		mid := (lo + hi) / 2
		if fails(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// lineEnds returns, for each line of data, the offset just after it.
func lineEnds(data []byte) []int {
	var ends []int
	for off := 0; off < len(data); {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			ends = append(ends, len(data))
			break
		}
		off += i + 1
		ends = append(ends, off)
	}
	return ends
}

// languageOfPrefix returns the language of a file that cannot be read to its end: the
// ui.language of the lines before line when they can be read, LANG otherwise.
func languageOfPrefix(data []byte, line int) i18n.Lang {
	if len(data) <= maxRefineSize {
		ends := lineEnds(data)
		if line-1 >= 1 && line-1 <= len(ends) {
			if root, err := parseTree(data[:ends[line-2]]); err == nil {
				if lang, ok := languageOfTree(root); ok {
					return lang
				}
			}
		}
	}
	return languageFromEnv()
}

// yamlProblems translates the YAML library's problems, by the start of their text.
var yamlProblems = []struct {
	prefixes []string
	text     message
}{
	{[]string{"found a tab character"}, mYAMLTab},
	{[]string{"did not find expected key", "did not find expected '-' indicator", "block sequence entries are not allowed", "did not find expected node content"}, mYAMLIndent},
	{[]string{"mapping values are not allowed", "mapping keys are not allowed"}, mYAMLColon},
	{[]string{"could not find expected ':'"}, mYAMLNoColon},
	{[]string{"found character that cannot start any token", "found unexpected non-alphabetical character"}, mYAMLReserved},
	{[]string{"found unexpected end of stream"}, mYAMLEnd},
	{[]string{"did not find expected ',' or ']'"}, mYAMLList},
	{[]string{"did not find expected ',' or '}'"}, mYAMLMapping},
	{[]string{"found unknown escape character", "found invalid Unicode character escape code", "did not find expected hexdecimal number"}, mYAMLEscape},
	{[]string{"control characters are not allowed", "invalid leading UTF-8 octet", "invalid trailing UTF-8 octet", "invalid length of a UTF-8 sequence", "incomplete UTF-8 octet sequence", "invalid Unicode character", "incomplete UTF-16", "unexpected low surrogate", "expected low surrogate"}, mYAMLBytes},
	{[]string{"unknown anchor"}, mYAMLAnchor},
	{[]string{"exceeded max depth"}, mYAMLDepth},
	{[]string{"found undefined tag handle", "did not find the expected tag", "while parsing a tag", "found duplicate %TAG", "found unknown directive", "found duplicate %YAML", "found incompatible YAML document", "did not find expected version number", "found extremely long version number", "could not find expected directive name", "did not find expected <document start>"}, mYAMLTag},
	{[]string{"found an indentation indicator equal to 0", "did not find expected comment or line break", "did not find expected whitespace or line break"}, mYAMLBlock},
}

// yamlProblemText says in the user's language what a YAML problem means and how to fix it.
func yamlProblemText(lang i18n.Lang, problem string) string {
	return catalogue.Text(lang, yamlProblem(problem))
}

// yamlProblem is the message of a YAML problem, by the start of its text.
func yamlProblem(problem string) message {
	for _, p := range yamlProblems {
		for _, prefix := range p.prefixes {
			if strings.HasPrefix(problem, prefix) {
				return p.text
			}
		}
	}
	return mYAMLOther
}

// yamlProblemAt is the message of a YAML problem found at line of data. The library's
// words mislead for two mistakes, which the file itself shows: a tab in the indentation
// of that line ("found character that cannot start any token"), and a [ or { still open
// there ("did not find expected node content" at the end of the file).
func yamlProblemAt(data []byte, line int, problem string) message {
	m := yamlProblem(problem)
	if m != mYAMLIndent && m != mYAMLReserved && m != mYAMLOther {
		return m
	}
	lines := bytes.Split(data[:min(len(data), maxRefineSize)], []byte("\n"))
	if line < 1 || line > len(lines) {
		return m
	}
	indent := lines[line-1][:len(lines[line-1])-len(bytes.TrimLeft(lines[line-1], " \t"))]
	if bytes.IndexByte(indent, '\t') >= 0 {
		return mYAMLTab
	}
	if m == mYAMLReserved {
		return m // "[@x" is a reserved character in a list, not an unclosed list
	}
	switch openBracket(lines[:line]) {
	case '[':
		return mYAMLList
	case '{':
		return mYAMLMapping
	}
	return m
}

// openBracket returns the innermost [ or { that lines leave open, 0 for none. Outside
// brackets, only a [ or { that starts a value opens one ("a[1]" is plain text); quoted
// texts and comments are skipped.
func openBracket(lines [][]byte) byte {
	var open []byte
	var quote byte // the quote of a quoted text still open, 0 outside
	for _, l := range lines {
		prev := byte(' ') // the last character before this one that is not a space
		startsValue := true
		for i := 0; i < len(l); i++ {
			c := l[i]
			if quote != 0 {
				switch {
				case quote == '"' && c == '\\':
					i++
				case c == quote && quote == '\'' && i+1 < len(l) && l[i+1] == '\'':
					i++
				case c == quote:
					quote = 0
					prev, startsValue = c, false
				}
				continue
			}
			if c == ' ' || c == '\t' {
				if prev == ':' || prev == '-' || prev == ',' || prev == '?' {
					startsValue = true
				}
				continue
			}
			if c == '#' && (i == 0 || l[i-1] == ' ' || l[i-1] == '\t') {
				break // a comment, to the end of the line
			}
			inFlow := len(open) > 0
			switch {
			case (c == '[' || c == '{') && (inFlow || startsValue):
				open = append(open, c)
				startsValue = true
			case (c == ']' || c == '}') && inFlow:
				open = open[:len(open)-1]
				startsValue = false
			case (c == '"' || c == '\'') && (startsValue || inFlow && strings.IndexByte("[{,:", prev) >= 0):
				quote = c
			case c == ',' && inFlow:
				startsValue = true
			default:
				startsValue = false
			}
			prev = c
		}
	}
	if len(open) == 0 {
		return 0
	}
	return open[len(open)-1]
}
