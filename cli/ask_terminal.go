package cli

import (
	"strconv"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// askTerminalTail is how many of its last lines ask prints of a terminal whose output grew
// past what the conversation keeps of it (its earlier lines can no longer be matched).
const askTerminalTail = 20

// terminalShown is what ask has printed of one terminal of a tool call.
type terminalShown struct {
	lines int  // complete lines printed
	ended bool // its ending printed
}

// showTerminals prints the output of a tool call's terminals as it comes, a complete line
// at a time ("[terminal] line"), then how the command ended. Once older output was
// dropped, only the last lines are printed, at the end.
func (o *askOutput) showTerminals(e chat.Entry) {
	for _, p := range e.Tool.Content {
		if p.Type != "terminal" || p.Terminal == nil {
			continue
		}
		key := strconv.FormatInt(e.Seq, 10) + " " + p.TerminalID
		if o.terms == nil {
			o.terms = map[string]*terminalShown{}
		}
		st := o.terms[key]
		if st == nil {
			st = &terminalShown{}
			o.terms[key] = st
		}
		if st.ended {
			continue
		}
		t := p.Terminal
		lines := strings.Split(t.Output, "\n")
		complete := len(lines) - 1 // the last is not ended by a newline yet
		if t.Exited {
			if lines[complete] != "" {
				complete++
			}
			if t.Truncated { // the lines no longer match those printed: the last ones
				st.lines = max(0, complete-askTerminalTail)
				o.note("[terminal] …")
			}
		} else if t.Truncated {
			continue
		}
		for ; st.lines < complete; st.lines++ {
			o.note("[terminal] " + lines[st.lines])
		}
		if t.Exited {
			st.ended = true
			o.note("[terminal] " + t.Ending(o.lang))
		}
	}
}
