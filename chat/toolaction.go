package chat

import (
	"strconv"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/config"
)

// MaxCommandText is the most bytes of an execute call's command a tool call keeps: a longer
// command is cut and ends with "…".
const MaxCommandText = 400

// Action is what a tool call does, as someone deciding whether to let it run needs to see
// it: the conversation shows it under the call's title, and a permission request shows the
// same.
type Action struct {
	// Kind is the call's kind as the agent sent it: read, edit, delete, move, search,
	// execute, think, fetch, switch_mode or other ("" when it sent none).
	Kind string
	// Locations are the files, and lines, it works on.
	Locations []Location
	// Command is what an execute call runs, from its raw input's "command" (a string, or
	// an array of words shown shell-quoted): sanitized, one line, cut with "…" at
	// MaxCommandText. It is "" for the other kinds, and when the raw input names none.
	Command string
}

// Action returns what the tool call does.
func (t *ToolCall) Action() Action {
	a := Action{Kind: t.Kind, Locations: t.Locations}
	if t.Kind == string(sdk.ToolKindExecute) {
		a.Command = t.Command
	}
	return a
}

// Unfinished reports whether e is a tool call its turn left behind: the entry is done (its
// turn ended, or it was loaded from the history) while the agent never said that the call
// completed or failed.
func (e Entry) Unfinished() bool {
	return e.Kind == KindToolCall && e.Done && e.Tool != nil && e.Tool.Status != toolCompleted && e.Tool.Status != toolFailed
}

// String returns the location as "path:line", or its path when it has no line.
func (l Location) String() string {
	if l.Line > 0 {
		return l.Path + ":" + strconv.Itoa(l.Line)
	}
	return l.Path
}

// commandOf returns the command of an execute call's raw input, whose shape the protocol
// leaves to the agent: a string, or an object whose "command" (or "cmd") is a string or a
// list of words (shown shell-quoted), followed by its "args" words when given. It returns
// "" for any other shape. Only the first bytes of a huge command are read; the result is
// sanitized, on one line, cut with "…" at MaxCommandText.
func commandOf(raw any) string {
	const enough = 4 * MaxCommandText // what is kept once escape sequences are removed
	var b strings.Builder
	add := func(v any) bool {
		switch v := v.(type) {
		case string:
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(clip(v, enough))
		case []any:
			for _, w := range v {
				word, ok := w.(string)
				if !ok || b.Len() > enough {
					break
				}
				if b.Len() > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(config.ShellWord(clip(word, enough)))
			}
		default:
			return false
		}
		return true
	}
	switch v := raw.(type) {
	case string:
		add(v)
	case map[string]any:
		if !add(v["command"]) && !add(v["cmd"]) {
			return ""
		}
		add(v["args"])
	}
	s := b.String()
	cut := len(s) > enough
	s = strings.TrimSpace(cutLine(clip(s, enough), MaxCommandText))
	if cut && !strings.HasSuffix(s, "…") {
		s = strings.TrimSuffix(clip(s, MaxCommandText-len("…")), "…") + "…"
	}
	return s
}
