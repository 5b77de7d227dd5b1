package testagents

import (
	"encoding/json"
	"io"
)

// The cancelonclose agent holds each prompt open until its stdin closes, then answers it
// with the stop reason "cancelled" before it exits: what an agent stopped by Sidekicks
// (its stdin closed first) may well do, as the demo agent sometimes did in time.
func init() { modes["cancelonclose"] = serveCancelOnClose }

func serveCancelOnClose(in io.Reader, out, _ io.Writer) int {
	p := newPeer("cancelonclose", in, out)
	var prompt json.RawMessage
	for {
		m, ok := p.next()
		if !ok {
			if prompt != nil {
				p.answer(prompt, map[string]any{"stopReason": "cancelled"})
			}
			return 0
		}
		switch {
		case p.handshake(m, nil):
		case m.Method == "session/prompt":
			prompt = m.ID
			p.say(m.Params.SessionID, "working\n")
		}
	}
}
