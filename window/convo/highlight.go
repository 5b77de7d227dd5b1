package convo

import (
	"hash/maphash"
	"strings"
	"sync"
	"time"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// Chroma's lexers are regular expressions with backtracking: about 170 KB of Python a second
// on the machine this was written on, and each match may take up to 250 ms on hostile input.
// So code is never highlighted on the UI goroutine (a view asks its Highlighter, see highlighter.go),
// a block larger than MaxHighlight stays plain, and highlighting stops after HighlightBudget
// (the block then stays plain too).
const (
	MaxHighlight    = 128 << 10
	HighlightBudget = 2 * time.Second
)

// The mapping from chroma's token types to classes, most specific first: a token takes the
// class of the first entry its type is, or is a sub-type of.
//
//	KeywordType                                   syntax.type
//	Keyword*                                      syntax.keyword
//	NameBuiltin, NameBuiltinPseudo                syntax.builtin
//	NameFunction, NameFunctionMagic, NameDecorator syntax.function
//	NameClass, NameException, NameNamespace       syntax.type
//	NameTag (HTML, XML)                           syntax.keyword
//	NameAttribute                                 syntax.type
//	LiteralString*                                syntax.string
//	LiteralNumber*, other Literal*                syntax.number
//	OperatorWord (and, or, not, in)               syntax.keyword
//	Operator*                                     syntax.operator
//	CommentPreproc*                               syntax.keyword
//	Comment*                                      syntax.comment
//	GenericInserted                               diff.added
//	GenericDeleted                                diff.removed
//	GenericHeading, GenericSubheading             syntax.keyword
//	everything else (names, punctuation, text)    text
var tokenClasses = []struct {
	t   chroma.TokenType
	cls string
}{
	{chroma.KeywordType, ClassType},
	{chroma.Keyword, ClassKeyword},
	{chroma.NameBuiltin, ClassBuiltin},
	{chroma.NameFunction, ClassFunction},
	{chroma.NameDecorator, ClassFunction},
	{chroma.NameClass, ClassType},
	{chroma.NameException, ClassType},
	{chroma.NameNamespace, ClassType},
	{chroma.NameTag, ClassKeyword},
	{chroma.NameAttribute, ClassType},
	{chroma.LiteralString, ClassString},
	{chroma.Literal, ClassNumber},
	{chroma.OperatorWord, ClassKeyword},
	{chroma.Operator, ClassOperator},
	{chroma.CommentPreproc, ClassKeyword},
	{chroma.Comment, ClassComment},
	{chroma.GenericInserted, ClassAdded},
	{chroma.GenericDeleted, ClassRemoved},
	{chroma.GenericHeading, ClassKeyword},
	{chroma.GenericSubheading, ClassKeyword},
}

// TokenClass returns the class of a chroma token type.
func TokenClass(t chroma.TokenType) string {
	for _, tc := range tokenClasses {
		if t == tc.t {
			return tc.cls
		}
	}
	for _, tc := range tokenClasses {
		if isUnder(t, tc.t) {
			return tc.cls
		}
	}
	return ClassText
}

// isUnder reports whether t is a sub-type of parent: chroma numbers a type's sub-types
// within its own range (Keyword 1000, KeywordType 1006; Literal 3000, LiteralString 3100,
// LiteralStringDoc 3104…).
func isUnder(t, parent chroma.TokenType) bool {
	switch {
	case parent%1000 == 0:
		return t.Category() == parent
	case parent%100 == 0:
		return t.SubCategory() == parent
	}
	return t == parent
}

var lexerCache sync.Map // language as written → chroma.Lexer (nil when chroma knows none)

// LexerFor returns chroma's lexer for the language of a fence's info string, by name, alias
// or file extension, ignoring case ("python", "py", "Go", "golang", "sh", "yml",
// "Dockerfile"…); nil when chroma knows none, or for "" and plain text.
func LexerFor(lang string) chroma.Lexer {
	if lang == "" || len(lang) > 64 {
		return nil
	}
	if l, ok := lexerCache.Load(lang); ok {
		lx, _ := l.(chroma.Lexer)
		return lx
	}
	var lx chroma.Lexer
	if l := lexers.Get(lang); l != nil && l != lexers.Fallback && l.Config().Name != "plaintext" {
		lx = chroma.Coalesce(l)
	}
	lexerCache.Store(lang, lx)
	return lx
}

// hlKey identifies a highlighted block: its lexer and its content.
type hlKey struct {
	lexer string
	hash  uint64
	size  int
}

var hashSeed = maphash.MakeSeed()

func hlKeyOf(lx chroma.Lexer, code string) hlKey {
	return hlKey{lexer: lx.Config().Name, hash: maphash.String(hashSeed, code), size: len(code)}
}

// hlResult is a highlighted block: its lines as spans; nil spans mean plain (chroma failed,
// ran out of time, or the block is too large).
type hlResult struct {
	spans [][]Span
}

func (r *hlResult) lines(code string) [][]Span {
	if r.spans == nil {
		return plainLines(code)
	}
	return r.spans
}

// plainLines returns code as plain text spans, one line each.
func plainLines(code string) [][]Span {
	code = strings.TrimSuffix(code, "\n")
	parts := strings.Split(code, "\n")
	out := make([][]Span, len(parts))
	for i, p := range parts {
		if p != "" {
			out[i] = []Span{{Text: displayText(p, 0), Class: ClassText}}
		}
	}
	return out
}

// tokenise highlights code with lx until deadline; a plain result when it cannot.
func tokenise(lx chroma.Lexer, code string, deadline time.Time) (res *hlResult) {
	res = &hlResult{}
	if len(code) > MaxHighlight || strings.Contains(code, "\r") {
		return res
	}
	defer func() {
		if recover() != nil { // a lexer's bug must not take the application down
			res = &hlResult{}
		}
	}()
	it, err := lx.Tokenise(nil, code)
	if err != nil {
		return res
	}
	var (
		lines [][]Span
		cur   []Span
		col   int
		seen  int
		b     strings.Builder
	)
	for n := 0; ; n++ {
		tok := it()
		if tok == chroma.EOF {
			break
		}
		if n%64 == 0 && time.Now().After(deadline) {
			return res
		}
		seen += len(tok.Value)
		cls := TokenClass(tok.Type)
		v := tok.Value
		for v != "" {
			piece, rest, nl := v, "", false
			if i := strings.IndexByte(v, '\n'); i >= 0 {
				piece, rest, nl = v[:i], v[i+1:], true
			}
			if piece != "" {
				text := piece
				if needsDisplay(piece) {
					b.Reset()
					col = expandInto(&b, piece, col)
					text = b.String()
				} else {
					col += textWidth(piece)
				}
				if k := len(cur) - 1; k >= 0 && cur[k].Class == cls {
					cur[k].Text += text
				} else {
					cur = append(cur, Span{Text: text, Class: cls})
				}
			}
			if nl {
				lines = append(lines, cur)
				cur, col = nil, 0
			}
			v = rest
		}
	}
	if cur != nil {
		lines = append(lines, cur)
	}
	// A lexer that adds a final newline (EnsureNL) makes one more byte; anything else that
	// does not give back the code byte for byte is not trusted.
	if seen != len(code) && !(seen == len(code)+1 && !strings.HasSuffix(code, "\n")) {
		return res
	}
	want := strings.Count(strings.TrimSuffix(code, "\n"), "\n") + 1
	for len(lines) < want {
		lines = append(lines, nil)
	}
	if len(lines) > want {
		lines = lines[:want]
	}
	res.spans = lines
	return res
}
