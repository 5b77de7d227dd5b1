package chat_test

import (
	"context"
	"encoding/json"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// askFunc adapts a function to chat.Permissions.
type askFunc func(ctx context.Context, agent string, req chat.PermissionRequest) (string, bool)

func (f askFunc) Ask(ctx context.Context, agent string, req chat.PermissionRequest) (string, bool) {
	return f(ctx, agent, req)
}

func permissionRequest() sdk.RequestPermissionRequest {
	return sdk.RequestPermissionRequest{
		SessionId: "s1",
		ToolCall: sdk.ToolCallUpdate{
			ToolCallId: "t1",
			Title:      sdk.Ptr("Write notes.txt"),
			Content:    []sdk.ToolCallContent{sdk.ToolDiffContent("/w/notes.txt", "new text")},
		},
		Options: []sdk.PermissionOption{
			{OptionId: "allow", Name: "Allow once", Kind: sdk.PermissionOptionKindAllowOnce},
			{OptionId: "reject", Name: "Reject", Kind: sdk.PermissionOptionKindRejectOnce},
		},
	}
}

func TestRequestPermission(t *testing.T) {
	tests := []struct {
		name        string
		lang        string
		answer      func(ctx context.Context) (string, bool)
		cancelFirst bool
		wantJSON    string
		wantNotice  string
	}{
		{"allowed", "en", func(context.Context) (string, bool) { return "allow", true },
			false, `{"outcome":{"optionId":"allow","outcome":"selected"}}`,
			"alice asked permission: Write notes.txt — answer: Allow once"},
		{"refused", "fr", func(context.Context) (string, bool) { return "reject", true },
			false, `{"outcome":{"optionId":"reject","outcome":"selected"}}`,
			"alice a demandé la permission : Write notes.txt — réponse : Reject"},
		{"dismissed", "en", func(context.Context) (string, bool) { return "", false },
			false, `{"outcome":{"outcome":"cancelled"}}`,
			"alice asked permission: Write notes.txt — no answer (cancelled)"},
		{"an option the agent did not offer", "en", func(context.Context) (string, bool) { return "sudo", true },
			false, `{"outcome":{"outcome":"cancelled"}}`,
			"alice asked permission: Write notes.txt — no answer (cancelled)"},
		{"turn cancelled while asking", "en", func(ctx context.Context) (string, bool) {
			<-ctx.Done() // the user has not answered; the turn is cancelled
			return "allow", true
		}, false, `{"outcome":{"outcome":"cancelled"}}`,
			"alice asked permission: Write notes.txt — no answer (cancelled)"},
		{"turn cancelled before", "en", func(context.Context) (string, bool) { panic("asked after cancel") },
			true, `{"outcome":{"outcome":"cancelled"}}`,
			"alice asked permission: Write notes.txt — no answer (cancelled)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _, sink := newConv(t, i18n.Parse(tt.lang))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var asked chat.PermissionRequest
			var askedAgent string
			waiting := make(chan chat.Entry, 1)
			h := c.Handler("alice", askFunc(func(actx context.Context, agent string, req chat.PermissionRequest) (string, bool) {
				asked, askedAgent = req, agent
				waiting <- last(t, c)
				if tt.name == "turn cancelled while asking" {
					cancel()
				}
				return tt.answer(actx)
			}))
			c.BeginTurn("alice", "write it")
			if tt.cancelFirst {
				cancel()
			}
			var resp sdk.RequestPermissionResponse
			waitFor(t, "RequestPermission", func() { resp = h.RequestPermission(ctx, permissionRequest()) })
			got, err := json.Marshal(resp)
			if err != nil || string(got) != tt.wantJSON {
				t.Errorf("response = %s (%v), want %s", got, err, tt.wantJSON)
			}
			e := last(t, c)
			if e.Kind != chat.KindNotice || e.Author != "alice" || e.Text != tt.wantNotice || !e.Done {
				t.Errorf("notice = %+v, want %q", e, tt.wantNotice)
			}
			c.Flush()
			if saves := sink.of(e.Seq); len(saves) == 0 || saves[len(saves)-1].Text != tt.wantNotice {
				t.Errorf("the answer was not saved: %+v", saves)
			}
			if tt.cancelFirst {
				return
			}
			if w := <-waiting; w.Done || w.Seq != e.Seq {
				t.Errorf("while waiting, the last entry was %+v", w)
			}
			want := chat.PermissionRequest{Title: "Write notes.txt",
				Tool:    chat.ToolCall{ID: "t1", Title: "Write notes.txt", Content: []chat.ToolContent{{Type: "diff", Path: "/w/notes.txt", NewText: "new text"}}},
				Options: []chat.PermissionOption{{ID: "allow", Name: "Allow once", Kind: "allow_once"}, {ID: "reject", Name: "Reject", Kind: "reject_once"}}}
			if askedAgent != "alice" || !equalJSON(asked, want) {
				t.Errorf("asked %s %+v\nwant %+v", askedAgent, asked, want)
			}
		})
	}
}

func TestRequestPermissionFoldsIntoKnownToolCall(t *testing.T) {
	c, _, _ := newConv(t, i18n.English)
	var asked chat.PermissionRequest
	h := c.Handler("alice", askFunc(func(_ context.Context, _ string, req chat.PermissionRequest) (string, bool) {
		asked = req
		return "allow", true
	}))
	h.Update(sdk.StartToolCall("t1", "Edit notes.txt", sdk.WithStartKind(sdk.ToolKindEdit),
		sdk.WithStartLocations([]sdk.ToolCallLocation{{Path: "/w/notes.txt"}})))
	req := permissionRequest()
	req.ToolCall.Title = nil // the title comes from the announced tool call
	h.RequestPermission(context.Background(), req)
	tool, _ := c.Entry(0)
	if tool.Tool.Title != "Edit notes.txt" || len(tool.Tool.Content) != 1 || tool.Tool.Content[0].NewText != "new text" {
		t.Errorf("tool call = %+v, want the request's diff folded in", *tool.Tool)
	}
	if asked.Title != "Edit notes.txt" || asked.Tool.Kind != "edit" || len(asked.Tool.Locations) != 1 {
		t.Errorf("asked %+v", asked)
	}
}

func TestRequestPermissionWithoutAsker(t *testing.T) {
	c, _, _ := newConv(t, i18n.English)
	h := c.Handler("alice", nil)
	resp := h.RequestPermission(context.Background(), permissionRequest())
	if resp.Outcome.Cancelled == nil || resp.Outcome.Selected != nil {
		t.Errorf("outcome = %+v, want cancelled", resp.Outcome)
	}
	// A request with no options cannot be answered: cancelled without asking.
	asked := false
	h = c.Handler("alice", askFunc(func(context.Context, string, chat.PermissionRequest) (string, bool) { asked = true; return "", true }))
	req := permissionRequest()
	req.Options = nil
	req.ToolCall.Title = nil
	if resp := h.RequestPermission(context.Background(), req); resp.Outcome.Cancelled == nil || asked {
		t.Errorf("outcome %+v, asked %v", resp.Outcome, asked)
	}
	if e := last(t, c); e.Text != "alice asked permission: t1 — no answer (cancelled)" {
		t.Errorf("notice %q; want the id when there is no title", e.Text)
	}
}

// The turn ends while the user is being asked: the notice, already done, still gets the
// answer.
func TestRequestPermissionOutlivesTurn(t *testing.T) {
	c, _, sink := newConv(t, i18n.English)
	h := c.Handler("alice", askFunc(func(context.Context, string, chat.PermissionRequest) (string, bool) {
		c.EndTurn("alice", chat.StopCancelled, nil)
		return "allow", true
	}))
	c.BeginTurn("alice", "q")
	h.RequestPermission(context.Background(), permissionRequest())
	for _, e := range c.Snapshot() {
		if e.Kind == chat.KindNotice && e.Seq == 2 {
			if e.Text != "alice asked permission: Write notes.txt — answer: Allow once" || !e.Done {
				t.Errorf("notice = %+v", e)
			}
			c.Flush()
			if s := sink.of(2); s[len(s)-1].Text != e.Text {
				t.Error("the answer was not saved")
			}
			return
		}
	}
	t.Fatalf("no permission notice in %+v", c.Snapshot())
}
