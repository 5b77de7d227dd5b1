package acp

import (
	"context"
	"encoding/json"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// handleRequest answers a request from the agent on a goroutine of its own, so that a
// permission waiting for the user, or a write blocked on the agent's stdin, never holds
// the reading goroutine. At most Options.MaxAgentRequests are answered at once; beyond,
// the reading goroutine waits for a slot (back-pressure on the agent's pipe).
func (c *Conn) handleRequest(env envelope) {
	if !validID(env.ID) {
		c.ignore("a request with an id that is neither a number nor a string")
		return
	}
	select {
	case c.sem <- struct{}{}:
	case <-c.done:
		return
	}
	c.opts.Go.Start("acp request "+c.agent, func() {
		defer func() { <-c.sem }()
		ctx, done := c.beginRequest(env.ID)
		result, rpcErr := c.serve(ctx, env.Method, env.Params)
		done()
		c.respond(env.ID, result, rpcErr)
	})
}

// answerLater answers a request on a goroutine of its own, within the same bound.
func (c *Conn) answerLater(id json.RawMessage, result any, rpcErr *outError) {
	select {
	case c.sem <- struct{}{}:
	case <-c.done:
		return
	}
	c.opts.Go.Start("acp answer "+c.agent, func() {
		defer func() { <-c.sem }()
		c.respond(id, result, rpcErr)
	})
}

// validID reports whether a request id is a number or a string.
func validID(id json.RawMessage) bool {
	if len(id) == 0 {
		return false
	}
	switch id[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return true
	}
	return false
}

// respond writes the answer to the agent's request id.
func (c *Conn) respond(id json.RawMessage, result any, rpcErr *outError) {
	m := outMessage{ID: id, Result: result, Error: rpcErr}
	if rpcErr == nil && result == nil {
		m.Result = struct{}{}
	}
	data, err := encode(m)
	if err != nil {
		data, _ = encode(outMessage{ID: id, Error: &outError{Code: codeInternalError, Message: "the answer could not be encoded"}})
	}
	c.queueAnswer(data)
}

// serve computes the answer to one request from the agent.
func (c *Conn) serve(ctx context.Context, method string, params json.RawMessage) (any, *outError) {
	if result, e, ok := c.serveTerminal(method, params); ok {
		return result, e
	}
	switch method {
	case "session/request_permission":
		return c.servePermission(ctx, params)
	case ElicitationCreateMethod:
		return c.serveElicitation(ctx, params)
	case "fs/read_text_file":
		return c.serveRead(params)
	case "fs/write_text_file":
		return c.serveWrite(params)
	}
	c.ignore("a request for a method Sidekicks does not implement")
	return nil, &outError{
		Code:    codeMethodNotFound,
		Message: "Sidekicks does not implement " + safetext.Snippet(method, 100),
		Data:    map[string]string{"method": safetext.Snippet(method, 100)},
	}
}

// servePermission asks the session's handler, and answers "cancelled" when the turn is
// cancelled (or the connection ends) before the user chose.
func (c *Conn) servePermission(ctx context.Context, params json.RawMessage) (any, *outError) {
	var req sdk.RequestPermissionRequest
	if err := json.Unmarshal(params, &req); err != nil {
		return nil, invalidParams("session/request_permission", err)
	}
	s := c.session(string(req.SessionId))
	if s == nil {
		c.ignore("a permission request for an unknown session")
		return nil, unknownSession(req.SessionId)
	}
	ctx, done := s.beginPermission(ctx)
	defer done()
	var resp sdk.RequestPermissionResponse
	if ctx.Err() == nil {
		resp = s.h.RequestPermission(ctx, req)
	}
	// The files of a request not allowed stay refused for the rest of the turn, from
	// before the agent reads the answer.
	defer func() { s.recordAnswer(req, resp) }()
	if ctx.Err() != nil || (resp.Outcome.Selected == nil && resp.Outcome.Cancelled == nil) {
		resp = sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{
			Cancelled: &sdk.RequestPermissionOutcomeCancelled{Outcome: "cancelled"},
		}}
		return resp, nil
	}
	if resp.Outcome.Selected != nil {
		// Exactly one variant, whatever the handler filled in.
		selected := *resp.Outcome.Selected
		selected.Outcome = "selected"
		resp.Outcome = sdk.RequestPermissionOutcome{Selected: &selected}
	} else {
		resp.Outcome = sdk.RequestPermissionOutcome{Cancelled: &sdk.RequestPermissionOutcomeCancelled{Outcome: "cancelled"}}
	}
	return resp, nil
}

// invalidParams is the answer to a request whose parameters do not decode.
func invalidParams(method string, err error) *outError {
	return &outError{Code: codeInvalidParams, Message: "invalid parameters for " + method + ": " + safetext.Snippet(err.Error(), maxQuoted)}
}

// unknownSession is the answer to a request for a session this connection does not have.
func unknownSession(id sdk.SessionId) *outError {
	return &outError{Code: codeInvalidParams, Message: "unknown session " + safetext.Snippet(string(id), 100)}
}

// requestContext is the context of an fs request: done when the connection ends.
func (c *Conn) requestContext() context.Context { return c.ctx }
