// Package chat is the conversation model, independent of any screen: the entries of a
// conversation, the reducer that folds ACP session updates into them, turns, permission
// requests, prompt building and channel routing.
package chat

import "time"

// MaxEntryText is the most text one entry keeps (1 MiB); what arrives beyond it is dropped
// and counted in Entry.Lost.
const MaxEntryText = 1 << 20

// EntryKind says what an entry of a conversation is.
type EntryKind string

// The kinds of entries.
const (
	KindUser     EntryKind = "user"      // the user's message, as typed
	KindAgent    EntryKind = "agent"     // an agent's reply, appended chunk by chunk
	KindThought  EntryKind = "thought"   // an agent's thought
	KindToolCall EntryKind = "tool_call" // a tool call, folded with its updates
	KindPlan     EntryKind = "plan"      // a plan, replaced by each new plan
	KindNotice   EntryKind = "notice"    // a notice of Sidekicks itself (error, cancel, restart)
)

// Entry is one element of a conversation. All text in it has been sanitized.
type Entry struct {
	// ID is the entry's identifier in the store; 0 until stored.
	ID int64
	// Seq identifies the entry within its conversation: unique, never reused, and unchanged
	// for the entry's life. Entries made by a conversation are numbered in the order they
	// were created, after every Seq it loaded. A sink is given the same entry several times
	// (a streaming entry is saved while it streams, then when it is done) and tells them
	// apart by Seq: for instance by keeping the store ID of each Seq it saved.
	Seq int64
	// Rev changes every time the entry changes (it is drawn from one counter per
	// conversation, so it only grows): a screen re-wraps an entry only when its Rev differs
	// from the one it cached. It is not meant to be stored.
	Rev uint64
	// Kind says which of the fields below are meaningful.
	Kind EntryKind
	// Author is the agent's name for agent entries (reply, thought, tool call, plan) and for
	// notices about one agent (its turn was cancelled, it asked a permission); "" for the user
	// and for Sidekicks' general notices.
	Author string
	// Turn is the turn this entry belongs to (0 when it belongs to none).
	Turn int64
	// Created and Updated are when the entry started and last changed.
	Created time.Time
	Updated time.Time
	// Text is the message, reply, thought or notice text.
	Text string
	// Lost counts the bytes dropped because the entry reached MaxEntryText (for a tool call,
	// of its content and locations; for a plan, of its entries).
	Lost int64
	// Tool is set for KindToolCall. The ToolCall it points to is never modified once the
	// entry is published (an update makes a new one), so copies of an entry may share it.
	Tool *ToolCall
	// Plan is set for KindPlan; like Tool, never modified in place.
	Plan []PlanEntry
	// Done is false while the entry is still streaming.
	Done bool
	// Interrupted marks an entry loaded from history that was never finished: Sidekicks
	// stopped (killed, crashed, the power cut) while the entry was still streaming, so its
	// text ends where it was last saved, and its turn never ended. It is not stored: the
	// history keeps such an entry as not done, and every load marks it again.
	Interrupted bool
}

// ToolCall is a tool call with its updates folded in.
type ToolCall struct {
	ID     string
	Title  string
	Kind   string // read, edit, delete, move, search, execute, think, fetch, switch_mode, other
	Status string // pending, in_progress, completed, failed
	// Command is the command an execute call runs, from its raw input: one line, cut with
	// "…" at MaxCommandText (see Action, which is how to read it).
	Command   string `json:",omitempty"`
	Content   []ToolContent
	Locations []Location
}

// ToolContent is one piece of a tool call's output.
type ToolContent struct {
	Type string // "content", "diff" or "terminal"
	// Text is the text of a "content" piece.
	Text string
	// Path, OldText and NewText describe a "diff" piece; OldText is nil for a new file.
	Path    string
	OldText *string
	NewText string
	// TerminalID names the terminal of a "terminal" piece.
	TerminalID string
	// Terminal is what the client last read of that terminal (sanitized), nil before any.
	Terminal *TerminalOutput `json:",omitempty"`
}

// Location is a file (and line) a tool call is working on.
type Location struct {
	Path string
	Line int // 0 when not given
}

// PlanEntry is one step of a plan.
type PlanEntry struct {
	Content  string
	Priority string // high, medium, low
	Status   string // pending, in_progress, completed
}
