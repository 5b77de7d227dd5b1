package chat

import (
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	sdk "github.com/coder/acp-go-sdk"
)

// Segment is a piece of a prompt: text, or a file mentioned with @ (File is then the path
// as typed, relative to the workspace, and Text is empty).
type Segment struct {
	Text string
	File string
}

// SplitMentions cuts a prompt into text and file mentions, with the rules of the spec:
//   - a mention is an @ that starts a word, at the start of the text or right after white
//     space (so that an address such as me@host.com is never one);
//   - the word after the @ runs up to the next white space or the end of the text, and it is
//     a mention only when the whole of it is a known file: the name must end the word, so
//     @main.go is not main.gopher, and @main.go, (with the comma) stays text — a file name
//     with white space in it cannot be mentioned;
//   - a word that names no file stays text, and so does a lone @.
//
// Adjacent text is merged into one segment; concatenating the segments' Text, and "@"+File
// for mentions, gives the input back.
func SplitMentions(text string, isFile func(path string) bool) []Segment {
	var segs []Segment
	start := 0 // where the pending text starts
	atWordStart := true
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if r != '@' || !atWordStart {
			atWordStart = unicode.IsSpace(r)
			i += size
			continue
		}
		end := i + 1
		for end < len(text) {
			r, size := utf8.DecodeRuneInString(text[end:])
			if unicode.IsSpace(r) {
				break
			}
			end += size
		}
		if word := text[i+1 : end]; word != "" && isFile(word) {
			if start < i {
				segs = append(segs, Segment{Text: text[start:i]})
			}
			segs = append(segs, Segment{File: word})
			start = end
		}
		i, atWordStart = end, false
	}
	if start < len(text) {
		segs = append(segs, Segment{Text: text[start:]})
	}
	return segs
}

// FileSource is the agent's workspace as prompt building sees it.
type FileSource interface {
	// Known reports whether path (relative to the workspace, with slashes) is one of the
	// workspace's files, as the @ completion lists them.
	Known(path string) bool
	// Read returns a file's whole text. It should refuse what is not worth embedding (too
	// big, not text): the mention then becomes a link.
	Read(path string) (string, error)
	// URI is the file:// URI of the file's absolute path as the agent sees it.
	URI(path string) string
}

// BuildPrompt turns what the user typed into the blocks of session/prompt: text blocks for
// the text, and for each @ mention of a known file a resource block (its URI, MIME type and
// whole text) when the agent announced promptCapabilities.embeddedContext and the file
// reads as UTF-8 text, else a resource_link (URI, name, MIME type) for the agent to fetch.
//
// A text that starts with / is a command (IsCommand): its first block is the whole text,
// mentions and all, since agents recognise a command only at the very start of a prompt
// and read its arguments as text; each file it mentions is attached after it, once, in the
// order of first mention. Empty text makes no block.
func BuildPrompt(text string, files FileSource, embedded bool) []sdk.ContentBlock {
	if text == "" {
		return nil
	}
	if files == nil {
		return []sdk.ContentBlock{sdk.TextBlock(text)}
	}
	segs := SplitMentions(text, files.Known)
	if IsCommand(text) {
		return commandPrompt(text, segs, files, embedded)
	}
	blocks := make([]sdk.ContentBlock, 0, len(segs))
	for _, s := range segs {
		if s.File == "" {
			if s.Text != "" {
				blocks = append(blocks, sdk.TextBlock(s.Text))
			}
			continue
		}
		blocks = append(blocks, fileBlock(s.File, files, embedded))
	}
	return blocks
}

// IsCommand reports whether what the user typed is a command: it starts with /.
func IsCommand(text string) bool { return strings.HasPrefix(text, "/") }

// commandPrompt is the prompt of a command: its whole text, then the files it mentions.
func commandPrompt(text string, segs []Segment, files FileSource, embedded bool) []sdk.ContentBlock {
	blocks := []sdk.ContentBlock{sdk.TextBlock(text)}
	var attached []string
	for _, s := range segs {
		if s.File != "" && !slices.Contains(attached, s.File) {
			attached = append(attached, s.File)
			blocks = append(blocks, fileBlock(s.File, files, embedded))
		}
	}
	return blocks
}

// fileBlock is the block of a mentioned file: embedded when the agent takes embedded
// resources and the file reads as UTF-8 text, else a link.
func fileBlock(p string, files FileSource, embedded bool) sdk.ContentBlock {
	uri, mime := files.URI(p), MIMEType(p)
	if embedded {
		if body, err := files.Read(p); err == nil && utf8.ValidString(body) {
			return sdk.ResourceBlock(sdk.EmbeddedResourceResource{
				TextResourceContents: &sdk.TextResourceContents{Uri: uri, MimeType: &mime, Text: body},
			})
		}
	}
	link := sdk.ResourceLinkBlock(p, uri)
	link.ResourceLink.MimeType = &mime
	return link
}

// mimeTypes maps file extensions, and a few whole names, to MIME types. A fixed table rather
// than the system's (mime.TypeByExtension reads files that differ between machines).
var mimeTypes = map[string]string{
	".c": "text/x-c", ".h": "text/x-c", ".cc": "text/x-c++", ".cpp": "text/x-c++", ".hpp": "text/x-c++",
	".cs": "text/x-csharp", ".css": "text/css", ".csv": "text/csv", ".diff": "text/x-diff",
	".patch": "text/x-diff", ".go": "text/x-go", ".html": "text/html", ".htm": "text/html",
	".java": "text/x-java", ".js": "text/javascript", ".mjs": "text/javascript",
	".json": "application/json", ".jsx": "text/javascript", ".kt": "text/x-kotlin",
	".lua": "text/x-lua", ".md": "text/markdown", ".markdown": "text/markdown",
	".php": "text/x-php", ".py": "text/x-python", ".rb": "text/x-ruby", ".rs": "text/x-rust",
	".sh": "text/x-shellscript", ".bash": "text/x-shellscript", ".sql": "application/sql",
	".svg": "image/svg+xml", ".swift": "text/x-swift", ".toml": "application/toml",
	".ts": "text/x-typescript", ".tsx": "text/x-typescript", ".txt": "text/plain",
	".xml": "application/xml", ".yaml": "application/yaml", ".yml": "application/yaml",
	".zig": "text/x-zig", ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
	".gif": "image/gif", ".pdf": "application/pdf",
	"dockerfile": "text/x-dockerfile", "makefile": "text/x-makefile",
}

// MIMEType guesses a file's MIME type from its name; text/plain when it cannot tell.
func MIMEType(p string) string {
	base := strings.ToLower(path.Base(p))
	if m, ok := mimeTypes[base]; ok && !strings.HasPrefix(base, ".") {
		return m
	}
	if m, ok := mimeTypes[path.Ext(base)]; ok {
		return m
	}
	return "text/plain"
}
