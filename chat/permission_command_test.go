package chat_test

import (
	"context"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// An execute request carries its command, from rawInput in the shapes agents use,
// sanitized, on one line and cut with "…"; another kind carries none.
func TestPermissionRequestCommand(t *testing.T) {
	long := strings.Repeat("x", 2*chat.MaxCommandText)
	tests := []struct {
		name string
		kind sdk.ToolKind
		raw  any
		want string
	}{
		{"a string", sdk.ToolKindExecute, "ls -la", "ls -la"},
		{"command", sdk.ToolKindExecute, map[string]any{"command": "rm -rf ~"}, "rm -rf ~"},
		{"a list of words", sdk.ToolKindExecute, map[string]any{"command": []any{"bash", "-c", "echo hi"}}, "bash -c 'echo hi'"},
		{"cmd and args", sdk.ToolKindExecute, map[string]any{"cmd": "git", "args": []any{"push", "--force"}}, "git push --force"},
		{"hostile", sdk.ToolKindExecute, map[string]any{"command": "rm \x1b[2J-rf\n/\u202e \x1b]52;c;QQ==\x07x"}, "rm -rf / x"},
		{"long", sdk.ToolKindExecute, long, long[:chat.MaxCommandText-len("…")] + "…"},
		{"no command", sdk.ToolKindExecute, map[string]any{"path": "/etc"}, ""},
		{"not execute", sdk.ToolKindEdit, map[string]any{"command": "rm -rf ~"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _, _ := newConv(t, i18n.English)
			var got chat.PermissionRequest
			h := c.Handler("alice", askFunc(func(_ context.Context, _ string, req chat.PermissionRequest) (string, bool) {
				got = req
				return "allow", true
			}))
			c.BeginTurn("alice", "run it")
			req := permissionRequest()
			kind := tt.kind
			req.ToolCall.Kind, req.ToolCall.RawInput = &kind, tt.raw
			waitFor(t, "RequestPermission", func() { h.RequestPermission(context.Background(), req) })
			if got.Command != tt.want {
				t.Errorf("command %q, want %q", got.Command, tt.want)
			}
		})
	}
}
