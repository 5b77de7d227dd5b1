package acp

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// Errors a connection's calls fail with once it has ended.
var (
	// ErrAgentExited means the agent's output ended (the process exited, or closed its
	// stdout) before it answered.
	ErrAgentExited = errors.New(messagesEN[mAgentExited])
	// ErrClosed means Close was called on the connection.
	ErrClosed = errors.New(messagesEN[mClosed])
	// ErrNotInitialized means a session call came before a successful Initialize.
	ErrNotInitialized = errors.New("the connection is not initialized")
	// ErrNoLoadSession means LoadSession was called on an agent that did not announce
	// loadSession.
	ErrNoLoadSession = errors.New(messagesEN[mNoLoadSession])
)

// Errors a Workspace returns so that the fs handlers can tell the agent why a path was
// refused. A Workspace wraps them (or errors that match them with errors.Is).
var (
	// ErrOutsideWorkspace means the path leads out of the workspace (a symbolic link
	// pointing out, for instance).
	ErrOutsideWorkspace = errors.New("the path is outside the agent's workspace")
	// ErrProtected means the file is protected from the agent's writes.
	ErrProtected = errors.New("the file is protected")
)

// JSON-RPC error codes the client sends or recognizes.
const (
	codeInvalidRequest   = -32600
	codeMethodNotFound   = -32601
	codeInvalidParams    = -32602
	codeInternalError    = -32603
	codeAuthRequired     = -32000
	codeResourceNotFound = -32002
)

// RPCError is a JSON-RPC error the agent answered a request with.
type RPCError struct {
	// Method is the request that failed.
	Method string
	// Code is the JSON-RPC error code.
	Code int
	// Message is the agent's message, with control characters removed.
	Message string
	// Data is the error's data exactly as the agent sent it (nil when absent).
	Data json.RawMessage
}

// Error is the English message, followed by the error's data when it has some.
func (e *RPCError) Error() string { return withDetails(e.text(i18n.English), e) }

func (e *RPCError) text(lang i18n.Lang) string {
	return catalogue.Text(lang, mRPC, e.Method, e.Message, e.Code)
}

// AuthMethod is one of the ways an agent says one can log in to it.
type AuthMethod struct {
	ID          string
	Name        string
	Description string
	// Type is AuthAgent or AuthTerminal (see auth.go).
	Type string
	// Args and Env are what a terminal login adds to the agent's command (AuthTerminal).
	Args []string
	Env  map[string]string
}

// AuthRequiredError means the agent refused a session or a prompt because it needs a
// login: the user signs in with one of Methods (Conn.Authenticate, or the agent's program
// run in a terminal), or sets the secret the agent reads, then tries again.
type AuthRequiredError struct {
	// Agent is the agent's name in the configuration.
	Agent string
	// Method is the request that was refused.
	Method string
	// Methods are the login methods the agent listed in its initialize answer.
	Methods []AuthMethod
	// Message is the agent's own message, with control characters removed.
	Message string
	// Data is the refusal's data exactly as the agent sent it (nil when absent).
	Data json.RawMessage
}

// Error is the English message, followed by the agent's own words.
func (e *AuthRequiredError) Error() string { return withDetails(e.text(i18n.English), e) }

func (e *AuthRequiredError) text(lang i18n.Lang) string {
	return catalogue.Text(lang, mAuthRequired, e.Agent, e.methodList(lang))
}

// VersionError means the agent answered initialize with a protocol version Sidekicks
// does not speak.
type VersionError struct {
	Agent string
	// Theirs is the version the agent answered, as it wrote it (cleaned).
	Theirs string
	// Ours is the version Sidekicks speaks.
	Ours int
}

func (e *VersionError) Error() string { return e.text(i18n.English) }

func (e *VersionError) text(lang i18n.Lang) string {
	return catalogue.Text(lang, mVersion, e.Agent, e.Theirs, e.Ours)
}

// InitTimeoutError means the agent did not answer initialize in time. The process owner
// should stop the process.
type InitTimeoutError struct {
	Agent string
	After time.Duration
	// LastWords is the last line the agent wrote on its stderr, sanitized ("" when none
	// or unknown).
	LastWords string
}

func (e *InitTimeoutError) Error() string { return e.text(i18n.English) }

// OversizeError means the agent's answer to a request was a line over the connection's
// limit: it was skipped without being read whole, and the request fails.
type OversizeError struct {
	Method string
	// Size is the length of the skipped line in bytes.
	Size int64
	// Limit is the connection's line limit in bytes.
	Limit int
}

func (e *OversizeError) Error() string { return e.text(i18n.English) }

func (e *OversizeError) text(lang i18n.Lang) string {
	return catalogue.Text(lang, mOversize, e.Method, byteSize(e.Size), byteSize(int64(e.Limit)))
}

// byteSize writes n bytes in the largest binary unit that keeps it readable.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
