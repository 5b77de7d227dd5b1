package chat

import (
	"context"
	"strconv"
	"strings"

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
	// Command is, for an execute tool call, the command it runs, from the request's
	// rawInput: sanitized, on one line, cut with "…" at MaxCommandText (as Action.Command); "" when the
	// request gives none.
	Command string
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
	if it := a.tools[toolRef{h.sess, key}]; it != nil {
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
	g := a.perm
	if g != nil && (g.waiting > 0 || g.asked > 1 && g.turn == a.turn) {
		// Another request of the agent waits, or a flood of this turn goes on (the
		// connection reads it in waves): one notice, not one per request.
		g.waiting++
		g.asked++
		c.setText(g.note, catalogue.Text(c.lang, msgPermissionWaitingMany, name, g.title, strconv.Itoa(g.asked-1)))
		c.changed(g.note, now)
	} else {
		g = &permGroup{title: title, waiting: 1, asked: 1, turn: a.turn}
		if g.note = c.newAgentItem(a, KindNotice, now); g.note != nil {
			g.note.e.Author = a.name
			c.setText(g.note, catalogue.Text(c.lang, msgPermissionWaiting, name, title))
			c.changed(g.note, now)
			a.perm = g
		}
	}
	c.unlock(true)

	var chosen *PermissionOption
	if h.perm != nil && len(opts) > 0 && ctx.Err() == nil {
		pr := PermissionRequest{Title: title, Tool: tool, Options: opts}
		if tool.Kind == string(sdk.ToolKindExecute) {
			pr.Command = commandOf(tc.RawInput)
		}
		id, ok := h.perm.Ask(ctx, a.name, pr)
		for i := range opts {
			if ok && ctx.Err() == nil && opts[i].ID == id {
				chosen = &opts[i]
				break
			}
		}
	}

	if g.note != nil {
		c.mu.Lock()
		c.answered(g, name, chosen)
		c.unlock(true)
	}

	if chosen == nil {
		return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeCancelled()}
	}
	return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeSelected(sdk.PermissionOptionId(chosen.ID))}
}

// permGroup is the permission requests of an agent that wait at the same time, and the
// one notice that records them: a flood of requests is one entry of the conversation.
type permGroup struct {
	note    *item
	title   string // the first request's
	waiting int
	asked   int
	answers []permCount // in the order first given
	turn    int64       // the agent's turn when the first came
}

// permCount is how many requests of a group got one answer ("" for no answer).
type permCount struct {
	answer string
	n      int
}

// answered records one request's answer (nil: none) in its group, and once none waits,
// says in its notice what was asked and answered. Called with c.mu held.
func (c *Conversation) answered(g *permGroup, name string, chosen *PermissionOption) {
	now := c.now()
	g.waiting--
	answer := ""
	if chosen != nil {
		answer = chosen.Name
	}
	found := false
	for i := range g.answers {
		if g.answers[i].answer == answer {
			g.answers[i].n++
			found = true
			break
		}
	}
	if !found && len(g.answers) < MaxPermissionOptions {
		g.answers = append(g.answers, permCount{answer, 1})
	}
	if g.waiting > 0 {
		return
	}
	switch {
	case g.asked > 1:
		parts := make([]string, len(g.answers))
		for i, a := range g.answers {
			text := a.answer
			if text == "" {
				text = catalogue.Text(c.lang, msgPermissionNoAnswer)
			}
			parts[i] = text + " ×" + strconv.Itoa(a.n)
		}
		c.setText(g.note, catalogue.Text(c.lang, msgPermissionAnsweredMany, name, strconv.Itoa(g.asked), g.title, strings.Join(parts, ", ")))
	case chosen != nil:
		c.setText(g.note, catalogue.Text(c.lang, msgPermissionAnswered, name, g.title, chosen.Name))
	default:
		c.setText(g.note, catalogue.Text(c.lang, msgPermissionCancelled, name, g.title))
	}
	if g.note.e.Done { // the turn ended while the user was asked
		c.changed(g.note, now)
	} else {
		c.finish(g.note, now)
	}
}
