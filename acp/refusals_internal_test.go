package acp

import (
	"fmt"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// permissionRequest names files the way an agent does: a location and a diff.
func permissionRequest(title, location, diff string) sdk.RequestPermissionRequest {
	return sdk.RequestPermissionRequest{
		ToolCall: sdk.ToolCallUpdate{
			ToolCallId: "t1",
			Title:      &title,
			Locations:  []sdk.ToolCallLocation{{Path: location}},
			Content:    []sdk.ToolCallContent{{Diff: &sdk.ToolCallContentDiff{Type: "diff", Path: diff, NewText: "x"}}},
		},
		Options: []sdk.PermissionOption{
			{OptionId: "yes", Name: "Allow", Kind: sdk.PermissionOptionKindAllowOnce},
			{OptionId: "always", Name: "Always", Kind: sdk.PermissionOptionKindAllowAlways},
			{OptionId: "no", Name: "Reject", Kind: sdk.PermissionOptionKindRejectOnce},
		},
	}
}

func selected(id string) sdk.RequestPermissionResponse {
	return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeSelected(sdk.PermissionOptionId(id))}
}

func TestRefusalsFollowTheAnswers(t *testing.T) {
	req := permissionRequest("Edit", "/ws/a.txt", "/ws/sub/../b.txt")
	check := func(when string, r *refusals, want map[string]bool) {
		t.Helper()
		for p, refused := range want {
			if title, got := r.refused(p); got != refused || (got && title != "Edit") {
				t.Errorf("%s: %s refused %v (%q), want %v", when, p, got, title, refused)
			}
		}
	}
	for _, answer := range []struct {
		name string
		resp sdk.RequestPermissionResponse
	}{
		{"rejected", selected("no")},
		{"cancelled", sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeCancelled()}},
		{"an option not offered", selected("maybe")},
	} {
		var r refusals
		r.record(req, answer.resp)
		check(answer.name, &r, map[string]bool{"/ws/a.txt": true, "/ws/./a.txt": true, "/ws/b.txt": true, "/ws/c.txt": false, "/ws/sub/b.txt": false})
		// A later request for the same file that is allowed makes it writable again.
		r.record(permissionRequest("Edit", "/ws/a.txt", "/ws/a.txt"), selected("always"))
		check(answer.name+", then allowed", &r, map[string]bool{"/ws/a.txt": false, "/ws/b.txt": true})
	}
	var r refusals
	r.record(req, selected("yes"))
	check("allowed", &r, map[string]bool{"/ws/a.txt": false, "/ws/b.txt": false})
	// Relative paths name nothing a write (always absolute) could match.
	r.record(permissionRequest("Edit", "a.txt", ""), selected("no"))
	check("relative", &r, map[string]bool{"/ws/a.txt": false, "/a.txt": false})
}

func TestRefusalsBeyondTheBoundRefuseEveryWrite(t *testing.T) {
	var r refusals
	for i := 0; i <= maxRefusedPaths; i++ {
		p := fmt.Sprintf("/ws/%d.txt", i)
		r.record(permissionRequest("Edit", p, p), selected("no"))
	}
	if title, refused := r.refused("/ws/never-named.txt"); !refused || title != "Edit" {
		t.Errorf("after %d refusals, a file never named is refused %v (%q)", maxRefusedPaths+1, refused, title)
	}
	if len(r.paths) > maxRefusedPaths {
		t.Errorf("%d paths kept", len(r.paths))
	}
}
