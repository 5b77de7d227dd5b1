package agentstack

import (
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// watchingHandler is a session handler that shows terminals' output.
type watchingHandler struct {
	chat.SessionHandler
	got []string
}

func (w *watchingHandler) TerminalOutput(id string, out chat.TerminalOutput) {
	w.got = append(w.got, id+": "+out.Output)
}

// TestWrappedHandlersPassTerminalsOn: every handler the stack wraps around a
// conversation's (the commands' tap, a caller's own, the sessions' tap) passes the output
// of the agent's terminals on to it, so that it shows in the tool call.
func TestWrappedHandlersPassTerminalsOn(t *testing.T) {
	for _, tt := range []struct {
		name string
		next func(chat.Key, string, chat.SessionHandler) chat.SessionHandler
	}{
		{"without a caller's wrapper", nil},
		{"with a caller's wrapper", func(_ chat.Key, _ string, h chat.SessionHandler) chat.SessionHandler {
			return &forwarding{h}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := &Stack{sessions: newSessions(nil, nil), commands: NewCommands()}
			inner := &watchingHandler{}
			h := a.wrapHandler(tt.next)(chat.AgentKey("bob"), "bob", inner)
			chat.ForwardTerminal(h, "term-1", chat.TerminalOutput{Output: "marker-42"})
			if len(inner.got) != 1 || inner.got[0] != "term-1: marker-42" {
				t.Fatalf("the conversation's handler got %q, want the terminal's output once", inner.got)
			}
		})
	}
}

// forwarding is a caller's wrapper that passes terminals on, as ask's does.
type forwarding struct{ chat.SessionHandler }

func (f *forwarding) TerminalOutput(id string, out chat.TerminalOutput) {
	chat.ForwardTerminal(f.SessionHandler, id, out)
}
