package anthropicstub

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Bounds of what the stand-in keeps: a request body larger than maxBody is refused, and
// only the last maxRequests requests are kept.
const (
	maxBody     = 8 << 20
	maxRequests = 256
	maxIssued   = 1 << 16 // tool_use ids remembered
)

// Request is a request the stand-in received.
type Request struct {
	Method, Path string
	Stream       bool
	Body         []byte
}

// Server is a running stand-in. Its methods are safe for concurrent use.
type Server struct {
	URL string

	srv      *httptest.Server
	mu       sync.Mutex
	script   Script
	requests []Request
	toolIDs  int
	issued   map[string]step // where each tool_use id sent stands in the script
}

// Start starts a stand-in that follows script, stopped when the test ends.
func Start(t testing.TB, script Script) *Server {
	t.Helper()
	s := &Server{script: script, issued: map[string]step{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	t.Cleanup(s.srv.Close)
	return s
}

// SetScript replaces the script for the requests that follow.
func (s *Server) SetScript(script Script) {
	s.mu.Lock()
	s.script = script
	s.mu.Unlock()
}

// Env is the environment that points a Claude agent at the stand-in, with a dummy key and
// the Claude CLI's traffic other than the model calls (telemetry, updates, error reports)
// turned off. IS_SANDBOX tells the Claude CLI that it may run as root (the tests' machines
// often run as root; without it the CLI exits at the session's start).
func (s *Server) Env() map[string]string {
	return map[string]string{
		"ANTHROPIC_BASE_URL":                       s.URL,
		"ANTHROPIC_API_KEY":                        "sk-ant-stub-not-a-key",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
		"DISABLE_AUTOUPDATER":                      "1",
		"DISABLE_TELEMETRY":                        "1",
		"DISABLE_ERROR_REPORTING":                  "1",
		"IS_SANDBOX":                               "1",
	}
}

// Requests returns a copy of the requests received so far (the last maxRequests).
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// ToolResults returns the text of every tool result the agent sent back to the model, once
// each, in the order they first came.
func (s *Server) ToolResults() []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range s.Requests() {
		var req request
		if json.Unmarshal(r.Body, &req) != nil {
			continue
		}
		for _, m := range req.Messages {
			for _, b := range m.blocks() {
				if b.Type != "tool_result" || seen[b.ToolUseID] {
					continue
				}
				seen[b.ToolUseID] = true
				out = append(out, resultText(b.Content))
			}
		}
	}
	return out
}

// resultText is a tool_result's content as text: a string, or its text blocks joined.
func resultText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var bs []contentBlock
	_ = json.Unmarshal(raw, &bs)
	var parts []string
	for _, b := range bs {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil || len(body) > maxBody {
		apiError(w, http.StatusRequestEntityTooLarge, "request_too_large", "request too large")
		return
	}
	var req request
	_ = json.Unmarshal(body, &req)
	s.mu.Lock()
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Stream: req.Stream, Body: body})
	if len(s.requests) > maxRequests {
		s.requests = s.requests[len(s.requests)-maxRequests:]
	}
	script := s.script
	s.mu.Unlock()

	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		writeJSON(w, map[string]any{"input_tokens": len(body) / 4})
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
		if json.Unmarshal(body, &req) != nil {
			apiError(w, http.StatusBadRequest, "invalid_request_error", "the body is not a Messages API request")
			return
		}
		turn, at := script.answer(req, s.stepOf)
		turn = turn.resolve(req)
		msg := s.message(req, turn, at)
		if req.Stream {
			stream(w, msg, turn)
			return
		}
		writeJSON(w, msg)
	default:
		apiError(w, http.StatusNotFound, "not_found_error", "the stand-in answers POST /v1/messages only")
	}
}

// message is the whole answer, as the non-streaming API returns it; the stream's
// message_start carries it with no content.
func (s *Server) message(req request, turn Turn, at step) map[string]any {
	content := make([]map[string]any, 0, len(turn))
	stop := "end_turn"
	s.mu.Lock()
	for i := range turn {
		b := &turn[i]
		switch b.kind {
		case "text":
			content = append(content, map[string]any{"type": "text", "text": b.text})
		case "thinking":
			content = append(content, map[string]any{"type": "thinking", "thinking": b.text, "signature": "stub"})
		case "tool_use":
			s.toolIDs++
			b.id = fmt.Sprintf("toolu_stub_%d", s.toolIDs)
			if len(s.issued) < maxIssued {
				s.issued[b.id] = at
			}
			content = append(content, map[string]any{"type": "tool_use", "id": b.id, "name": b.resolved, "input": b.input})
			stop = "tool_use"
		}
	}
	s.mu.Unlock()
	model := req.Model
	if model == "" {
		model = "claude-stub"
	}
	return map[string]any{
		"id": "msg_stub", "type": "message", "role": "assistant", "model": model,
		"content": content, "stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 10, "output_tokens": 10},
	}
}

// stepOf says where a tool_use id the stand-in sent stands in the script.
func (s *Server) stepOf(id string) (step, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	at, ok := s.issued[id]
	return at, ok
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("request-id", "req_stub")
	_ = json.NewEncoder(w).Encode(v)
}

func apiError(w http.ResponseWriter, status int, kind, text string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"type": "error", "error": map[string]any{"type": kind, "message": text},
	})
}
