package config

import (
	"bytes"
	"errors"
	"regexp"
	"strconv"
	"strings"
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
		l.errorAt(second.line, 0, "", msg(l.lang,
			"a second YAML document starts here: a configuration is one document; remove this --- line and what follows it",
			"un deuxième document YAML commence ici : une configuration est un seul document ; retirez cette ligne --- et ce qui la suit"))
		return
	}
	line, problem := splitYAMLError(err)
	if found := errorLine(data, problem); found > 0 {
		line = found
	}
	l.lang = languageOfPrefix(data, line)
	l.errorAt(line, 0, "", msg(l.lang, "invalid YAML: ", "YAML invalide : ")+yamlProblemText(l.lang, problem))
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
func languageOfPrefix(data []byte, line int) string {
	if len(data) <= maxRefineSize {
		ends := lineEnds(data)
		if line-1 >= 1 && line-1 <= len(ends) {
			if root, err := parseTree(data[:ends[line-2]]); err == nil {
				if lang := languageOfTree(root); lang != "" {
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
	en, fr   string
}{
	{[]string{"found a tab character"},
		"a tab is used for indentation; YAML indents with spaces only",
		"une tabulation sert d'indentation ; YAML n'indente qu'avec des espaces"},
	{[]string{"did not find expected key", "did not find expected '-' indicator", "block sequence entries are not allowed", "did not find expected node content"},
		"this line is not indented like the lines around it; the keys of one mapping, and the items (-) of one list, start in the same column",
		"cette ligne n'est pas indentée comme ses voisines ; les clés d'un même ensemble, et les éléments (-) d'une même liste, commencent à la même colonne"},
	{[]string{"mapping values are not allowed", "mapping keys are not allowed"},
		`a ":" is not expected here; put a value that contains ": " in quotes, or check the indentation`,
		"un « : » n'est pas attendu ici ; mettez entre guillemets une valeur qui contient « : », ou vérifiez l'indentation"},
	{[]string{"could not find expected ':'"},
		`a key is not followed by ":"; write key: value`,
		"une clé n'est pas suivie de « : » ; écrivez clé: valeur"},
	{[]string{"found character that cannot start any token", "found unexpected non-alphabetical character"},
		"a value starts with a character YAML reserves (such as @, ` or %); put the value in quotes",
		"une valeur commence par un caractère que YAML réserve (comme @, ` ou %) ; mettez la valeur entre guillemets"},
	{[]string{"found unexpected end of stream"},
		"the file ends inside a quoted text or a bracket; close the quote, the [ or the {",
		"le fichier se termine à l'intérieur d'un texte entre guillemets ou d'un crochet ; refermez le guillemet, le [ ou le {"},
	{[]string{"did not find expected ',' or ']'"},
		"a list in [ ] is not closed, or a comma is missing between two of its items",
		"une liste entre [ ] n'est pas refermée, ou il manque une virgule entre deux de ses éléments"},
	{[]string{"did not find expected ',' or '}'"},
		"a mapping in { } is not closed, or a comma is missing between two of its keys",
		"un ensemble entre { } n'est pas refermé, ou il manque une virgule entre deux de ses clés"},
	{[]string{"found unknown escape character", "found invalid Unicode character escape code", "did not find expected hexdecimal number"},
		`a text in double quotes holds an unknown escape (\); write \\ for a backslash, or use single quotes`,
		"un texte entre guillemets doubles contient un échappement inconnu (\\) ; écrivez \\\\ pour une barre oblique inverse, ou utilisez des guillemets simples"},
	{[]string{"control characters are not allowed", "invalid leading UTF-8 octet", "invalid trailing UTF-8 octet", "invalid length of a UTF-8 sequence", "incomplete UTF-8 octet sequence", "invalid Unicode character", "incomplete UTF-16", "unexpected low surrogate", "expected low surrogate"},
		"the file holds a control character or bytes that are not UTF-8 text",
		"le fichier contient un caractère de contrôle ou des octets qui ne sont pas du texte UTF-8"},
	{[]string{"unknown anchor"},
		"an alias (*name) refers to no anchor (&name) defined before it",
		"un alias (*nom) ne renvoie à aucune ancre (&nom) définie avant lui"},
	{[]string{"exceeded max depth"},
		"the values are nested too deeply",
		"les valeurs sont imbriquées trop profondément"},
	{[]string{"found undefined tag handle", "did not find the expected tag", "while parsing a tag", "found duplicate %TAG", "found unknown directive", "found duplicate %YAML", "found incompatible YAML document", "did not find expected version number", "found extremely long version number", "could not find expected directive name", "did not find expected <document start>"},
		"a YAML tag (!) or directive (%) is not understood; a configuration needs neither",
		"une étiquette (!) ou une directive (%) YAML n'est pas comprise ; une configuration n'en a pas besoin"},
	{[]string{"found an indentation indicator equal to 0", "did not find expected comment or line break", "did not find expected whitespace or line break"},
		"the | or > of a block of text is followed by something other than a line break",
		"le | ou le > d'un bloc de texte est suivi d'autre chose qu'un saut de ligne"},
}

// yamlProblemText says in the user's language what a YAML problem means and how to fix it.
func yamlProblemText(lang, problem string) string {
	for _, p := range yamlProblems {
		for _, prefix := range p.prefixes {
			if strings.HasPrefix(problem, prefix) {
				return msg(lang, p.en, p.fr)
			}
		}
	}
	return msg(lang,
		`this cannot be read; check the indentation, the ":" after each key, and put in quotes a value that contains ": " or " #"`,
		"ceci ne peut pas être lu ; vérifiez l'indentation, le « : » après chaque clé, et mettez entre guillemets une valeur qui contient « : » ou « # »")
}
