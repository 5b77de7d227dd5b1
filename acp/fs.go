package acp

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"path"
	"strconv"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// MaxReadContent is the most text one fs/read_text_file answer carries (8 MiB): an agent
// reads a bigger file in parts, with line and limit. It keeps answers under the line
// limits of agents (10 MiB for the Go SDK's).
const MaxReadContent = 8 << 20

// MaxReadSource is the largest file fs/read_text_file picks lines from (64 MiB) when the
// Workspace is no LineReader: it reads at most that much of it, and refuses a bigger file
// without loading it. A LineReader serves lines from a file of any size.
const MaxReadSource = 64 << 20

// serveRead answers fs/read_text_file: the file's text, or the lines [line, line+limit)
// of it (line is 1-based), when the path is inside the workspace.
func (c *Conn) serveRead(params json.RawMessage) (any, *outError) {
	var req sdk.ReadTextFileRequest
	if err := json.Unmarshal(params, &req); err != nil {
		return nil, invalidParams("fs/read_text_file", err)
	}
	rel, e := c.fsPrologue("reading", req.SessionId, req.Path)
	if e != nil {
		return nil, e
	}
	if req.Line != nil && *req.Line < 1 {
		return nil, &outError{Code: codeInvalidParams, Message: "reading " + safetext.Snippet(req.Path, maxQuoted) + ": line must be 1 or more"}
	}
	if req.Limit != nil && *req.Limit < 0 {
		return nil, &outError{Code: codeInvalidParams, Message: "reading " + safetext.Snippet(req.Path, maxQuoted) + ": limit must not be negative"}
	}
	whole := req.Line == nil && req.Limit == nil
	lr, lines := c.opts.Workspace.(LineReader)
	// The most this read may load, reserved for as long as it runs.
	reserve := int64(MaxReadContent)
	if !whole && !lines {
		reserve = MaxReadSource
	}
	if err := c.reads.acquire(c.requestContext(), reserve); err != nil {
		return nil, fsError("reading", req.Path, err)
	}
	defer c.reads.release(reserve)
	if lines && !whole {
		line, limit := 1, -1
		if req.Line != nil {
			line = *req.Line
		}
		if req.Limit != nil {
			limit = *req.Limit
		}
		data, err := lr.ReadLines(c.requestContext(), rel, line, limit, MaxReadContent)
		switch {
		case err != nil && isTooLarge(err):
			return nil, &outError{Code: codeInvalidParams, Message: "reading " + safetext.Snippet(req.Path, maxQuoted) + ": the text is over the " +
				byteSize(MaxReadContent) + " one answer may carry; read it in smaller parts with line and limit"}
		case err != nil:
			return nil, fsError("reading", req.Path, err)
		}
		return sdk.ReadTextFileResponse{Content: string(data)}, nil
	}
	limit := int64(MaxReadSource)
	if whole {
		limit = MaxReadContent
	}
	data, err := c.opts.Workspace.ReadFile(c.requestContext(), rel, limit)
	switch {
	case err != nil && whole && isTooLarge(err):
		return nil, &outError{Code: codeInvalidParams, Message: "reading " + safetext.Snippet(req.Path, maxQuoted) + ": the text is over the " +
			byteSize(MaxReadContent) + " one answer may carry; read it in parts with line and limit"}
	case err != nil && isTooLarge(err):
		return nil, &outError{Code: codeInvalidParams, Message: "reading " + safetext.Snippet(req.Path, maxQuoted) + ": the file is over the " +
			byteSize(MaxReadSource) + " Sidekicks reads lines from"}
	case err != nil:
		return nil, fsError("reading", req.Path, err)
	}
	data = selectLines(data, req.Line, req.Limit)
	if len(data) > MaxReadContent {
		return nil, &outError{Code: codeInvalidParams, Message: "reading " + safetext.Snippet(req.Path, maxQuoted) + ": the text is " +
			byteSize(int64(len(data))) + ", over the " + byteSize(MaxReadContent) + " one answer may carry; read it in parts with line and limit"}
	}
	return sdk.ReadTextFileResponse{Content: string(data)}, nil
}

// serveWrite answers fs/write_text_file when the path is inside the workspace and not one
// of Sidekicks' own files (the Workspace refuses those, with every symbolic link resolved,
// and writes atomically).
func (c *Conn) serveWrite(params json.RawMessage) (any, *outError) {
	var req sdk.WriteTextFileRequest
	if err := json.Unmarshal(params, &req); err != nil {
		return nil, invalidParams("fs/write_text_file", err)
	}
	rel, e := c.fsPrologue("writing", req.SessionId, req.Path)
	if e != nil {
		return nil, e
	}
	if e := c.writeAllowed(req.SessionId, req.Path); e != nil {
		return nil, e
	}
	if err := c.opts.Workspace.WriteFile(c.requestContext(), rel, []byte(req.Content)); err != nil {
		return nil, fsError("writing", req.Path, err)
	}
	return sdk.WriteTextFileResponse{}, nil
}

// writeAllowed refuses a write the user did not allow: any write Options.AllowWrite
// refuses, or one to a file named by a tool call whose permission request the current
// turn did not allow.
func (c *Conn) writeAllowed(session sdk.SessionId, p string) *outError {
	s := c.session(string(session))
	if s == nil {
		return unknownSession(session)
	}
	quoted := safetext.Snippet(p, maxQuoted)
	if c.opts.AllowWrite != nil {
		if err := c.opts.AllowWrite(p); err != nil {
			return &outError{Code: codeInvalidRequest, Message: "writing " + quoted + ": " + safetext.Snippet(err.Error(), maxQuoted)}
		}
	}
	if title, refused := s.writeRefused(p); refused {
		return &outError{Code: codeInvalidRequest, Message: "writing " + quoted + ": permission was not given for " +
			strconv.Quote(title) + ", which names this file; Sidekicks refuses to write it until the next prompt"}
	}
	return nil
}

// fsPrologue checks what every fs request needs: a known session, a workspace, and a
// path inside it. It returns the path relative to the workspace.
func (c *Conn) fsPrologue(doing string, session sdk.SessionId, p string) (string, *outError) {
	if c.session(string(session)) == nil {
		c.ignore("an fs request for an unknown session")
		return "", unknownSession(session)
	}
	if c.opts.Workspace == nil {
		return "", &outError{Code: codeInvalidRequest, Message: doing + " files: this agent has no access to files through Sidekicks"}
	}
	rel, err := RelativePath(c.opts.Workspace.Root(), p)
	if err != nil {
		return "", &outError{Code: codeInvalidParams, Message: doing + " " + safetext.Snippet(p, maxQuoted) + ": " + err.Error()}
	}
	return rel, nil
}

// RelativePath checks lexically that p, an absolute slash path as the agent sees it, is
// inside the workspace root (after resolving "." and ".."), and returns it relative to
// root, with slashes. Symbolic links are the Workspace's to check.
func RelativePath(root, p string) (string, error) {
	switch {
	case p == "":
		return "", errors.New("the path is empty")
	case strings.IndexByte(p, 0) >= 0:
		return "", errors.New("the path contains a NUL byte")
	case !path.IsAbs(p):
		return "", errors.New("the path is not absolute (ACP paths are absolute)")
	}
	root = path.Clean(root)
	cp := path.Clean(p)
	prefix := root + "/"
	if root == "/" {
		prefix = "/"
	}
	if cp == root {
		return "", errors.New("the path is the workspace itself, not a file in it")
	}
	if !strings.HasPrefix(cp, prefix) {
		return "", errors.New("the path is outside the agent's workspace " + safetext.Snippet(root, maxQuoted))
	}
	return cp[len(prefix):], nil
}

// fsError turns a Workspace error into the JSON-RPC error the agent gets.
func fsError(doing, p string, err error) *outError {
	msg := doing + " " + safetext.Snippet(p, maxQuoted) + ": "
	switch {
	case errors.Is(err, ErrOutsideWorkspace) || refusal(err, func(r Refusal) bool { return r.OutsideWorkspace() }):
		return &outError{Code: codeInvalidParams, Message: msg + "the path leads outside the agent's workspace (" + safetext.Snippet(err.Error(), maxQuoted) + ")"}
	case sidekicksFile(err) != "":
		return &outError{Code: codeInvalidParams, Message: msg + "it is one of Sidekicks' own files (" + safetext.Snippet(sidekicksFile(err), maxQuoted) +
			"), which no agent may write"}
	case errors.Is(err, ErrProtected) || refusal(err, func(r Refusal) bool { return r.ProtectedFile() }):
		return &outError{Code: codeInvalidParams, Message: msg + "the file is protected from the agent (" + safetext.Snippet(err.Error(), maxQuoted) + ")"}
	case errors.Is(err, fs.ErrNotExist):
		return &outError{Code: codeResourceNotFound, Message: msg + "no such file"}
	case isNotRegular(err):
		return &outError{Code: codeInvalidParams, Message: msg + "not a regular file (a named pipe, a device…); it is not read"}
	}
	return &outError{Code: codeInternalError, Message: msg + safetext.Snippet(err.Error(), maxQuoted)}
}

// sidekicksFile says which of Sidekicks' own files a Workspace refused to write (the
// configuration in use, the history…): err, or an error it wraps, has a SidekicksFile
// method that says it. "" when the refusal is not that.
func sidekicksFile(err error) string {
	var e interface{ SidekicksFile() string }
	if errors.As(err, &e) {
		return e.SidekicksFile()
	}
	return ""
}

// isTooLarge reports whether a Workspace refused a read because the file is over the
// limit asked: err, or an error it wraps, has a TooLarge method that says so.
func isTooLarge(err error) bool {
	var e interface{ TooLarge() bool }
	return errors.As(err, &e) && e.TooLarge()
}

// isNotRegular reports whether a Workspace refused a read because the path is not a
// regular file: err, or an error it wraps, has a NotRegularFile method that says so.
func isNotRegular(err error) bool {
	var e interface{ NotRegularFile() bool }
	return errors.As(err, &e) && e.NotRegularFile()
}

// refusal reports whether err, or an error it wraps, is a Refusal that says yes to is.
func refusal(err error, is func(Refusal) bool) bool {
	var r Refusal
	return errors.As(err, &r) && is(r)
}

// selectLines returns the lines [line, line+limit) of data (line is 1-based; nil means
// from the first line, and to the last).
func selectLines(data []byte, line, limit *int) []byte {
	if line == nil && limit == nil {
		return data
	}
	start := 0
	if line != nil {
		for n := 1; n < *line; n++ {
			i := bytes.IndexByte(data[start:], '\n')
			if i < 0 {
				return nil
			}
			start += i + 1
		}
	}
	if limit == nil {
		return data[start:]
	}
	end := start
	for n := 0; n < *limit && end < len(data); n++ {
		i := bytes.IndexByte(data[end:], '\n')
		if i < 0 {
			end = len(data)
			break
		}
		end += i + 1
	}
	return data[start:end]
}
