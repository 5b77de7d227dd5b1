package chat

import (
	"slices"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// The chunk kinds an AgentHandler receives through Chunk (the acp package's names).
const (
	ChunkAgentMessage = "agent_message_chunk"
	ChunkAgentThought = "agent_thought_chunk"
	ChunkUserMessage  = "user_message_chunk"
)

// MaxCommands is the most commands kept from one available_commands_update.
const MaxCommands = 1000

// Stats counts what an agent sent that the conversation did not show, for the Agent status
// view (the acp package counts, besides, what it could not decode at all).
type Stats struct {
	// Ignored counts updates that decoded but that the conversation does not use (modes,
	// configuration options, session information, chunk kinds it does not know).
	Ignored int64
	// LastIgnored is the kind of the last one.
	LastIgnored string
	// UnknownToolUpdates counts tool_call_updates for a tool call the agent never announced:
	// each made the tool call, as if announced.
	UnknownToolUpdates int64
	// DroppedEntries counts entries not made because a turn reached MaxTurnEntries.
	DroppedEntries int64
}

// Command is a command an agent announced, sanitized.
type Command struct {
	Name        string
	Description string
	// HasInput says the command takes an argument; InputHint describes it ("" when the agent
	// gave no hint).
	HasInput  bool
	InputHint string
}

// Usage is an agent's last usage_update: tokens in its context, and its cost so far.
type Usage struct {
	Used int
	Size int
	Cost *Cost // nil when the agent gave none
}

// Cost is an amount of money, in a currency the agent names.
type Cost struct {
	Amount   float64
	Currency string
}

// AgentHandler applies what one agent sends for one session to the conversation. It
// satisfies the acp package's SessionHandler: Chunk and Update are called on the agent's
// reading goroutine and return quickly; RequestPermission waits for the user.
type AgentHandler struct {
	c    *Conversation
	a    *agentState
	perm Permissions
	sess uint64 // the agent's session this handler feeds, which scopes its tool call ids
}

// Handler returns the handler through which agent feeds the conversation; several agents
// (a channel) stream into it at the same time, each into its own entries, authored with its
// name. perm answers its permission requests; with nil, every request is cancelled. Each
// handler is one session of the agent: the tool call ids it sends name only its own calls.
func (c *Conversation) Handler(agent string, perm Permissions) *AgentHandler {
	c.mu.Lock()
	defer c.mu.Unlock()
	a := c.agent(agent)
	a.sessions++
	return &AgentHandler{c: c, a: a, perm: perm, sess: a.sessions}
}

// Chunk appends a text chunk. Consecutive chunks of one kind from the agent extend one
// entry; a chunk of another kind, or after the agent started another entry, starts a new
// one.
func (h *AgentHandler) Chunk(kind, text string) {
	var ek EntryKind
	switch kind {
	case ChunkAgentMessage:
		ek = KindAgent
	case ChunkAgentThought:
		ek = KindThought
	case ChunkUserMessage:
		ek = KindUser
	default:
		h.ignore(kind)
		return
	}
	text = safetext.Text(text)
	c := h.c
	c.mu.Lock()
	changed := c.chunk(h.a, ek, text)
	c.unlock(changed)
}

// Update applies any session update: chunks (whatever their content), tool calls and their
// updates, plans, commands and usage. The other kinds are counted in Stats and ignored.
func (h *AgentHandler) Update(u sdk.SessionUpdate) {
	switch {
	case u.AgentMessageChunk != nil:
		h.Chunk(ChunkAgentMessage, h.c.contentText(u.AgentMessageChunk.Content))
	case u.AgentThoughtChunk != nil:
		h.Chunk(ChunkAgentThought, h.c.contentText(u.AgentThoughtChunk.Content))
	case u.UserMessageChunk != nil:
		h.Chunk(ChunkUserMessage, h.c.contentText(u.UserMessageChunk.Content))
	case u.ToolCall != nil:
		t := u.ToolCall
		status := t.Status
		if status == "" {
			status = sdk.ToolCallStatusPending
		}
		h.applyTool(t.ToolCallId, true, h.c.newToolPatch(&t.Title, &t.Kind, &status, t.Content, t.Locations).withRawInput(t.RawInput))
	case u.ToolCallUpdate != nil:
		t := u.ToolCallUpdate
		h.applyTool(t.ToolCallId, false, h.c.newToolPatch(t.Title, t.Kind, t.Status, t.Content, t.Locations).withRawInput(t.RawInput))
	case u.Plan != nil:
		h.plan(u.Plan.Entries)
	case u.AvailableCommandsUpdate != nil:
		h.commands(u.AvailableCommandsUpdate.AvailableCommands)
	case u.UsageUpdate != nil:
		h.usage(u.UsageUpdate)
	case u.CurrentModeUpdate != nil:
		h.ignore("current_mode_update")
	case u.ConfigOptionUpdate != nil:
		h.ignore("config_option_update")
	case u.SessionInfoUpdate != nil:
		h.sessionInfo(u.SessionInfoUpdate)
	default:
		h.ignore("empty")
	}
}

// Stats returns what the agent sent that the conversation did not show.
func (h *AgentHandler) Stats() Stats {
	return h.c.Stats(h.a.name)
}

// Stats returns what an agent sent that the conversation did not show.
func (c *Conversation) Stats(agent string) Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	if a, ok := c.agents[agent]; ok {
		return a.stats
	}
	return Stats{}
}

// Commands returns the commands the agent announced last.
func (c *Conversation) Commands(agent string) []Command {
	c.mu.Lock()
	defer c.mu.Unlock()
	if a, ok := c.agents[agent]; ok {
		return slices.Clone(a.commands)
	}
	return nil
}

// Usage returns the agent's last usage_update, and false when it sent none.
func (c *Conversation) Usage(agent string) (Usage, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if a, ok := c.agents[agent]; ok && a.usage != nil {
		return *a.usage, true
	}
	return Usage{}, false
}

func (h *AgentHandler) ignore(kind string) {
	c := h.c
	c.mu.Lock()
	h.a.stats.Ignored++
	h.a.stats.LastIgnored = line(kind)
	c.unlock(false)
}

// chunk appends sanitized text to the agent's open entry of that kind, or to a new one.
// The caller holds the lock.
func (c *Conversation) chunk(a *agentState, kind EntryKind, text string) bool {
	if text == "" {
		return false
	}
	now := c.now()
	it := a.open
	if it == nil || it.e.Kind != kind || it.e.Done {
		if it = c.newAgentItem(a, kind, now); it == nil {
			return true
		}
		if kind != KindUser {
			it.e.Author = a.name
		}
		a.open = it
	}
	if !it.appendText(text) {
		return false
	}
	c.changed(it, now)
	return true
}

// newAgentItem starts a new entry fed by agent a, finishing the text entry it was feeding,
// or returns nil when the turn already made MaxTurnEntries. The caller holds the lock.
func (c *Conversation) newAgentItem(a *agentState, kind EntryKind, now time.Time) *item {
	if a.created >= MaxTurnEntries {
		a.stats.DroppedEntries++
		if !a.full {
			a.full = true
			c.addNotice(a, catalogue.Text(c.lang, msgTooManyEntries, line(a.name)))
		}
		return nil
	}
	a.created++
	if a.open != nil {
		c.finish(a.open, now)
		a.open = nil
	}
	return c.addItem(kind, a, now)
}

// contentText is what a chunk's content block shows: its text, or a short placeholder for
// what a conversation cannot show (images, audio, links, embedded resources).
func (c *Conversation) contentText(b sdk.ContentBlock) string {
	switch {
	case b.Text != nil:
		return b.Text.Text
	case b.Image != nil:
		return catalogue.Text(c.lang, msgImage)
	case b.Audio != nil:
		return catalogue.Text(c.lang, msgAudio)
	case b.ResourceLink != nil:
		name := b.ResourceLink.Name
		if name == "" {
			name = b.ResourceLink.Uri
		}
		return catalogue.Text(c.lang, msgLink, line(name))
	case b.Resource != nil:
		uri := ""
		if r := b.Resource.Resource.TextResourceContents; r != nil {
			uri = r.Uri
		} else if r := b.Resource.Resource.BlobResourceContents; r != nil {
			uri = r.Uri
		}
		return catalogue.Text(c.lang, msgResource, line(uri))
	}
	return catalogue.Text(c.lang, msgUnsupported)
}

// plan replaces the agent's plan of this turn, or starts one.
func (h *AgentHandler) plan(in []sdk.PlanEntry) {
	entries, lost := planEntries(in)
	c := h.c
	c.mu.Lock()
	now := c.now()
	a := h.a
	it := a.plan
	if it == nil || it.e.Done {
		if it = c.newAgentItem(a, KindPlan, now); it == nil {
			c.unlock(true)
			return
		}
		it.e.Author = a.name
		a.plan = it
	}
	it.e.Plan, it.e.Lost = entries, lost
	c.changed(it, now)
	c.unlock(true)
}

func (h *AgentHandler) commands(in []sdk.AvailableCommand) {
	cmds := make([]Command, 0, min(len(in), MaxCommands))
	for _, ac := range in {
		if len(cmds) == MaxCommands {
			break
		}
		cmd := Command{Name: line(ac.Name), Description: line(ac.Description)}
		if cmd.Name == "" {
			continue
		}
		if ac.Input != nil {
			cmd.HasInput = true
			if ac.Input.Unstructured != nil {
				cmd.InputHint = line(ac.Input.Unstructured.Hint)
			}
		}
		cmds = append(cmds, cmd)
	}
	c := h.c
	c.mu.Lock()
	h.a.commands = cmds
	c.rev++
	c.unlock(true)
}

func (h *AgentHandler) usage(u *sdk.SessionUsageUpdate) {
	us := &Usage{Used: u.Used, Size: u.Size}
	if u.Cost != nil {
		us.Cost = &Cost{Amount: u.Cost.Amount, Currency: line(u.Cost.Currency)}
	}
	c := h.c
	c.mu.Lock()
	h.a.usage = us
	c.rev++
	c.unlock(true)
}
