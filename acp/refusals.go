package acp

import (
	"path"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// maxRefusedPaths bounds the paths one turn's refusals remember; a turn that refuses more
// refuses every write until the next turn.
const maxRefusedPaths = 1024

// refusals are the files a session's current turn may not write: those named by a tool
// call whose permission request was not allowed. ACP leaves it to the agent to honour the
// answer; Sidekicks keeps its own word by refusing fs/write_text_file to those files.
type refusals struct {
	// paths maps each refused file (an absolute, cleaned path) to the title of the
	// tool call that named it.
	paths map[string]string
	// all is set when more than maxRefusedPaths were refused: every write is refused.
	all string
}

// record takes the answer to a permission request into account: a rejection, a
// cancellation, or an option the request did not offer refuses the files the tool call
// named (its locations and the paths of its diffs); an "allow" option makes them writable
// again.
func (r *refusals) record(req sdk.RequestPermissionRequest, resp sdk.RequestPermissionResponse) {
	allowed := false
	if sel := resp.Outcome.Selected; sel != nil {
		for _, o := range req.Options {
			if o.OptionId == sel.OptionId {
				allowed = o.Kind == sdk.PermissionOptionKindAllowOnce || o.Kind == sdk.PermissionOptionKindAllowAlways
				break
			}
		}
	}
	title := string(req.ToolCall.ToolCallId)
	if req.ToolCall.Title != nil && *req.ToolCall.Title != "" {
		title = *req.ToolCall.Title
	}
	title = safetext.Snippet(title, maxQuoted)
	for _, p := range namedPaths(req.ToolCall) {
		switch {
		case allowed:
			delete(r.paths, p)
		case r.all != "":
		case len(r.paths) >= maxRefusedPaths:
			r.paths, r.all = nil, title
		default:
			if r.paths == nil {
				r.paths = make(map[string]string)
			}
			r.paths[p] = title
		}
	}
}

// refused returns the title of the rejected tool call that named p (an absolute path),
// and whether writing p is refused.
func (r *refusals) refused(p string) (string, bool) {
	if r.all != "" {
		return r.all, true
	}
	title, ok := r.paths[path.Clean(p)]
	return title, ok
}

// namedPaths returns the absolute paths a tool call names, cleaned: its locations and the
// files of its diffs.
func namedPaths(tc sdk.ToolCallUpdate) []string {
	var out []string
	add := func(p string) {
		if path.IsAbs(p) {
			out = append(out, path.Clean(p))
		}
	}
	for _, l := range tc.Locations {
		add(l.Path)
	}
	for _, c := range tc.Content {
		if c.Diff != nil {
			add(c.Diff.Path)
		}
	}
	return out
}
