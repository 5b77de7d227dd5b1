package testagents

import (
	"bufio"
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
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	w := bufio.NewWriter(out)
	send := func(v any) {
		b, _ := json.Marshal(v)
		_, _ = w.Write(append(b, '\n'))
		_ = w.Flush()
	}
	cwd := map[string]string{} // each session's working directory
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
			send(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{
				"sessionId": promptSession, "update": map[string]any{"sessionUpdate": "agent_message_chunk",
					"content": map[string]any{"type": "text", "text": r + "\n"}}}})
		}
		send(map[string]any{"jsonrpc": "2.0", "id": promptID, "result": map[string]any{"stopReason": "end_turn"}})
		promptID = nil
	}
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				SessionID string `json:"sessionId"`
				Cwd       string `json:"cwd"`
				Prompt    []struct {
					Type string `json:"type"`
					Text string `json:"text"`
				} `json:"prompt"`
			} `json:"params"`
			Result *struct {
				Content string `json:"content"`
			} `json:"result"`
			Error *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		switch {
		case m.Method == "initialize":
			send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{
				"protocolVersion": 1, "agentCapabilities": map[string]any{"loadSession": false}}})
		case m.Method == "session/new":
			id := fmt.Sprintf("reader-%d", len(cwd)+1)
			cwd[id] = m.Params.Cwd
			send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{"sessionId": id}})
		case m.Method == "session/prompt" && promptID == nil:
			var text strings.Builder
			for _, b := range m.Params.Prompt {
				if b.Type == "text" {
					text.WriteString(b.Text + " ")
				}
			}
			promptID, promptSession = m.ID, m.Params.SessionID
			paths = strings.Fields(text.String())
			results = make([]string, len(paths))
			waiting = len(paths)
			for i, p := range paths {
				send(map[string]any{"jsonrpc": "2.0", "id": firstID + i, "method": "fs/read_text_file", "params": map[string]any{
					"sessionId": promptSession, "path": path.Join(cwd[promptSession], p)}})
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
			switch {
			case m.Error != nil:
				results[i] = paths[i] + ": refused: " + m.Error.Message
			case m.Result != nil:
				results[i] = fmt.Sprintf("%s: %d bytes", paths[i], len(m.Result.Content))
			default:
				results[i] = paths[i] + ": refused: an answer with neither result nor error"
			}
			if waiting--; waiting == 0 {
				finish()
			}
		}
	}
	return 0
}
