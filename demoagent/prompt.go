package demoagent

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"unicode"

	sdk "github.com/coder/acp-go-sdk"
)

// fileRef is a file the prompt carried: embedded (a resource block) or linked.
type fileRef struct {
	uri      string
	embedded bool
	size     int
}

// promptInfo is what the agent understood of a prompt.
type promptInfo struct {
	blocks []sdk.ContentBlock
	text   string // the text blocks, concatenated
	files  []fileRef
}

func parsePrompt(blocks []sdk.ContentBlock) promptInfo {
	p := promptInfo{blocks: blocks}
	var b strings.Builder
	for _, blk := range blocks {
		switch {
		case blk.Text != nil:
			b.WriteString(blk.Text.Text)
		case blk.Resource != nil:
			res := blk.Resource.Resource
			switch {
			case res.TextResourceContents != nil:
				p.files = append(p.files, fileRef{uri: res.TextResourceContents.Uri, embedded: true, size: len(res.TextResourceContents.Text)})
			case res.BlobResourceContents != nil:
				p.files = append(p.files, fileRef{uri: res.BlobResourceContents.Uri, embedded: true, size: len(res.BlobResourceContents.Blob) * 3 / 4})
			}
		case blk.ResourceLink != nil:
			p.files = append(p.files, fileRef{uri: blk.ResourceLink.Uri})
		}
	}
	p.text = b.String()
	return p
}

// summary is the user's message as the history keeps it: the text, then the files.
func (p promptInfo) summary() string {
	s := p.text
	for _, f := range p.files {
		s += "\n[file: " + f.uri + "]"
	}
	return s
}

// commandCall is a recognized command and what was typed after its name.
type commandCall struct {
	cmd *command
	arg string
}

// command finds the command of the prompt: the first text block that starts with "/"
// names it, when the agent knows it (Sidekicks puts a command first; another client may
// put text before it). The argument is the rest of that block and the blocks after it,
// resources written as their URI: a file attached after a command line that mentions it
// (Sidekicks sends "/read @a.go" then a.go) takes the place of its @mention.
func (p promptInfo) command() (commandCall, bool) {
	for i, blk := range p.blocks {
		if blk.Text == nil {
			continue
		}
		text := strings.TrimLeftFunc(blk.Text.Text, unicode.IsSpace)
		if !strings.HasPrefix(text, "/") {
			continue
		}
		name, rest := text[1:], ""
		if end := strings.IndexFunc(name, unicode.IsSpace); end >= 0 {
			name, rest = name[:end], name[end:]
		}
		c := lookupCommand(name)
		if c == nil {
			return commandCall{}, false
		}
		arg := rest
		for _, after := range p.blocks[i+1:] {
			switch {
			case after.Text != nil:
				arg += after.Text.Text
			case after.Resource != nil && after.Resource.Resource.TextResourceContents != nil:
				arg = withFile(arg, after.Resource.Resource.TextResourceContents.Uri)
			case after.Resource != nil && after.Resource.Resource.BlobResourceContents != nil:
				arg = withFile(arg, after.Resource.Resource.BlobResourceContents.Uri)
			case after.ResourceLink != nil:
				arg = withFile(arg, after.ResourceLink.Uri)
			}
		}
		return commandCall{cmd: c, arg: strings.TrimSpace(arg)}, true
	}
	return commandCall{}, false
}

// withFile adds the URI of a file that follows a command to its argument: in place of the
// first @mention that names the file (the end of its path), else at the end.
func withFile(arg, uri string) string {
	u, err := url.Parse(uri)
	if err != nil {
		return arg + uri
	}
	for _, word := range strings.Fields(arg) {
		name, ok := strings.CutPrefix(word, "@")
		if ok && name != "" && (u.Path == name || strings.HasSuffix(u.Path, "/"+name)) {
			return strings.Replace(arg, word, uri, 1)
		}
	}
	return arg + uri
}

// heard renders every block of the prompt verbatim, each under a header line.
func (p promptInfo) heard() string {
	var b strings.Builder
	for i, blk := range p.blocks {
		switch {
		case blk.Text != nil:
			fmt.Fprintf(&b, "--- block %d: text ---\n%s\n", i+1, blk.Text.Text)
		case blk.Resource != nil && blk.Resource.Resource.TextResourceContents != nil:
			r := blk.Resource.Resource.TextResourceContents
			fmt.Fprintf(&b, "--- block %d: resource %s ---\n%s\n", i+1, r.Uri, r.Text)
		case blk.Resource != nil && blk.Resource.Resource.BlobResourceContents != nil:
			r := blk.Resource.Resource.BlobResourceContents
			fmt.Fprintf(&b, "--- block %d: resource %s (binary, %d base64 bytes) ---\n", i+1, r.Uri, len(r.Blob))
		case blk.ResourceLink != nil:
			fmt.Fprintf(&b, "--- block %d: resource_link %s ---\n", i+1, blk.ResourceLink.Uri)
		case blk.Image != nil:
			fmt.Fprintf(&b, "--- block %d: image ---\n", i+1)
		case blk.Audio != nil:
			fmt.Fprintf(&b, "--- block %d: audio ---\n", i+1)
		default:
			fmt.Fprintf(&b, "--- block %d: unknown ---\n", i+1)
		}
	}
	return b.String()
}

// resolvePath turns what the user typed (a path relative to the session's folder, an
// absolute path, or a file:// URI) into the absolute path fs methods want.
func resolvePath(cwd, name string) (string, error) {
	if strings.HasPrefix(name, "file://") {
		u, err := url.Parse(name)
		if err != nil {
			return "", fmt.Errorf("reading the file URI %q: %w", name, err)
		}
		name = u.Path
	}
	if filepath.IsAbs(name) {
		return filepath.Clean(name), nil
	}
	if cwd == "" {
		return "", fmt.Errorf("the session has no working folder to resolve %q against", name)
	}
	return filepath.Join(cwd, name), nil
}
