package acp

import (
	"encoding/json"
	"path"
	"strconv"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// serveTerminal answers the terminal/* requests; ok is false for another method, and for
// every method when the connection offers no terminals (the methods are then unknown).
func (c *Conn) serveTerminal(method string, params json.RawMessage) (result any, e *outError, ok bool) {
	if c.opts.Terminals == nil {
		return nil, nil, false
	}
	switch method {
	case "terminal/create":
		result, e = c.serveCreateTerminal(params)
	case "terminal/output":
		result, e = c.onTerminal(method, params, func(t *terminal) (any, *outError) {
			s := t.snapshot(t.limit)
			r := sdk.TerminalOutputResponse{Output: s.Output, Truncated: s.Truncated}
			if s.Exited {
				r.ExitStatus = exitStatus(s)
			}
			return r, nil
		})
	case "terminal/wait_for_exit":
		result, e = c.onTerminal(method, params, func(t *terminal) (any, *outError) {
			select {
			case <-t.ended:
			case <-t.released:
				return nil, &outError{Code: codeInvalidRequest, Message: "the terminal was released before its command ended"}
			case <-c.done:
				return nil, &outError{Code: codeInternalError, Message: "the connection ended"}
			}
			st := exitStatus(t.snapshot(0))
			return sdk.WaitForTerminalExitResponse{ExitCode: st.ExitCode, Signal: st.Signal}, nil
		})
	case "terminal/kill":
		result, e = c.onTerminal(method, params, func(t *terminal) (any, *outError) {
			t.kill()
			return sdk.KillTerminalResponse{}, nil
		})
	case "terminal/release":
		result, e = c.onTerminal(method, params, func(t *terminal) (any, *outError) {
			c.terms.remove(t.id)
			t.release()
			return sdk.ReleaseTerminalResponse{}, nil
		})
	default:
		return nil, nil, false
	}
	return result, e, true
}

// exitStatus is how a terminal's command ended, as ACP says it.
func exitStatus(s TerminalSnapshot) *sdk.TerminalExitStatus {
	if s.Signal != "" {
		sig := s.Signal
		return &sdk.TerminalExitStatus{Signal: &sig}
	}
	code := s.ExitCode
	return &sdk.TerminalExitStatus{ExitCode: &code}
}

// terminalRequest is the part every request on an existing terminal has.
type terminalRequest struct {
	SessionId  sdk.SessionId `json:"sessionId"`
	TerminalId string        `json:"terminalId"`
}

// onTerminal decodes a request on an existing terminal of a known session and answers it
// with do.
func (c *Conn) onTerminal(method string, params json.RawMessage, do func(*terminal) (any, *outError)) (any, *outError) {
	var req terminalRequest
	if err := json.Unmarshal(params, &req); err != nil {
		return nil, invalidParams(method, err)
	}
	if c.session(string(req.SessionId)) == nil {
		return nil, unknownSession(req.SessionId)
	}
	t := c.terms.get(string(req.SessionId), req.TerminalId)
	if t == nil {
		return nil, &outError{Code: codeInvalidParams, Message: method + ": no terminal " + strconv.Quote(safetext.Snippet(req.TerminalId, 100)) +
			" in this session (never created, or released)"}
	}
	return do(t)
}

// serveCreateTerminal starts the command where the agent runs, in the folder asked (the
// workspace when none), and answers with the terminal's id at once.
func (c *Conn) serveCreateTerminal(params json.RawMessage) (any, *outError) {
	var req sdk.CreateTerminalRequest
	if err := json.Unmarshal(params, &req); err != nil {
		return nil, invalidParams("terminal/create", err)
	}
	s := c.session(string(req.SessionId))
	if s == nil {
		return nil, unknownSession(req.SessionId)
	}
	if c.opts.Workspace == nil {
		return nil, &outError{Code: codeInvalidRequest, Message: "terminal/create: Sidekicks runs no commands for this agent"}
	}
	if req.Command == "" {
		return nil, &outError{Code: codeInvalidParams, Message: "terminal/create: the command is empty"}
	}
	root := path.Clean(c.opts.Workspace.Root())
	cwd := root
	if req.Cwd != nil && *req.Cwd != "" {
		cwd = path.Clean(*req.Cwd)
		if cwd != root {
			if _, err := RelativePath(root, *req.Cwd); err != nil {
				return nil, &outError{Code: codeInvalidParams, Message: "terminal/create: the folder " + strconv.Quote(safetext.Snippet(*req.Cwd, maxQuoted)) +
					" is refused: " + err.Error() + "; commands run only inside the workspace"}
			}
		}
	}
	limit := MaxTerminalOutput
	if req.OutputByteLimit != nil && *req.OutputByteLimit >= 0 && *req.OutputByteLimit < limit {
		limit = *req.OutputByteLimit
	}
	cmd := TerminalCommand{Command: req.Command, Args: req.Args, Cwd: cwd}
	for _, v := range req.Env {
		cmd.Env = append(cmd.Env, [2]string{v.Name, v.Value})
	}
	t := &terminal{session: s.id, limit: limit, ended: make(chan struct{}), released: make(chan struct{})}
	t.watch = s.terminalWatcher()
	full := &outError{Code: codeInvalidRequest, Message: "terminal/create: " + strconv.Itoa(MaxTerminals) +
		" terminals are open already; release some first"}
	if c.terms.full() {
		return nil, full
	}
	run, err := c.opts.Terminals.Start(c.ctx, cmd)
	if err != nil {
		return nil, &outError{Code: codeInternalError, Message: "terminal/create: " + safetext.Snippet(err.Error(), maxQuoted)}
	}
	// Registered only once it runs: a request that names it (an agent may guess the id)
	// finds a command to act on.
	t.run = run
	if !c.terms.add(t) { // others were created meanwhile
		run.Kill()
		return nil, full
	}
	c.opts.Go.Start("acp terminal "+c.agent, t.follow)
	c.opts.Go.Start("acp terminal end "+c.agent, func() {
		// Nothing keeps running once the terminal is released or the agent is gone.
		select {
		case <-t.released:
		case <-c.done:
			c.terms.remove(t.id)
			t.release()
		}
	})
	return sdk.CreateTerminalResponse{TerminalId: t.id}, nil
}

// WatchTerminals makes w the session's TerminalWatcher, in place of its handler (which is
// one when it has a TerminalOutput method): for a caller that gives the output to another
// type than this package's, without wrapping the handler.
func (s *Session) WatchTerminals(w TerminalWatcher) {
	s.mu.Lock()
	s.watch = w
	s.mu.Unlock()
}

func (s *Session) terminalWatcher() TerminalWatcher {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.watch != nil {
		return s.watch
	}
	w, _ := s.h.(TerminalWatcher)
	return w
}

// KillTerminals kills the commands of the session's terminals that are still running (the
// terminals stay, for the agent to read their output), and returns how many there were.
// A cancelled turn calls it; so does the window's key that kills a running command.
func (s *Session) KillTerminals() int {
	ts := s.c.terms.running(s.id)
	for _, t := range ts {
		t.kill()
	}
	return len(ts)
}
