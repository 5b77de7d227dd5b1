package chatwin

import (
	"context"
	"strconv"
	"strings"
	"sync"

	sdk "github.com/coder/acp-go-sdk"
)

// askMany is the test agent's "ask WHAT" prompt: it asks permission and replies with the
// answers. WHAT is "exec" (an execute call with its command, locations and a diff),
// "letters" (36 options named "a…" to "9…", all allow always), "always" (allow always,
// then reject once), or "flood N" (N requests at once). session/cancel cancels the
// requests, as the ACP client does.
func (s *testSession) askMany(ctx context.Context, cancel chan struct{}, what string) string {
	pctx, stop := untilCancel(ctx, cancel)
	defer stop()
	ask := func(id string, tc sdk.ToolCallUpdate, opts []sdk.PermissionOption) string {
		tc.ToolCallId = sdk.ToolCallId(id)
		resp := s.h.RequestPermission(pctx, sdk.RequestPermissionRequest{SessionId: sdk.SessionId(s.ID()), ToolCall: tc, Options: opts})
		if resp.Outcome.Selected != nil {
			return string(resp.Outcome.Selected.OptionId)
		}
		return "cancelled"
	}
	yesNo := []sdk.PermissionOption{
		{OptionId: "yes", Name: "Allow once", Kind: sdk.PermissionOptionKindAllowOnce},
		{OptionId: "no", Name: "Reject", Kind: sdk.PermissionOptionKindRejectOnce},
	}
	switch {
	case what == "exec":
		kind := sdk.ToolKindExecute
		old := "a\nb\n"
		return "chose " + ask("x1", sdk.ToolCallUpdate{
			Title:     sdk.Ptr("Run the cleanup"),
			Kind:      &kind,
			RawInput:  map[string]any{"command": "rm -rf \x1b[31m~/tmp\n&& echo done"},
			Locations: []sdk.ToolCallLocation{{Path: "/w/clean.sh", Line: sdk.Ptr(12)}},
			Content:   []sdk.ToolCallContent{sdk.ToolDiffContent("/w/clean.sh", "a\nc\n", old)},
		}, yesNo)
	case what == "letters":
		var opts []sdk.PermissionOption
		for _, c := range "abcdefghijklmnopqrstuvwxyz0123456789" {
			opts = append(opts, sdk.PermissionOption{OptionId: sdk.PermissionOptionId("opt-" + string(c)), Name: string(c) + "lways allow", Kind: sdk.PermissionOptionKindAllowAlways})
		}
		return "chose " + ask("l1", sdk.ToolCallUpdate{Title: sdk.Ptr("Delete everything")}, opts)
	case what == "always":
		return "chose " + ask("a1", sdk.ToolCallUpdate{Title: sdk.Ptr("Write notes.txt")}, []sdk.PermissionOption{
			{OptionId: "always", Name: "Always allow", Kind: sdk.PermissionOptionKindAllowAlways},
			{OptionId: "no", Name: "Reject", Kind: sdk.PermissionOptionKindRejectOnce},
		})
	case strings.HasPrefix(what, "flood "):
		n, _ := strconv.Atoi(strings.TrimPrefix(what, "flood "))
		var wg sync.WaitGroup
		var mu sync.Mutex
		counts := map[string]int{}
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got := ask("f"+strconv.Itoa(i), sdk.ToolCallUpdate{Title: sdk.Ptr("Flood " + strconv.Itoa(i))}, yesNo)
				mu.Lock()
				counts[got]++
				mu.Unlock()
			}()
		}
		wg.Wait()
		return "answers: yes " + strconv.Itoa(counts["yes"]) + ", no " + strconv.Itoa(counts["no"]) + ", cancelled " + strconv.Itoa(counts["cancelled"])
	}
	return "unknown ask"
}

// untilCancel returns the context of the turn's permission requests: session/cancel
// (cancel closed) cancels them, as the ACP client does.
func untilCancel(ctx context.Context, cancel chan struct{}) (context.Context, context.CancelFunc) {
	pctx, stop := context.WithCancel(ctx)
	go func() {
		select {
		case <-cancel:
			stop()
		case <-pctx.Done():
		}
	}()
	return pctx, stop
}
