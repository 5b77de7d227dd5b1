package chat

import (
	"context"

	sdk "github.com/coder/acp-go-sdk"
)

// MaxPermissionOptions is the most options of one permission request shown to the user;
// the others cannot be chosen.
const MaxPermissionOptions = 100

// Permissions asks the user to answer an agent's permission request (the screen's modal, or
// `sidekicks ask`). Ask returns the id of the option chosen and true, or false when the user
// gave no answer. It must return when ctx is done (the turn was cancelled, the agent went
// away): the answer is then "cancelled" whatever it returns.
type Permissions interface {
	Ask(ctx context.Context, agent string, req PermissionRequest) (optionID string, ok bool)
}

// PermissionRequest is what an agent asks permission for, sanitized.
type PermissionRequest struct {
	// Title is the tool call's title (its id when it has none).
	Title string
	// Tool is the tool call as the conversation knows it, with what the request adds (often
	// the diff of a file about to be written).
	Tool ToolCall
	// Options are the answers the agent offers, in its order.
	Options []PermissionOption
}

// PermissionOption is one answer an agent offers.
type PermissionOption struct {
	// ID is the agent's own id for the option, unchanged so that it can be given back:
	// never show it, show Name.
	ID string
	// Name is what the option says ("Allow once"), sanitized.
	Name string
	// Kind is allow_once, allow_always, reject_once or reject_always (sanitized).
	Kind string
}

// RequestPermission asks the user through the handler's Permissions and answers the agent:
// "selected" with the option chosen, or "cancelled" when ctx is done, the user gave no answer
// or chose no option of the request. The conversation records the question and then the
// answer in one notice, so that history shows both. The request's tool call details are
// folded into the tool call entry when the agent announced it.
func (h *AgentHandler) RequestPermission(ctx context.Context, req sdk.RequestPermissionRequest) sdk.RequestPermissionResponse {
	c := h.c
	tc := req.ToolCall
	p := c.newToolPatch(tc.Title, tc.Kind, tc.Status, tc.Content, tc.Locations)
	opts := make([]PermissionOption, 0, min(len(req.Options), MaxPermissionOptions))
	for _, o := range req.Options[:min(len(req.Options), MaxPermissionOptions)] {
		opts = append(opts, PermissionOption{ID: string(o.OptionId), Name: line(o.Name), Kind: line(string(o.Kind))})
	}

	c.mu.Lock()
	now := c.now()
	a := h.a
	key := toolKey(tc.ToolCallId)
	var tool ToolCall
	if it := a.tools[key]; it != nil {
		c.patchTool(it, p, now)
		tool = *it.e.Tool
	} else {
		tool = ToolCall{ID: line(key)}
		tool.patch(&item{}, p)
	}
	title := tool.Title
	if title == "" {
		title = tool.ID
	}
	name := line(a.name)
	note := c.newAgentItem(a, KindNotice, now)
	if note != nil {
		note.e.Author = a.name
		c.setText(note, catalogue.Text(c.lang, msgPermissionWaiting, name, title))
		c.changed(note, now)
	}
	c.unlock(true)

	var chosen *PermissionOption
	if h.perm != nil && len(opts) > 0 && ctx.Err() == nil {
		id, ok := h.perm.Ask(ctx, a.name, PermissionRequest{Title: title, Tool: tool, Options: opts})
		for i := range opts {
			if ok && ctx.Err() == nil && opts[i].ID == id {
				chosen = &opts[i]
				break
			}
		}
	}

	if note != nil {
		c.mu.Lock()
		now = c.now()
		if chosen != nil {
			c.setText(note, catalogue.Text(c.lang, msgPermissionAnswered, name, title, chosen.Name))
		} else {
			c.setText(note, catalogue.Text(c.lang, msgPermissionCancelled, name, title))
		}
		if note.e.Done { // the turn ended while the user was asked
			c.changed(note, now)
		} else {
			c.finish(note, now)
		}
		c.unlock(true)
	}

	if chosen == nil {
		return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeCancelled()}
	}
	return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeSelected(sdk.PermissionOptionId(chosen.ID))}
}
