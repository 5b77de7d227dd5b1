package chat

import "git.rickub.com/bots-garden/sidekicks/safetext"

// An agent's terminal (a command it runs through the client) shows in the tool call that
// embeds it: the pieces of type "terminal" carry the latest output the client read, and
// how the command ended, as it comes.

// maxTrackedTerminals is how many terminals' latest output one agent's state keeps, for a
// tool call that names its terminal after the output began (the agent creates the
// terminal, then sends the tool call update that embeds it).
const maxTrackedTerminals = 32

// TerminalOutput is the state of one of an agent's terminals: its latest output (not yet
// sanitized when handed to TerminalOutput) and how its command ended.
type TerminalOutput struct {
	Output    string
	Truncated bool // older output was dropped
	Exited    bool
	ExitCode  int    // when Exited and Signal is ""
	Signal    string // the signal that ended it ("SIGKILL")
	Killed    bool   // the client killed it
}

// TerminalWatcher is what a SessionHandler may also be: told of the output of the
// session's terminals. The handlers that wrap another pass it on (ForwardTerminal).
type TerminalWatcher interface {
	TerminalOutput(id string, out TerminalOutput)
}

// ForwardTerminal passes a terminal's output on to h when h watches terminals.
func ForwardTerminal(h SessionHandler, id string, out TerminalOutput) {
	if w, ok := h.(TerminalWatcher); ok {
		w.TerminalOutput(id, out)
	}
}

// terminalTrack is what an agent's state knows of its terminals.
type terminalTrack struct {
	out   map[string]TerminalOutput // by terminal id, the latest
	order []string                  // ids, oldest first
	items map[string][]*item        // the tool calls that embed each terminal
}

// TerminalOutput shows a terminal's output in the tool calls that embed it, and keeps it
// for those that will.
func (h *AgentHandler) TerminalOutput(id string, out TerminalOutput) {
	id = line(id)
	out.Output = safetext.Text(out.Output)
	out.Signal = line(out.Signal)
	c := h.c
	c.mu.Lock()
	tr := &h.a.terms
	if tr.out == nil {
		tr.out, tr.items = map[string]TerminalOutput{}, map[string][]*item{}
	}
	if _, known := tr.out[id]; !known {
		tr.order = append(tr.order, id)
		if len(tr.order) > maxTrackedTerminals {
			delete(tr.out, tr.order[0])
			delete(tr.items, tr.order[0])
			tr.order = tr.order[1:]
		}
	}
	tr.out[id] = out
	changed := false
	now := c.now()
	for _, it := range tr.items[id] {
		t := *it.e.Tool // published ToolCalls are never modified: change a copy
		t.Content = append([]ToolContent(nil), t.Content...)
		if fillTerminals(tr, t.Content) {
			it.e.Tool = &t
			c.changed(it, now)
			changed = true
		}
	}
	c.unlock(changed)
}

// trackTerminals fills the terminal pieces of a tool call's new content with what is known
// of their terminals, and remembers that the call embeds them. The caller holds the lock.
func (a *agentState) trackTerminals(it *item, content []ToolContent) {
	tr := &a.terms
	for _, p := range content {
		if p.Type != "terminal" {
			continue
		}
		if tr.items == nil {
			tr.out, tr.items = map[string]TerminalOutput{}, map[string][]*item{}
		}
		if len(tr.items[p.TerminalID]) < MaxToolPieces {
			tr.items[p.TerminalID] = append(tr.items[p.TerminalID], it)
		}
	}
	fillTerminals(tr, content)
}

// fillTerminals sets each terminal piece's output from tr; it reports whether one changed.
func fillTerminals(tr *terminalTrack, content []ToolContent) bool {
	changed := false
	for i := range content {
		p := &content[i]
		out, ok := tr.out[p.TerminalID]
		if p.Type != "terminal" || !ok || (p.Terminal != nil && *p.Terminal == out) {
			continue
		}
		o := out
		p.Terminal = &o
		changed = true
	}
	return changed
}
