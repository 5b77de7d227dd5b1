package chat_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// files is a workspace of known files with their texts.
type files map[string]string

func (f files) Known(p string) bool { _, ok := f[p]; return ok }

func (f files) Read(p string) (string, error) {
	body, ok := f[p]
	if !ok || body == "<unreadable>" {
		return "", errors.New("reading " + p + ": permission denied")
	}
	return body, nil
}

func (f files) URI(p string) string { return "file:///work/" + p }

var workspace = files{
	"docs/README.md": "# Read me\n",
	"main.gopher":    "gopher",
	"main.go":        "package main\n",
	"a":              "a",
	"secret.bin":     "\xff\xfe\x00binary",
	"locked.txt":     "<unreadable>",
	"dir/é ü.txt":    "unmentionable: it has a space",
	"dir/ü.txt":      "ü",
}

func TestSplitMentions(t *testing.T) {
	tests := []struct {
		in   string
		want []chat.Segment
	}{
		{"explique @docs/README.md s'il te plaît", []chat.Segment{{Text: "explique "}, {File: "docs/README.md"}, {Text: " s'il te plaît"}}},
		{"@main.go", []chat.Segment{{File: "main.go"}}},
		{"@main.gopher please", []chat.Segment{{File: "main.gopher"}, {Text: " please"}}},
		{"@main.gop", []chat.Segment{{Text: "@main.gop"}}},
		{"write to me@host.com", []chat.Segment{{Text: "write to me@host.com"}}},
		{"mail a@main.go", []chat.Segment{{Text: "mail a@main.go"}}},
		{"@nothing here", []chat.Segment{{Text: "@nothing here"}}},
		{"@main.go, then", []chat.Segment{{Text: "@main.go, then"}}},
		{"(@main.go)", []chat.Segment{{Text: "(@main.go)"}}},
		{"@ alone", []chat.Segment{{Text: "@ alone"}}},
		{"@@main.go", []chat.Segment{{Text: "@@main.go"}}},
		{"compare @a\n@main.go\t@dir/ü.txt", []chat.Segment{{Text: "compare "}, {File: "a"}, {Text: "\n"}, {File: "main.go"}, {Text: "\t"}, {File: "dir/ü.txt"}}},
		{"@a@main.go", []chat.Segment{{Text: "@a@main.go"}}},
		{"see @dir/é ü.txt", []chat.Segment{{Text: "see @dir/é ü.txt"}}},
		{"", nil},
	}
	for _, tt := range tests {
		got := chat.SplitMentions(tt.in, workspace.Known)
		if !equalJSON(got, tt.want) {
			t.Errorf("SplitMentions(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestBuildPrompt(t *testing.T) {
	tests := []struct {
		name     string
		text     string
		embedded bool
		want     string // the blocks as JSON
	}{
		{"spec example, embedded", "explique @docs/README.md s'il te plaît", true,
			`[{"text":"explique ","type":"text"},{"resource":{"mimeType":"text/markdown","text":"# Read me\n","uri":"file:///work/docs/README.md"},"type":"resource"},{"text":" s'il te plaît","type":"text"}]`},
		{"spec example, linked", "explique @docs/README.md s'il te plaît", false,
			`[{"text":"explique ","type":"text"},{"mimeType":"text/markdown","name":"docs/README.md","type":"resource_link","uri":"file:///work/docs/README.md"},{"text":" s'il te plaît","type":"text"}]`},
		{"go file alone", "@main.go", true,
			`[{"resource":{"mimeType":"text/x-go","text":"package main\n","uri":"file:///work/main.go"},"type":"resource"}]`},
		{"unreadable file becomes a link", "@locked.txt", true,
			`[{"mimeType":"text/plain","name":"locked.txt","type":"resource_link","uri":"file:///work/locked.txt"}]`},
		{"binary file becomes a link", "@secret.bin", true,
			`[{"mimeType":"text/plain","name":"secret.bin","type":"resource_link","uri":"file:///work/secret.bin"}]`},
		{"no mention", "just words, me@host.com", true,
			`[{"text":"just words, me@host.com","type":"text"}]`},
		{"a command is its whole text first, then its files", "/read @main.go now", true,
			`[{"text":"/read @main.go now","type":"text"},{"resource":{"mimeType":"text/x-go","text":"package main\n","uri":"file:///work/main.go"},"type":"resource"}]`},
		{"a command attaches each file once, in order, linked when not embedded", "/diff @main.go @docs/README.md @main.go @nothing.txt", false,
			`[{"text":"/diff @main.go @docs/README.md @main.go @nothing.txt","type":"text"},{"mimeType":"text/x-go","name":"main.go","type":"resource_link","uri":"file:///work/main.go"},{"mimeType":"text/markdown","name":"docs/README.md","type":"resource_link","uri":"file:///work/docs/README.md"}]`},
		{"a command without a file is one text block", "/web query me@host.com", true,
			`[{"text":"/web query me@host.com","type":"text"}]`},
		{"empty", "", true, `null`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			blocks := chat.BuildPrompt(tt.text, workspace, tt.embedded)
			got, err := json.Marshal(blocks)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("blocks = %s\nwant     %s", got, tt.want)
			}
		})
	}
}

func TestBuildPromptWithoutFiles(t *testing.T) {
	blocks := chat.BuildPrompt("look at @main.go", nil, true)
	if len(blocks) != 1 || blocks[0].Text == nil || blocks[0].Text.Text != "look at @main.go" {
		t.Errorf("blocks = %+v", blocks)
	}
}

func TestMIMEType(t *testing.T) {
	for path, want := range map[string]string{
		"a/b/main.go": "text/x-go", "README.MD": "text/markdown", "x.yml": "application/yaml",
		"Dockerfile": "text/x-dockerfile", "Makefile": "text/x-makefile", "noext": "text/plain",
		"weird.xyz": "text/plain", ".go": "text/x-go",
	} {
		if got := chat.MIMEType(path); got != want {
			t.Errorf("MIMEType(%q) = %q, want %q", path, got, want)
		}
	}
}

func FuzzSplitMentions(f *testing.F) {
	for _, s := range []string{
		"explique @docs/README.md s'il te plaît", "@main.go", "me@host.com", "@", "@@a", "@a @a\t@a\n",
		"\xff@a", "@a\xff", "x @main.gopher y", " @dir/ü.txt",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		segs := chat.SplitMentions(s, workspace.Known)
		var back strings.Builder
		for i, seg := range segs {
			switch {
			case seg.File != "" && seg.Text != "":
				t.Fatalf("segment %d has both text and file: %+v", i, seg)
			case seg.File != "":
				if !workspace.Known(seg.File) {
					t.Fatalf("segment %d names an unknown file %q", i, seg.File)
				}
				back.WriteString("@" + seg.File)
			case seg.Text == "":
				t.Fatalf("segment %d is empty", i)
			default:
				if i > 0 && segs[i-1].File == "" {
					t.Fatalf("segments %d and %d are both text", i-1, i)
				}
				back.WriteString(seg.Text)
			}
		}
		if back.String() != s {
			t.Fatalf("segments %+v give back %q, not %q", segs, back.String(), s)
		}
		// The prompt built from it is as many blocks as segments, in order; a command's
		// is its whole text first.
		blocks := chat.BuildPrompt(s, workspace, true)
		if !strings.HasPrefix(s, "/") && len(blocks) != len(segs) {
			t.Fatalf("%d blocks for %d segments", len(blocks), len(segs))
		}
		if strings.HasPrefix(s, "/") && (blocks[0].Text == nil || blocks[0].Text.Text != s) {
			t.Fatalf("the command %q does not open its prompt: %+v", s, blocks[0])
		}
	})
}
