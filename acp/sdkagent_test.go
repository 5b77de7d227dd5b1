package acp_test

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/testagents"
	sdk "github.com/coder/acp-go-sdk"
)

func TestSDKExampleAgent(t *testing.T) {
	bin := testagents.SDKExampleAgent(t)
	for _, tc := range []struct {
		name   string
		perm   func(context.Context, sdk.RequestPermissionRequest) sdk.RequestPermissionResponse
		answer string
	}{
		{"granted", allow, "I've successfully updated the configuration"},
		{"refused", nil, "I'll skip the configuration update"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := connect(t, startCommand(t, exec.Command(bin)), acp.Options{})
			info, err := c.Initialize(testContext(t))
			if err != nil {
				t.Fatal(err)
			}
			if info.ProtocolVersion != 1 || info.LoadSession {
				t.Errorf("info = %+v", info)
			}
			rec := newRecorder()
			rec.setPerm(tc.perm)
			s, err := c.NewSession(testContext(t), t.TempDir(), rec)
			if err != nil {
				t.Fatal(err)
			}
			if stop := prompt(t, s, "hello"); stop != sdk.StopReasonEndTurn {
				t.Errorf("stop = %q", stop)
			}
			if got := rec.textOf(acp.AgentMessageChunk); !strings.Contains(got, tc.answer) {
				t.Errorf("reply = %q, want it to say %q", got, tc.answer)
			}
			if rec.kindCount("tool_call") != 2 || rec.kindCount("tool_call_update") < 1 || rec.permCalls.Load() != 1 {
				t.Errorf("tool calls %d, updates %d, permission requests %d", rec.kindCount("tool_call"),
					rec.kindCount("tool_call_update"), rec.permCalls.Load())
			}
			if st := c.Stats(); st.UnknownUpdates != 0 || st.Ignored != 0 || st.Malformed != 0 {
				t.Errorf("stats = %+v", st)
			}
		})
	}
}
