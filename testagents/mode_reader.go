package testagents

import (
	"encoding/json"
	"fmt"
	"io"
	"path"
	"strings"
)

// The reader agent reads greedily: on session/prompt it takes the prompt's text as paths
// relative to its working directory, sends one fs/read_text_file request for each, all at
// once before it reads any answer, and replies with one line per path, in the prompt's
// order: "<path>: <N> bytes", or "<path>: refused: <the client's message>".
func init() { modes["reader"] = serveReader }

func serveReader(in io.Reader, out, _ io.Writer) int {
	p := newPeer("reader", in, out)
	var (
		promptID      json.RawMessage // the prompt waiting for its reads
		promptSession string
		paths         []string
		results       []string // by request: what became of each read ("" while waiting)
		waiting       int
	)
	const firstID = 1000 // the id of the first read; the others follow
	// finish sends a line per path, then ends the turn.
	finish := func() {
		for _, r := range results {
			p.say(promptSession, r+"\n")
		}
		p.endTurn(promptID)
		promptID = nil
	}
	for {
		m, ok := p.next()
		if !ok {
			return 0
		}
		switch {
		case p.handshake(m, nil):
		case m.Method == "session/prompt" && promptID == nil:
			promptID, promptSession = m.ID, m.Params.SessionID
			paths = strings.Fields(m.promptText())
			results = make([]string, len(paths))
			waiting = len(paths)
			for i, rel := range paths {
				p.request(firstID+i, "fs/read_text_file", map[string]any{
					"sessionId": promptSession, "path": path.Join(p.cwd[promptSession], rel)})
			}
			if waiting == 0 {
				finish()
			}
		case m.Method == "" && promptID != nil:
			var id int
			if json.Unmarshal(m.ID, &id) != nil || id < firstID || id >= firstID+len(paths) || results[id-firstID] != "" {
				continue
			}
			i := id - firstID
			var read struct {
				Content *string `json:"content"`
			}
			switch {
			case m.Error != nil:
				results[i] = paths[i] + ": refused: " + m.Error.Message
			case json.Unmarshal(m.Result, &read) == nil && read.Content != nil:
				results[i] = fmt.Sprintf("%s: %d bytes", paths[i], len(*read.Content))
			default:
				results[i] = paths[i] + ": refused: an answer with neither result nor error"
			}
			if waiting--; waiting == 0 {
				finish()
			}
		}
	}
}
