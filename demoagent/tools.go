package demoagent

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	sdk "github.com/coder/acp-go-sdk"
)

// Permission options offered before a write.
const (
	optionAllow  = "allow"
	optionReject = "reject"
)

// previewLines is how many lines of a file /read shows.
const previewLines = 20

// clientFS reports which fs methods the client announced in initialize.
func (a *agent) clientFS() (read, write bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.clientRead, a.clientWrite
}

// newToolCallID names a new tool call "<kind>-<run>-<n>": n counts the calls of the process
// (across its sessions), run is drawn at its start, so that the ids stay unique within a
// session that several processes serve one after the other (session/load after a restart).
func (t *turn) newToolCallID(kind string) sdk.ToolCallId {
	return sdk.ToolCallId(fmt.Sprintf("%s-%s-%d", kind, t.a.run, t.a.toolSeq.Add(1)))
}

// runID draws the random part of a process's tool call ids.
func runID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// readFile asks the client for a file's content; a refusal comes back as the client's
// own message.
func (t *turn) readFile(path string) (string, error) {
	if read, _ := t.a.clientFS(); !read {
		return "", errors.New("the client does not offer fs/read_text_file")
	}
	var resp sdk.ReadTextFileResponse
	err := t.a.wire.call(t.ctx, sdk.ClientMethodFsReadTextFile,
		sdk.ReadTextFileRequest{SessionId: sdk.SessionId(t.session.ID), Path: path}, &resp)
	return resp.Content, err
}

// clientMessage is what to tell the user about a failed fs call: the client's message
// when it answered with an error.
func clientMessage(err error) string {
	var re *rpcError
	if errors.As(err, &re) {
		return re.Message
	}
	return err.Error()
}

func textContent(text string) []sdk.ToolCallContent {
	return []sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(text))}
}

func (t *turn) cmdRead(arg string) error {
	if arg == "" {
		return t.say("Usage: `/read <file>`.")
	}
	path, err := resolvePath(t.cwd, arg)
	if err != nil {
		return t.say(fmt.Sprintf("I cannot read `%s`: %v.", arg, err))
	}
	id := t.newToolCallID("read")
	if err := t.send(sdk.StartReadToolCall(id, "Read "+arg, path, sdk.WithStartStatus(sdk.ToolCallStatusInProgress))); err != nil {
		return err
	}
	content, err := t.readFile(path)
	if t.ctx.Err() != nil {
		return t.ctx.Err()
	}
	if err != nil {
		msg := clientMessage(err)
		if err := t.send(sdk.UpdateToolCall(id, sdk.WithUpdateStatus(sdk.ToolCallStatusFailed), sdk.WithUpdateContent(textContent(msg)))); err != nil {
			return err
		}
		return t.say(fmt.Sprintf("I could not read `%s`: %s", arg, msg))
	}
	preview, lines := firstLines(content, previewLines)
	if err := t.send(sdk.UpdateToolCall(id, sdk.WithUpdateStatus(sdk.ToolCallStatusCompleted), sdk.WithUpdateContent(textContent(preview)))); err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "I read `%s`: %d line(s), %d bytes.", arg, lines, len(content))
	if preview != "" {
		shown := "It begins with:"
		if strings.Count(preview, "\n") >= lines {
			shown = "Here it is:"
		}
		fmt.Fprintf(&b, " %s\n\n%s", shown, fenced(fenceForFile(path), preview))
	}
	return t.say(b.String())
}

// firstLines returns at most n lines of s (each ending with a newline) and how many lines s
// has in all.
func firstLines(s string, n int) (string, int) {
	if s == "" {
		return "", 0
	}
	total := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		total++
	}
	lines := strings.SplitAfterN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	preview := strings.Join(lines, "")
	if !strings.HasSuffix(preview, "\n") {
		preview += "\n"
	}
	return preview, total
}

func (t *turn) cmdWrite(arg string) error {
	name, text, _ := strings.Cut(arg, " ")
	if nl := strings.IndexByte(name, '\n'); nl >= 0 {
		name, text = name[:nl], name[nl+1:]+" "+text
	}
	text = strings.TrimLeft(text, " \t")
	if name == "" || text == "" {
		return t.say("Usage: `/write <file> <text>`.")
	}
	path, err := resolvePath(t.cwd, name)
	if err != nil {
		return t.say(fmt.Sprintf("I cannot write `%s`: %v.", name, err))
	}
	id := t.newToolCallID("write")
	if err := t.send(sdk.StartEditToolCall(id, "Write "+name, path, text)); err != nil {
		return err
	}
	if _, write := t.a.clientFS(); !write {
		return t.failTool(id, "the client does not offer fs/write_text_file", fmt.Sprintf("I could not write `%s`: the client does not offer fs/write_text_file.", name))
	}
	// The old text, when the file exists, makes the diff; a file that cannot be read is new.
	var oldText *string
	if old, err := t.readFile(path); err == nil {
		oldText = &old
	} else if t.ctx.Err() != nil {
		return t.ctx.Err()
	}
	diff := sdk.ToolCallContent{Diff: &sdk.ToolCallContentDiff{Path: path, NewText: text, OldText: oldText, Type: "diff"}}

	allowed, err := t.askPermission(id, name, path, diff)
	if err != nil {
		return err
	}
	if !allowed {
		return t.failTool(id, "Not written: permission refused.", fmt.Sprintf("I did not write `%s`: permission was refused.", name))
	}
	if err := t.send(sdk.UpdateToolCall(id, sdk.WithUpdateStatus(sdk.ToolCallStatusInProgress))); err != nil {
		return err
	}
	err = t.a.wire.call(t.ctx, sdk.ClientMethodFsWriteTextFile,
		sdk.WriteTextFileRequest{SessionId: sdk.SessionId(t.session.ID), Path: path, Content: text}, nil)
	if t.ctx.Err() != nil {
		return t.ctx.Err()
	}
	if err != nil {
		msg := clientMessage(err)
		return t.failTool(id, msg, fmt.Sprintf("I could not write `%s`: %s", name, msg))
	}
	if err := t.send(sdk.UpdateToolCall(id, sdk.WithUpdateStatus(sdk.ToolCallStatusCompleted), sdk.WithUpdateContent([]sdk.ToolCallContent{diff}))); err != nil {
		return err
	}
	verb := "created"
	if oldText != nil {
		verb = "replaced the content of"
	}
	return t.say(fmt.Sprintf("I %s `%s`: %d bytes written.", verb, name, len(text)))
}

// askPermission asks the client whether to write; a cancelled outcome or an option the
// agent did not offer counts as a refusal, a cancelled turn as an error.
func (t *turn) askPermission(id sdk.ToolCallId, name, path string, diff sdk.ToolCallContent) (bool, error) {
	kind := sdk.ToolKindEdit
	status := sdk.ToolCallStatusPending
	title := "Write " + name
	req := sdk.RequestPermissionRequest{
		SessionId: sdk.SessionId(t.session.ID),
		ToolCall: sdk.ToolCallUpdate{
			ToolCallId: id,
			Title:      &title,
			Kind:       &kind,
			Status:     &status,
			Content:    []sdk.ToolCallContent{diff},
			Locations:  []sdk.ToolCallLocation{{Path: path}},
		},
		Options: []sdk.PermissionOption{
			{OptionId: optionAllow, Name: "Allow", Kind: sdk.PermissionOptionKindAllowOnce},
			{OptionId: optionReject, Name: "Reject", Kind: sdk.PermissionOptionKindRejectOnce},
		},
	}
	var resp sdk.RequestPermissionResponse
	err := t.a.wire.call(t.ctx, sdk.ClientMethodSessionRequestPermission, req, &resp)
	if t.ctx.Err() != nil {
		return false, t.ctx.Err()
	}
	if err != nil {
		return false, fmt.Errorf("asking permission to write %s: %w", path, err)
	}
	sel := resp.Outcome.Selected
	return sel != nil && string(sel.OptionId) == optionAllow, nil
}

// failTool marks a tool call failed with why, then says so in the reply.
func (t *turn) failTool(id sdk.ToolCallId, why, reply string) error {
	if err := t.send(sdk.UpdateToolCall(id, sdk.WithUpdateStatus(sdk.ToolCallStatusFailed), sdk.WithUpdateContent(textContent(why)))); err != nil {
		return err
	}
	return t.say(reply)
}

// fenceForFile names the code fence language of a file from its name.
func fenceForFile(path string) string {
	base := strings.ToLower(filepath.Base(path))
	if base == "dockerfile" || strings.HasPrefix(base, "dockerfile.") {
		return "dockerfile"
	}
	switch filepath.Ext(base) {
	case ".py":
		return "python"
	case ".go":
		return "go"
	case ".js", ".mjs", ".cjs":
		return "javascript"
	case ".ts", ".tsx":
		return "typescript"
	case ".rs":
		return "rust"
	case ".sh", ".bash":
		return "bash"
	case ".yaml", ".yml":
		return "yaml"
	case ".toml":
		return "toml"
	case ".json":
		return "json"
	case ".html", ".htm":
		return "html"
	case ".md", ".markdown":
		return "markdown"
	}
	return "text"
}
