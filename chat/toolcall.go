package chat

import (
	"strings"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// MaxToolPieces is the most content pieces, and the most locations, one tool call keeps;
// MaxPlanEntries the most entries one plan keeps. Within those counts, MaxEntryText bounds
// the bytes of a tool call's content and locations together, and of a plan's entries.
const (
	MaxToolPieces  = 1000
	MaxPlanEntries = 1000
)

// The statuses that end a tool call.
const (
	toolCompleted = string(sdk.ToolCallStatusCompleted)
	toolFailed    = string(sdk.ToolCallStatusFailed)
)

// toolPatch is a tool_call, a tool_call_update or the tool call of a permission request,
// sanitized (which happens outside the lock) but not yet capped (which needs the entry).
type toolPatch struct {
	title, kind, status *string
	// command is the command of the call's raw input, when it sent one (commandOf).
	command *string

	contentSet   bool
	content      []ToolContent
	contentExtra int64 // bytes of the pieces beyond MaxToolPieces

	locationsSet   bool
	locations      []Location
	locationsExtra int64
}

func (c *Conversation) newToolPatch(title *string, kind *sdk.ToolKind, status *sdk.ToolCallStatus,
	content []sdk.ToolCallContent, locations []sdk.ToolCallLocation) toolPatch {
	var p toolPatch
	if title != nil {
		s := line(*title)
		p.title = &s
	}
	if kind != nil {
		s := line(string(*kind))
		p.kind = &s
	}
	if status != nil {
		s := line(string(*status))
		p.status = &s
	}
	if content != nil {
		p.contentSet = true
		p.content = make([]ToolContent, 0, min(len(content), MaxToolPieces))
		for i, in := range content {
			if i >= MaxToolPieces {
				p.contentExtra += int64(rawPieceSize(in))
				continue
			}
			switch {
			case in.Content != nil:
				p.content = append(p.content, ToolContent{Type: "content", Text: safetext.Text(c.contentText(in.Content.Content))})
			case in.Diff != nil:
				d := ToolContent{Type: "diff", Path: line(in.Diff.Path), NewText: safetext.Text(in.Diff.NewText)}
				if in.Diff.OldText != nil {
					old := safetext.Text(*in.Diff.OldText)
					d.OldText = &old
				}
				p.content = append(p.content, d)
			case in.Terminal != nil:
				p.content = append(p.content, ToolContent{Type: "terminal", TerminalID: line(in.Terminal.TerminalId)})
			}
		}
	}
	if locations != nil {
		p.locationsSet = true
		p.locations = make([]Location, 0, min(len(locations), MaxToolPieces))
		for i, in := range locations {
			if i >= MaxToolPieces {
				p.locationsExtra += int64(len(in.Path))
				continue
			}
			l := Location{Path: line(in.Path)}
			if in.Line != nil {
				l.Line = max(*in.Line, 0)
			}
			p.locations = append(p.locations, l)
		}
	}
	return p
}

// toolKey is the key of a tool call id in an agent's map: the id, bounded so that an agent
// cannot make the conversation keep megabytes of ids.
func toolKey(id sdk.ToolCallId) string {
	s := string(id)
	if len(s) > MaxLineText {
		s = strings.Clone(s[:MaxLineText])
	}
	return s
}

// withRawInput adds to p the command of a tool call's raw input, when the agent sent one:
// the raw input replaces the one before, so a raw input without a command clears it.
func (p toolPatch) withRawInput(raw any) toolPatch {
	if raw != nil {
		cmd := commandOf(raw)
		p.command = &cmd
	}
	return p
}

// toolRef is how an agent's tool calls are found by id: a tool call id names a call only
// within the session that announced it (sess, the number of its AgentHandler). A restarted
// agent, or one whose session was reloaded, may give its new calls the ids of old ones.
type toolRef struct {
	sess uint64
	id   string
}

// applyTool folds a tool call (create) or a tool call update into the agent's entry for that
// id in the handler's session. An update for an id the session never announced creates the
// call all the same (it is counted in Stats), pending unless it says otherwise: what the
// agent does is shown even when it skipped the announcement.
//
// A tool_call whose id the session used in an earlier turn is a new call: it makes a new
// entry in the current turn, and the id names it from then on; the entry of the earlier turn
// is left as it was. A tool_call_update with that id before the id is reused is a late
// update of the earlier call: it updates that entry, in its turn (and its row in the
// history). The ids of another session (an earlier process of the agent, or the same
// session reloaded by a restarted agent) never reach this session's entries.
func (h *AgentHandler) applyTool(id sdk.ToolCallId, create bool, p toolPatch) {
	if create {
		p.contentSet, p.locationsSet = true, true
	}
	c := h.c
	c.mu.Lock()
	now := c.now()
	a := h.a
	ref := toolRef{sess: h.sess, id: toolKey(id)}
	it := a.tools[ref]
	if it != nil && create && it.e.Turn != a.turn {
		it = nil // the id of a call of an earlier turn, given to a new one
	}
	if it == nil {
		if !create {
			a.stats.UnknownToolUpdates++
			if p.status == nil {
				pending := string(sdk.ToolCallStatusPending)
				p.status = &pending
			}
		}
		if it = c.newAgentItem(a, KindToolCall, now); it == nil {
			c.unlock(true)
			return
		}
		it.e.Author = a.name
		it.e.Tool = &ToolCall{ID: line(ref.id)}
		a.tools[ref] = it
	}
	if p.contentSet {
		a.trackTerminals(it, p.content)
	}
	c.patchTool(it, p, now)
	c.unlock(true)
}

// patchTool applies a patch to a tool call entry; a status that ends the tool call finishes
// the entry. The caller holds the lock.
func (c *Conversation) patchTool(it *item, p toolPatch, now time.Time) {
	t := *it.e.Tool // published ToolCalls are never modified: change a copy
	t.patch(it, p)
	it.e.Tool = &t
	if (t.Status == toolCompleted || t.Status == toolFailed) && !it.e.Done {
		c.finish(it, now)
		return
	}
	c.changed(it, now)
}

// patch applies p to t, within the cap; it records what was lost in it.
func (t *ToolCall) patch(it *item, p toolPatch) {
	if p.title != nil {
		t.Title = *p.title
	}
	if p.kind != nil {
		t.Kind = *p.kind
	}
	if p.status != nil {
		t.Status = *p.status
	}
	if p.command != nil {
		t.Command = *p.command
	}
	if p.contentSet {
		t.Content = nil
	}
	if p.locationsSet {
		var lost int64
		t.Locations, lost = capLocations(p.locations, MaxEntryText-contentBytes(t.Content))
		it.locLost = lost + p.locationsExtra
	}
	if p.contentSet {
		var lost int64
		t.Content, lost = capContent(p.content, MaxEntryText-locationBytes(t.Locations))
		it.contentLost = lost + p.contentExtra
	}
	if it.e.Kind == KindToolCall {
		it.e.Lost = it.contentLost + it.locLost
	}
}

func pieceSize(p ToolContent) int {
	n := len(p.Text) + len(p.Path) + len(p.NewText) + len(p.TerminalID)
	if p.OldText != nil {
		n += len(*p.OldText)
	}
	return n
}

func rawPieceSize(in sdk.ToolCallContent) int {
	switch {
	case in.Content != nil && in.Content.Content.Text != nil:
		return len(in.Content.Content.Text.Text)
	case in.Diff != nil:
		n := len(in.Diff.Path) + len(in.Diff.NewText)
		if in.Diff.OldText != nil {
			n += len(*in.Diff.OldText)
		}
		return n
	case in.Terminal != nil:
		return len(in.Terminal.TerminalId)
	}
	return 0
}

func contentBytes(pieces []ToolContent) int {
	n := 0
	for _, p := range pieces {
		n += pieceSize(p)
	}
	return n
}

func locationBytes(locs []Location) int {
	n := 0
	for _, l := range locs {
		n += len(l.Path)
	}
	return n
}

// capContent keeps the pieces that fit in budget bytes, cutting the first that does not,
// and returns how many bytes it dropped. It reuses pieces.
func capContent(pieces []ToolContent, budget int) ([]ToolContent, int64) {
	var lost int64
	out := pieces[:0]
	for i, p := range pieces {
		size := pieceSize(p)
		if size <= budget {
			budget -= size
			out = append(out, p)
			continue
		}
		for _, rest := range pieces[i:] {
			lost += int64(pieceSize(rest))
		}
		if budget > 0 {
			p = clipPiece(p, budget)
			lost -= int64(pieceSize(p))
			out = append(out, p)
		}
		break
	}
	return out, lost
}

// clipPiece cuts a piece's texts so that together they hold at most budget bytes.
func clipPiece(p ToolContent, budget int) ToolContent {
	cut := func(s string) string {
		k := clip(s, budget)
		budget -= len(k)
		if len(k) < len(s) {
			k = strings.Clone(k) // let the rest be freed
		}
		return k
	}
	p.Path = cut(p.Path)
	p.TerminalID = cut(p.TerminalID)
	if p.OldText != nil {
		old := cut(*p.OldText)
		p.OldText = &old
	}
	p.NewText = cut(p.NewText)
	p.Text = cut(p.Text)
	return p
}

// capLocations keeps the locations whose paths fit in budget bytes.
func capLocations(locs []Location, budget int) ([]Location, int64) {
	var lost int64
	out := locs[:0]
	for _, l := range locs {
		if len(l.Path) <= budget {
			budget -= len(l.Path)
			out = append(out, l)
			continue
		}
		budget = 0
		lost += int64(len(l.Path))
	}
	return out, lost
}

// planEntries sanitizes a plan and bounds it; it returns the bytes it dropped.
func planEntries(in []sdk.PlanEntry) ([]PlanEntry, int64) {
	out := make([]PlanEntry, 0, min(len(in), MaxPlanEntries))
	budget := MaxEntryText
	var lost int64
	for _, p := range in {
		if len(out) == MaxPlanEntries || budget == 0 {
			lost += int64(len(p.Content) + len(p.Priority) + len(p.Status))
			continue
		}
		e := PlanEntry{Content: line(p.Content), Priority: line(string(p.Priority)), Status: line(string(p.Status))}
		size := len(e.Content) + len(e.Priority) + len(e.Status)
		if size > budget {
			budget = 0
			lost += int64(size)
			continue
		}
		budget -= size
		out = append(out, e)
	}
	return out, lost
}
