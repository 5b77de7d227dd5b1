package anthropicstub

import (
	"encoding/json"
	"fmt"
	"net/http"
	"unicode/utf8"
)

// stream writes msg as the Messages API streams it: message_start with no content, each
// block as content_block_start, deltas and content_block_stop, then message_delta with the
// stop reason and message_stop. Texts go in a few deltas, as a model sends them.
func stream(w http.ResponseWriter, msg map[string]any, turn Turn) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("request-id", "req_stub")
	flusher, _ := w.(http.Flusher)
	send := func(event string, data map[string]any) {
		data["type"] = event
		line, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, line)
		if flusher != nil {
			flusher.Flush()
		}
	}
	start := map[string]any{}
	for k, v := range msg {
		start[k] = v
	}
	start["content"] = []any{}
	start["stop_reason"] = nil
	send("message_start", map[string]any{"message": start})
	send("ping", map[string]any{})
	for i, b := range turn {
		switch b.kind {
		case "text":
			send("content_block_start", map[string]any{"index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			for _, part := range pieces(b.text) {
				send("content_block_delta", map[string]any{"index": i, "delta": map[string]any{"type": "text_delta", "text": part}})
			}
		case "thinking":
			send("content_block_start", map[string]any{"index": i, "content_block": map[string]any{"type": "thinking", "thinking": "", "signature": ""}})
			for _, part := range pieces(b.text) {
				send("content_block_delta", map[string]any{"index": i, "delta": map[string]any{"type": "thinking_delta", "thinking": part}})
			}
			send("content_block_delta", map[string]any{"index": i, "delta": map[string]any{"type": "signature_delta", "signature": "stub"}})
		case "tool_use":
			send("content_block_start", map[string]any{"index": i, "content_block": map[string]any{"type": "tool_use", "id": b.id, "name": b.resolved, "input": map[string]any{}}})
			for _, part := range pieces(string(b.input)) {
				send("content_block_delta", map[string]any{"index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": part}})
			}
		}
		send("content_block_stop", map[string]any{"index": i})
	}
	send("message_delta", map[string]any{
		"delta": map[string]any{"stop_reason": msg["stop_reason"], "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": 10},
	})
	send("message_stop", map[string]any{})
}

// pieces cuts s in up to three parts at character boundaries.
func pieces(s string) []string {
	if s == "" {
		return []string{""}
	}
	var out []string
	size := len(s)/3 + 1
	for len(s) > 0 {
		n := min(size, len(s))
		for n < len(s) && !utf8.RuneStart(s[n]) {
			n++
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}
