package demoagent

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// fsHandlers answer fs/* from the real disk, refusing paths outside root as a client
// would, and record every call.
type fsHandlers struct {
	t      *testing.T
	root   string
	reads  []string
	writes []sdk.WriteTextFileRequest
}

func (h *fsHandlers) install(c *testClient) {
	c.handlers[sdk.ClientMethodFsReadTextFile] = func(p json.RawMessage) (any, *rpcError) {
		var req sdk.ReadTextFileRequest
		if err := json.Unmarshal(p, &req); err != nil {
			h.t.Fatalf("decoding fs/read_text_file: %v", err)
		}
		h.reads = append(h.reads, req.Path)
		if !filepath.IsAbs(req.Path) {
			h.t.Errorf("fs/read_text_file with a relative path %q", req.Path)
		}
		if !strings.HasPrefix(req.Path, h.root+string(filepath.Separator)) {
			return nil, &rpcError{Code: -32602, Message: "the path " + req.Path + " is outside the workspace"}
		}
		data, err := os.ReadFile(req.Path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &rpcError{Code: -32002, Message: "file not found: " + req.Path}
		} else if err != nil {
			return nil, &rpcError{Code: -32603, Message: err.Error()}
		}
		return sdk.ReadTextFileResponse{Content: string(data)}, nil
	}
	c.handlers[sdk.ClientMethodFsWriteTextFile] = func(p json.RawMessage) (any, *rpcError) {
		var req sdk.WriteTextFileRequest
		if err := json.Unmarshal(p, &req); err != nil {
			h.t.Fatalf("decoding fs/write_text_file: %v", err)
		}
		h.writes = append(h.writes, req)
		if !strings.HasPrefix(req.Path, h.root+string(filepath.Separator)) {
			return nil, &rpcError{Code: -32602, Message: "the path " + req.Path + " is outside the workspace"}
		}
		if err := os.WriteFile(req.Path, []byte(req.Content), 0o644); err != nil {
			return nil, &rpcError{Code: -32603, Message: err.Error()}
		}
		return sdk.WriteTextFileResponse{}, nil
	}
}

// permissionAnswer answers every permission request with optionID ("" = cancelled) and
// records the requests.
func permissionAnswer(c *testClient, optionID string, seen *[]sdk.RequestPermissionRequest) {
	c.handlers[sdk.ClientMethodSessionRequestPermission] = func(p json.RawMessage) (any, *rpcError) {
		var req sdk.RequestPermissionRequest
		if err := json.Unmarshal(p, &req); err != nil {
			c.t.Fatalf("decoding session/request_permission: %v", err)
		}
		*seen = append(*seen, req)
		if optionID == "" {
			return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeCancelled()}, nil
		}
		return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeSelected(sdk.PermissionOptionId(optionID))}, nil
	}
}

func toolUpdates(log turnLog) (starts []*sdk.SessionUpdateToolCall, updates []*sdk.SessionToolCallUpdate) {
	for _, u := range log.updates {
		if u.ToolCall != nil {
			starts = append(starts, u.ToolCall)
		}
		if u.ToolCallUpdate != nil {
			updates = append(updates, u.ToolCallUpdate)
		}
	}
	return starts, updates
}

func TestRead(t *testing.T) {
	root := t.TempDir()
	var lines []string
	for i := range 30 {
		lines = append(lines, "line "+string(rune('A'+i%26)))
	}
	content := strings.Join(lines, "\n") + "\n"
	if err := os.WriteFile(filepath.Join(root, "notes.txt"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startAgent(t, Options{})
	h := &fsHandlers{t: t, root: root}
	h.install(c)
	c.initialize()
	sid, _ := c.newSession(root)

	log := c.prompt(sid, sdk.TextBlock("/read notes.txt"))
	want := filepath.Join(root, "notes.txt")
	if len(h.reads) != 1 || h.reads[0] != want {
		t.Fatalf("fs reads %v, want [%s]", h.reads, want)
	}
	starts, updates := toolUpdates(log)
	if len(starts) != 1 || starts[0].Kind != sdk.ToolKindRead || len(starts[0].Locations) != 1 || starts[0].Locations[0].Path != want {
		t.Fatalf("tool_call %+v, want one read of %s", starts, want)
	}
	last := updates[len(updates)-1]
	if last.ToolCallId != starts[0].ToolCallId || last.Status == nil || *last.Status != sdk.ToolCallStatusCompleted {
		t.Fatalf("last tool_call_update %+v, want the read completed", last)
	}
	shown := last.Content[0].Content.Content.Text.Text
	if !strings.HasPrefix(shown, "line A\n") || strings.Count(shown, "\n") != previewLines {
		t.Errorf("tool content %q, want the first lines only", shown)
	}
	reply := log.replyText()
	if !strings.Contains(reply, "30 line(s), 210 bytes") || !strings.Contains(reply, "```text\nline A\n") {
		t.Errorf("reply %q", reply)
	}

	// An absolute path outside the workspace: the client's refusal is shown.
	log = c.prompt(sid, sdk.TextBlock("/read /etc/passwd"))
	_, updates = toolUpdates(log)
	last = updates[len(updates)-1]
	if last.Status == nil || *last.Status != sdk.ToolCallStatusFailed || !strings.Contains(last.Content[0].Content.Content.Text.Text, "outside the workspace") {
		t.Errorf("tool_call_update %+v, want failed with the client's message", last)
	}
	if reply := log.replyText(); !strings.Contains(reply, "could not read") || !strings.Contains(reply, "outside the workspace") {
		t.Errorf("reply %q", reply)
	}
}

func TestReadMentionedFile(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "a b.go")
	if err := os.WriteFile(path, []byte("package x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startAgent(t, Options{})
	h := &fsHandlers{t: t, root: root}
	h.install(c)
	c.initialize()
	sid, _ := c.newSession(root)
	reply := c.prompt(sid, sdk.TextBlock("/read "), sdk.ResourceLinkBlock("a b.go", "file://"+strings.ReplaceAll(path, " ", "%20"))).replyText()
	if len(h.reads) != 1 || h.reads[0] != path {
		t.Fatalf("fs reads %v, want [%s]", h.reads, path)
	}
	if !strings.Contains(reply, "```go\npackage x\n```") {
		t.Errorf("reply %q", reply)
	}
}

func TestWriteAllowed(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "hello.txt")
	if err := os.WriteFile(path, []byte("old text"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startAgent(t, Options{})
	h := &fsHandlers{t: t, root: root}
	h.install(c)
	var asked []sdk.RequestPermissionRequest
	permissionAnswer(c, "allow", &asked)
	c.initialize()
	sid, _ := c.newSession(root)

	log := c.prompt(sid, sdk.TextBlock("/write hello.txt new text\nsecond line"))
	if got := c.stopReason(log); got != sdk.StopReasonEndTurn {
		t.Errorf("stop reason %q", got)
	}
	data, _ := os.ReadFile(path)
	if string(data) != "new text\nsecond line" {
		t.Errorf("file holds %q", data)
	}
	starts, updates := toolUpdates(log)
	if len(starts) != 1 || starts[0].Kind != sdk.ToolKindEdit || starts[0].Status != sdk.ToolCallStatusPending {
		t.Fatalf("tool_call %+v, want one pending edit", starts)
	}
	if len(asked) != 1 {
		t.Fatalf("%d permission requests, want 1", len(asked))
	}
	opts := asked[0].Options
	if len(opts) != 2 || opts[0].OptionId != "allow" || opts[0].Kind != sdk.PermissionOptionKindAllowOnce || opts[0].Name != "Allow" ||
		opts[1].OptionId != "reject" || opts[1].Kind != sdk.PermissionOptionKindRejectOnce || opts[1].Name != "Reject" {
		t.Errorf("permission options %+v", opts)
	}
	if asked[0].ToolCall.ToolCallId != starts[0].ToolCallId {
		t.Errorf("permission for tool call %q, want %q", asked[0].ToolCall.ToolCallId, starts[0].ToolCallId)
	}
	last := updates[len(updates)-1]
	if last.Status == nil || *last.Status != sdk.ToolCallStatusCompleted || len(last.Content) != 1 || last.Content[0].Diff == nil {
		t.Fatalf("last tool_call_update %+v, want completed with a diff", last)
	}
	d := last.Content[0].Diff
	if d.Path != path || d.NewText != "new text\nsecond line" || d.OldText == nil || *d.OldText != "old text" {
		t.Errorf("diff %+v", d)
	}
	if reply := log.replyText(); !strings.Contains(reply, "replaced the content of `hello.txt`") {
		t.Errorf("reply %q", reply)
	}

	// A new file: the diff has no old text.
	log = c.prompt(sid, sdk.TextBlock("/write sub.txt fresh"))
	_, updates = toolUpdates(log)
	if d := updates[len(updates)-1].Content[0].Diff; d == nil || d.OldText != nil {
		t.Errorf("diff for a new file %+v, want no old text", d)
	}
	if reply := log.replyText(); !strings.Contains(reply, "created `sub.txt`") {
		t.Errorf("reply %q", reply)
	}
}

func TestWriteRefused(t *testing.T) {
	for _, answer := range []string{"reject", ""} {
		root := t.TempDir()
		c := startAgent(t, Options{})
		h := &fsHandlers{t: t, root: root}
		h.install(c)
		var asked []sdk.RequestPermissionRequest
		permissionAnswer(c, answer, &asked)
		c.initialize()
		sid, _ := c.newSession(root)
		log := c.prompt(sid, sdk.TextBlock("/write x.txt never"))
		if len(h.writes) != 0 {
			t.Errorf("answer %q: written anyway: %+v", answer, h.writes)
		}
		if _, err := os.Stat(filepath.Join(root, "x.txt")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("answer %q: the file exists (%v)", answer, err)
		}
		_, updates := toolUpdates(log)
		last := updates[len(updates)-1]
		if last.Status == nil || *last.Status != sdk.ToolCallStatusFailed {
			t.Errorf("answer %q: last tool_call_update %+v, want failed", answer, last)
		}
		if reply := log.replyText(); !strings.Contains(reply, "did not write `x.txt`") {
			t.Errorf("answer %q: reply %q", answer, reply)
		}
		if got := c.stopReason(log); got != sdk.StopReasonEndTurn {
			t.Errorf("answer %q: stop reason %q", answer, got)
		}
	}
}

// A cancel while the permission request is pending ends the turn at once; the late answer
// is ignored and nothing is written.
func TestCancelDuringPermission(t *testing.T) {
	root := t.TempDir()
	c := startAgent(t, Options{})
	h := &fsHandlers{t: t, root: root}
	h.install(c)
	c.initialize()
	sid, _ := c.newSession(root)
	id := c.sendPrompt(sid, sdk.TextBlock("/write late.txt text"))
	var permID json.RawMessage
	for permID == nil {
		r := c.next()
		switch {
		case r.Method == sdk.ClientMethodSessionRequestPermission:
			permID = r.ID
		case r.Method == sdk.ClientMethodFsReadTextFile:
			res, rerr := c.handlers[r.Method](r.Params)
			c.respond(r.ID, res, rerr)
		case r.isResponse():
			t.Fatalf("the turn ended before asking: %s", r.raw)
		}
	}
	c.notify(sdk.AgentMethodSessionCancel, sdk.CancelNotification{SessionId: sdk.SessionId(sid)})
	if got := c.stopReason(c.until(id)); got != sdk.StopReasonCancelled {
		t.Errorf("stop reason %q, want cancelled", got)
	}
	c.respond(permID, sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeSelected("allow")}, nil)
	// Had the late answer been taken, the write request would reach the handler during
	// the next turn.
	if got := c.prompt(sid, sdk.TextBlock("/echo done")).replyText(); got != "done" {
		t.Errorf("next turn replied %q", got)
	}
	if len(h.writes) != 0 {
		t.Errorf("written after the cancel: %+v", h.writes)
	}
}

func TestFirstLines(t *testing.T) {
	for _, tc := range []struct {
		in, preview string
		n, total    int
	}{
		{"", "", 3, 0},
		{"a", "a\n", 3, 1},
		{"a\nb\n", "a\nb\n", 3, 2},
		{"a\nb\nc\nd", "a\nb\n", 2, 4},
	} {
		p, total := firstLines(tc.in, tc.n)
		if p != tc.preview || total != tc.total {
			t.Errorf("firstLines(%q, %d) = %q, %d; want %q, %d", tc.in, tc.n, p, total, tc.preview, tc.total)
		}
	}
}

// A client that does not offer fs methods is never asked to read or write.
func TestToolsWithoutClientFS(t *testing.T) {
	c := startAgent(t, Options{})
	id := c.request(sdk.AgentMethodInitialize, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber})
	c.until(id)
	sid, _ := c.newSession(t.TempDir())
	var asked []sdk.RequestPermissionRequest
	permissionAnswer(c, "allow", &asked)
	for _, p := range []string{"/read a.txt", "/write a.txt text"} {
		log := c.prompt(sid, sdk.TextBlock(p)) // until fails on an fs request: no handler
		if reply := log.replyText(); !strings.Contains(reply, "does not offer fs/") {
			t.Errorf("%s replied %q", p, reply)
		}
		_, updates := toolUpdates(log)
		if last := updates[len(updates)-1]; last.Status == nil || *last.Status != sdk.ToolCallStatusFailed {
			t.Errorf("%s: last tool_call_update %+v, want failed", p, last)
		}
	}
	if len(asked) != 0 {
		t.Errorf("permission asked for a write the client cannot do: %+v", asked)
	}
}

// Sidekicks sends a command line whole, then the files it mentions: the file takes the
// place of its @mention in the argument.
func TestReadAnAttachedFile(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "notes.txt")
	if err := os.WriteFile(path, []byte("the notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startAgent(t, Options{})
	h := &fsHandlers{t: t, root: root}
	h.install(c)
	c.initialize()
	sid, _ := c.newSession(root)
	reply := c.prompt(sid, sdk.TextBlock("/read @notes.txt"), sdk.ResourceLinkBlock("notes.txt", "file://"+path)).replyText()
	if len(h.reads) != 1 || h.reads[0] != path || !strings.Contains(reply, "the notes") {
		t.Fatalf("fs reads %v, reply %q; want %s read", h.reads, reply, path)
	}
	embedded := sdk.ResourceBlock(sdk.EmbeddedResourceResource{TextResourceContents: &sdk.TextResourceContents{Uri: "file://" + path, Text: "the notes\n"}})
	if got := c.prompt(sid, sdk.TextBlock("/echo see @notes.txt now"), embedded).replyText(); got != "see file://"+path+" now" {
		t.Errorf("echo replied %q", got)
	}
}
