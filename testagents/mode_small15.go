package testagents

import "io"

// MidstreamText is what the midstream agent replies before it stops talking.
const MidstreamText = "The first half of a reply that never ends"

// The midstream agent starts a reply and never finishes it: on session/prompt it sends
// MidstreamText as a message chunk and leaves the turn open (no answer to the prompt, even
// on session/cancel) until the client closes the connection. It is what a Sidekicks killed
// in the middle of a reply leaves in its history.
//
// The silent agent is the same without a word: its turn stays open with nothing in it.
func init() {
	modes["midstream"] = func(in io.Reader, out, _ io.Writer) int { return serveUnending(in, out, MidstreamText) }
	modes["silent"] = func(in io.Reader, out, _ io.Writer) int { return serveUnending(in, out, "") }
}

// serveUnending answers every prompt with reply (nothing when it is "") and never ends the
// turn.
func serveUnending(in io.Reader, out io.Writer, reply string) int {
	p := newPeer("unending", in, out)
	for {
		m, ok := p.next()
		if !ok {
			return 0
		}
		switch {
		case p.handshake(m, nil):
		case m.Method == "session/prompt" && reply != "":
			p.say(m.Params.SessionID, reply)
		}
	}
}
