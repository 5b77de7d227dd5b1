package workbench

import (
	"bytes"
	"context"
	"errors"
	"path"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2/lexers"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/window"
	"git.rickub.com/bots-garden/sidekicks/window/convo"
)

// What the viewer reads and shows. A file is read whole (the workspace has no partial
// read), so a file larger than maxRead is not read at all: the workspace refuses it,
// whatever size the listing said (0 for a device), having read at most maxRead+1 bytes,
// and refuses what is not a regular file. Of what is read, the first
// maxShow bytes are shown, with a notice when there is more. Highlighting is convo's,
// which leaves a text larger than convo.MaxHighlight plain.
const (
	maxRead = 16 << 20
	maxShow = 256 << 10
	// sniffLen is how much of a file is looked at to tell text from binary.
	sniffLen = 8 << 10
)

// styledSpan is a piece of a line in the colour of its class.
type styledSpan struct {
	text  string
	class window.Class
}

// fileView is what the viewer shows of one file.
type fileView struct {
	info    runtime.FileInfo
	lines   [][]styledSpan
	notice  string
	failed  bool // notice says why the file could not be shown
	loading bool
	top     int
	left    int
	height  int
}

// viewResult is a file read and highlighted, off the screen's goroutine.
type viewResult struct {
	info   runtime.FileInfo
	lines  [][]styledSpan
	notice string
	failed bool
}

// loadView reads a file and prepares its lines, highlighted by hl. It runs on the reads
// queue's goroutine: reading may be a docker exec, and chroma is slow.
func loadView(ctx context.Context, ws runtime.Workspace, info runtime.FileInfo, lang i18n.Lang, hl *convo.Highlighter) viewResult {
	res := viewResult{info: info}
	if info.Size > maxRead {
		res.notice = catalogue.Text(lang, tTooLarge, humanSize(info.Size))
		return res
	}
	data, err := ws.ReadFile(ctx, info.Path, maxRead)
	var large *runtime.TooLargeError
	if errors.As(err, &large) {
		size := catalogue.Text(lang, tOver, humanSize(maxRead))
		if large.Size > 0 {
			size = humanSize(large.Size)
		}
		res.notice = catalogue.Text(lang, tTooLarge, size)
		return res
	}
	if err != nil {
		res.notice, res.failed = errorText(lang, err, info.Path, false, ws), true
		return res
	}
	if isBinary(data) {
		res.notice = catalogue.Text(lang, tBinary, humanSize(int64(len(data))))
		return res
	}
	shown := data
	if len(shown) > maxShow {
		shown = cutText(shown, maxShow)
		res.notice = catalogue.Text(lang, tTruncated, humanSize(int64(len(shown))), humanSize(int64(len(data))))
	}
	text := strings.ReplaceAll(string(shown), "\r\n", "\n")
	for _, l := range hl.Highlight(lexerFor(info.Name), text) {
		line := make([]styledSpan, 0, len(l))
		for _, sp := range l {
			line = append(line, styledSpan{text: sp.Text, class: classOf(sp.Class)})
		}
		res.lines = append(res.lines, line)
	}
	return res
}

// isBinary tells a binary file by a NUL byte in its beginning, as git and grep do.
func isBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), sniffLen)], 0) >= 0
}

// cutText cuts data to at most n bytes, at the end of a line when there is one in the
// last quarter, and never inside a UTF-8 character.
func cutText(data []byte, n int) []byte {
	data = data[:n]
	if i := bytes.LastIndexByte(data, '\n'); i >= n*3/4 {
		return data[:i+1]
	}
	for len(data) > 0 && !utf8.Valid(data[max(len(data)-utf8.UTFMax, 0):]) {
		data = data[:len(data)-1]
	}
	return data
}

// classOf maps the highlighter's class names to the theme's; a name the theme lacks is
// plain text.
func classOf(name string) window.Class {
	if c, ok := window.ClassNamed(name); ok {
		return c
	}
	return window.ClassText
}

// The lexer for a file name is found by matching chroma's file patterns one after the
// other, which is slow: each name is looked up once.
var (
	lexerMu    sync.Mutex
	lexerNames = make(map[string]string)
)

// lexerCacheSize bounds the names remembered (a workspace may have many odd names).
const lexerCacheSize = 4096

// lexerFor returns the name of chroma's lexer for a file name, "" when none fits.
func lexerFor(name string) string {
	name = path.Base(name)
	lexerMu.Lock()
	lang, ok := lexerNames[name]
	lexerMu.Unlock()
	if ok {
		return lang
	}
	lang = matchLexer(name)
	lexerMu.Lock()
	if len(lexerNames) >= lexerCacheSize {
		clear(lexerNames)
	}
	lexerNames[name] = lang
	lexerMu.Unlock()
	return lang
}

func matchLexer(name string) (lang string) {
	defer func() {
		if recover() != nil { // a bad pattern in chroma's tables must not take the screen down
			lang = ""
		}
	}()
	if lx := lexers.Match(name); lx != nil {
		return lx.Config().Name
	}
	return ""
}
