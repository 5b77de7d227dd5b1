package chatwin

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/runtime"
)

// This file holds a small agent for the tests, behind the chat.Service's own interfaces
// (the real supervisor and ACP client are wired in package main): it answers prompts by
// their first words, as the demo agent does.

// testAgent is one agent process with its sessions.
type testAgent struct {
	name string
	dir  string // its workspace
	info chat.ConnInfo
	// gate, when set, holds Acquire (no free slot) until closed.
	gate chan struct{}

	mu      sync.Mutex
	prompts [][]sdk.ContentBlock
	sess    *testSession
	// started receives the text of each prompt when the agent starts on it.
	started chan string
	// release ends a /stubborn prompt.
	release chan struct{}
}

func newTestAgent(t testing.TB, name string) *testAgent {
	dir := t.TempDir()
	return &testAgent{name: name, dir: dir, info: chat.ConnInfo{Cwd: dir, EmbeddedContext: true},
		started: make(chan string, 100), release: make(chan struct{})}
}

// Acquire is the supervisor: the agent is always running, unless gated.
func (a *testAgent) Acquire(ctx context.Context, agent string) (chat.Lease, error) {
	if agent != a.name {
		return nil, errors.New("unknown agent " + agent)
	}
	if a.gate != nil {
		select {
		case <-a.gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return a, nil
}

func (a *testAgent) Conn() chat.AgentConn { return a }
func (a *testAgent) Release()             {}
func (a *testAgent) Info() chat.ConnInfo  { return a.info }
func (a *testAgent) Files() chat.FileSource {
	return &dirFiles{root: a.dir}
}

func (a *testAgent) NewSession(_ context.Context, _ string, h chat.SessionHandler) (chat.AgentSession, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sess = &testSession{a: a, h: h}
	return a.sess, nil
}

func (a *testAgent) LoadSession(context.Context, string, string, chat.SessionHandler) (chat.AgentSession, error) {
	return nil, errors.New("session/load is not supported")
}

// promptJSON returns the blocks of prompt i as JSON, to compare with what is expected.
func (a *testAgent) promptJSON(t testing.TB, i int) string {
	t.Helper()
	a.mu.Lock()
	defer a.mu.Unlock()
	if i >= len(a.prompts) {
		t.Fatalf("prompt %d was not sent (%d were)", i, len(a.prompts))
	}
	b, err := json.Marshal(a.prompts[i])
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func (a *testAgent) promptCount() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.prompts)
}

// handler returns the handler of the agent's session.
func (a *testAgent) handler() chat.SessionHandler {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.sess.h
}

// testSession plays the agent's part of one session.
type testSession struct {
	a  *testAgent
	h  chat.SessionHandler
	mu sync.Mutex
	// cancel is closed by session/cancel; a new one is made for each prompt.
	cancel chan struct{}
}

func (s *testSession) ID() string { return "s-" + s.a.name }
func (s *testSession) Close()     {}

func (s *testSession) Cancel() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel != nil {
		select {
		case <-s.cancel:
		default:
			close(s.cancel)
		}
	}
	return nil
}

// The replies of the test agent.
const (
	helloReply = "Here is **the** code:\n\n```python\ndef greet(name):\n    return \"hi \" + name\n```\n\nThat is all.\n"
)

// Prompt answers by the prompt's first text: "hello" replies with a code block, "/echo X"
// replies X, "/slow" works until cancelled, "perm" asks a permission, "commands"
// announces commands, "usage" reports usage, "wide" replies with wide characters,
// "lines N" replies with N numbered lines; anything else gets "re: TEXT".
func (s *testSession) Prompt(ctx context.Context, blocks []sdk.ContentBlock) (sdk.StopReason, error) {
	s.mu.Lock()
	s.cancel = make(chan struct{})
	cancel := s.cancel
	s.mu.Unlock()
	s.a.mu.Lock()
	s.a.prompts = append(s.a.prompts, blocks)
	s.a.mu.Unlock()
	text := ""
	if len(blocks) > 0 && blocks[0].Text != nil {
		text = blocks[0].Text.Text
	}
	s.a.started <- text
	reply := func(t string) { s.h.Chunk(chat.ChunkAgentMessage, t) }
	switch {
	case text == "hello":
		for _, part := range strings.SplitAfter(helloReply, "\n") {
			reply(part)
		}
	case strings.HasPrefix(text, "/echo "):
		reply(strings.TrimPrefix(text, "/echo "))
	case text == "/slow":
		reply("working slowly…")
		select {
		case <-cancel:
			return sdk.StopReasonCancelled, nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	case text == "perm":
		pctx, stop := untilCancel(ctx, cancel)
		defer stop()
		resp := s.h.RequestPermission(pctx, sdk.RequestPermissionRequest{
			SessionId: sdk.SessionId(s.ID()),
			ToolCall:  sdk.ToolCallUpdate{ToolCallId: "t1", Title: sdk.Ptr("Write notes.txt")},
			Options: []sdk.PermissionOption{
				{OptionId: "yes", Name: "Allow once", Kind: sdk.PermissionOptionKindAllowOnce},
				{OptionId: "no", Name: "Reject", Kind: sdk.PermissionOptionKindRejectOnce},
			},
		})
		switch {
		case resp.Outcome.Selected != nil:
			reply("chose " + string(resp.Outcome.Selected.OptionId))
		default:
			reply("permission cancelled")
		}
	case strings.HasPrefix(text, "ask "):
		reply(s.askMany(ctx, cancel, strings.TrimPrefix(text, "ask ")))
	case text == "/stream":
		// The benchmarks stream into the turn themselves, through the session's handler.
		select {
		case <-s.a.release:
			return sdk.StopReasonEndTurn, nil
		case <-cancel:
			return sdk.StopReasonCancelled, nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	case text == "/stubborn":
		// It takes its time to answer a cancel: until release.
		reply("not stopping yet")
		<-s.a.release
		select {
		case <-cancel:
			return sdk.StopReasonCancelled, nil
		default:
			return sdk.StopReasonEndTurn, nil
		}
	case text == "commands":
		s.h.Update(sdk.SessionUpdate{AvailableCommandsUpdate: &sdk.SessionAvailableCommandsUpdate{
			AvailableCommands: []sdk.AvailableCommand{
				{Name: "echo", Description: "Repeat the text", Input: &sdk.AvailableCommandInput{Unstructured: &sdk.UnstructuredCommandInput{Hint: "text"}}},
				{Name: "Explain", Description: "Explain the code"},
				{Name: "slow", Description: "Take a long time"},
			},
		}})
		reply("commands announced")
	case text == "usage":
		s.h.Update(sdk.SessionUpdate{UsageUpdate: &sdk.SessionUsageUpdate{Used: 12345, Size: 200000, Cost: &sdk.Cost{Amount: 0.42, Currency: "USD"}}})
		reply("usage reported")
	case text == "evil":
		reply("a\x1b]52;c;ZXZpbA==\x07b\x1b]0;pwned\x07c\x1b[2Jd\u009b31me\u202ef\n")
	case text == "wide":
		reply("漢字かな交じり文と絵文字🙂🙂を含む長い行がここで折り返されるはずです。\n")
	case strings.HasPrefix(text, "lines "):
		var b strings.Builder
		n := 0
		for _, c := range strings.TrimPrefix(text, "lines ") {
			n = n*10 + int(c-'0')
		}
		for i := 1; i <= n; i++ {
			b.WriteString("line ")
			b.WriteString(itoa(i))
			b.WriteByte('\n')
		}
		reply(b.String())
	default:
		reply("re: " + text)
	}
	return sdk.StopReasonEndTurn, nil
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

// dirFiles is the agent's workspace as prompt building sees it: the files of a folder.
type dirFiles struct{ root string }

func (f *dirFiles) Known(p string) bool {
	if !filepath.IsLocal(p) {
		return false
	}
	fi, err := os.Stat(filepath.Join(f.root, filepath.FromSlash(p)))
	return err == nil && fi.Mode().IsRegular()
}

func (f *dirFiles) Read(p string) (string, error) {
	b, err := os.ReadFile(filepath.Join(f.root, filepath.FromSlash(p)))
	return string(b), err
}

func (f *dirFiles) URI(p string) string {
	return (&url.URL{Scheme: "file", Path: path.Join(filepath.ToSlash(f.root), p)}).String()
}

func writeFile(t testing.TB, dir, rel, content string) {
	t.Helper()
	full := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func localWorkspace(dir string) runtime.Workspace { return runtime.NewLocalWorkspace(dir, nil) }
