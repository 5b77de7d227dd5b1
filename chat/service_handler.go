package chat

import (
	"context"
	"sync/atomic"

	sdk "github.com/coder/acp-go-sdk"
)

// sessionHandler is the handler the service gives a session: the conversation's handler
// for the agent (wrapped by WrapHandler), behind a switch that discards what a
// session/load replays. The replay is the history the conversation already shows from the
// store; applying it would show every message twice. What describes the session rather
// than its history (commands, usage, mode, options, information) is kept.
type sessionHandler struct {
	loading atomic.Bool
	inner   SessionHandler
}

// handler makes the handler of an agent's new session in a conversation.
func (s *Service) handler(cs *convState, agent string) *sessionHandler {
	var inner SessionHandler = cs.conv.Handler(agent, cs.perm)
	if s.opts.WrapHandler != nil {
		inner = s.opts.WrapHandler(cs.key, agent, inner)
	}
	return &sessionHandler{inner: inner}
}

// Unwrap is the handler inside: the conversation's, as WrapHandler wrapped it.
func (h *sessionHandler) Unwrap() SessionHandler { return h.inner }

func (h *sessionHandler) Chunk(kind, text string) {
	if h.loading.Load() {
		return
	}
	h.inner.Chunk(kind, text)
}

func (h *sessionHandler) Update(u sdk.SessionUpdate) {
	if h.loading.Load() && !describesSession(u) {
		return
	}
	h.inner.Update(u)
}

func (h *sessionHandler) RequestPermission(ctx context.Context, req sdk.RequestPermissionRequest) sdk.RequestPermissionResponse {
	if h.loading.Load() { // nothing to allow while a session is reloaded
		return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeCancelled()}
	}
	return h.inner.RequestPermission(ctx, req)
}

// TerminalOutput passes a terminal's output on, unless a session/load is replaying.
func (h *sessionHandler) TerminalOutput(id string, out TerminalOutput) {
	if !h.loading.Load() {
		ForwardTerminal(h.inner, id, out)
	}
}

// describesSession reports whether an update is about the session's state rather than a
// part of its history.
func describesSession(u sdk.SessionUpdate) bool {
	return u.AvailableCommandsUpdate != nil || u.UsageUpdate != nil || u.CurrentModeUpdate != nil ||
		u.ConfigOptionUpdate != nil || u.SessionInfoUpdate != nil
}
