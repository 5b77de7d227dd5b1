// Package acp is the client side of the Agent Client Protocol over a byte stream: the
// JSON-RPC transport, the connection and its capabilities, the trace file, and the policy
// of the fs handlers.
package acp

import (
	"context"

	sdk "github.com/coder/acp-go-sdk"
)

// Chunk kinds delivered through SessionHandler.Chunk.
const (
	AgentMessageChunk = "agent_message_chunk"
	AgentThoughtChunk = "agent_thought_chunk"
	UserMessageChunk  = "user_message_chunk"
)

// SessionHandler receives what an agent sends for one session. Chunk and Update are called
// on the goroutine that reads the agent, in order, so they must be quick and never wait on
// the screen; RequestPermission is called on its own goroutine and may wait for the user
// until ctx is cancelled (the turn was cancelled or the agent went away).
type SessionHandler interface {
	// Chunk is the fast path for message, thought and user chunks whose content is text.
	Chunk(kind string, text string)
	// Update receives every other session update that decodes.
	Update(u sdk.SessionUpdate)
	// RequestPermission asks the user to pick one of the agent's options.
	RequestPermission(ctx context.Context, req sdk.RequestPermissionRequest) sdk.RequestPermissionResponse
}

// Workspace is the agent's files, as the fs handlers reach them. Paths given to it are
// relative to the workspace, with slashes, already checked not to leave it lexically; the
// implementation refuses symbolic links that lead out and writes to protected files.
// Its errors' messages are repeated to the agent (control characters removed); a
// refusal whose error matches ErrOutsideWorkspace or ErrProtected (errors.Is), or is a
// Refusal (errors.As), gets the JSON-RPC code of invalid parameters, fs.ErrNotExist that of a missing resource, any
// other error that of an internal error. A read refused because the file is over the
// limit is an error with a TooLarge() bool method that says true; one refused because the
// path is not a regular file, an error with a NotRegularFile() bool method that says true:
// both get the code of invalid parameters.
type Workspace interface {
	// Root is the workspace's absolute path as the agent sees it (workspacePath in a
	// container or sandbox).
	Root() string
	// ReadFile returns the whole content of a regular file of at most max bytes, reading no
	// more than max+1 bytes of a bigger one (refused, see above). It refuses what is not a
	// regular file (a named pipe, a device) without blocking.
	ReadFile(ctx context.Context, rel string, max int64) ([]byte, error)
	// WriteFile replaces a file atomically, creating it (and its folders) when missing.
	WriteFile(ctx context.Context, rel string, data []byte) error
}

// LineReader is what a Workspace may also offer: the lines [line, line+limit) of a
// regular file (line is 1-based, a negative limit means to the end, a line ends after its
// newline), read only as far as needed, at most max bytes of them (refused beyond, as
// ReadFile refuses a file over its limit). The fs handlers then serve line and limit from
// a file of any size; without it, from a file of at most MaxReadSource.
type LineReader interface {
	ReadLines(ctx context.Context, rel string, line, limit int, max int64) ([]byte, error)
}

// Refusal is how a Workspace implementation that cannot use this package's sentinel errors
// (the runtime package does not import acp) says that it refused a path on purpose.
type Refusal interface {
	error
	// OutsideWorkspace is true when the path leads out of the workspace.
	OutsideWorkspace() bool
	// ProtectedFile is true when the file is protected from the agent.
	ProtectedFile() bool
}
