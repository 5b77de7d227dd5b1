package acp

import (
	"encoding/json"
	"errors"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// sdkKinds are the sessionUpdate kinds the SDK's SessionUpdate decodes. Another kind
// would be decoded by the SDK as the first variant whose fields it happens to have, so
// the kind is checked first.
var sdkKinds = map[string]bool{
	"user_message_chunk":        true,
	"agent_message_chunk":       true,
	"agent_thought_chunk":       true,
	"tool_call":                 true,
	"tool_call_update":          true,
	"plan":                      true,
	"available_commands_update": true,
	"current_mode_update":       true,
	"config_option_update":      true,
	"session_info_update":       true,
	"usage_update":              true,
}

// decodeVariant decodes raw into a new *T, the SDK's type for one kind of update: what
// SessionUpdate.UnmarshalJSON does once it has found the kind, without decoding the
// update a first time into a map to find it.
func decodeVariant[T any](raw []byte, dst **T) error {
	v := new(T)
	if err := json.Unmarshal(raw, v); err != nil {
		return err
	}
	*dst = v
	return nil
}

// decodeKind decodes an update whose kind is one of sdkKinds.
func decodeKind(raw []byte, kind string) (sdk.SessionUpdate, error) {
	var u sdk.SessionUpdate
	var err error
	switch kind {
	case "user_message_chunk":
		err = decodeVariant(raw, &u.UserMessageChunk)
	case "agent_message_chunk":
		err = decodeVariant(raw, &u.AgentMessageChunk)
	case "agent_thought_chunk":
		err = decodeVariant(raw, &u.AgentThoughtChunk)
	case "tool_call":
		err = decodeVariant(raw, &u.ToolCall)
	case "tool_call_update":
		err = decodeVariant(raw, &u.ToolCallUpdate)
	case "plan":
		err = decodeVariant(raw, &u.Plan)
	case "available_commands_update":
		err = decodeVariant(raw, &u.AvailableCommandsUpdate)
	case "current_mode_update":
		err = decodeVariant(raw, &u.CurrentModeUpdate)
	case "config_option_update":
		err = decodeVariant(raw, &u.ConfigOptionUpdate)
	case "session_info_update":
		err = decodeVariant(raw, &u.SessionInfoUpdate)
	case "usage_update":
		err = decodeVariant(raw, &u.UsageUpdate)
	default:
		err = errUnknownKind
	}
	return u, err
}

// errUnknownKind is the error recorded for a kind the SDK does not know.
var errUnknownKind = errors.New("a kind of update Sidekicks does not know")

// applyUpdate decodes one session update with the SDK and hands it to the session's
// handler; a kind the SDK does not know, or an update that does not decode, is counted
// and dropped.
func (c *Conn) applyUpdate(s *Session, raw json.RawMessage) {
	var k struct {
		Kind string `json:"sessionUpdate"`
	}
	if err := json.Unmarshal(raw, &k); err != nil {
		c.unknownUpdate("", err)
		return
	}
	c.decodeUpdate(s, raw, k.Kind)
}

// applyUpdateOf applies the update of a session/update notification, the line data,
// whose kind is known already.
func (c *Conn) applyUpdateOf(s *Session, data []byte, kind string) {
	if !sdkKinds[kind] {
		c.unknownUpdate(kind, errUnknownKind)
		return
	}
	var n struct {
		Params struct {
			Update json.RawMessage `json:"update"`
		} `json:"params"`
	}
	if err := json.Unmarshal(data, &n); err != nil {
		c.unknownUpdate(kind, err)
		return
	}
	c.decodeUpdate(s, n.Params.Update, kind)
}

// decodeUpdate decodes an update of the given kind with the SDK.
func (c *Conn) decodeUpdate(s *Session, raw json.RawMessage, kind string) {
	if !sdkKinds[kind] {
		c.unknownUpdate(kind, errUnknownKind)
		return
	}
	u, err := decodeKind(raw, kind)
	if err != nil {
		c.unknownUpdate(kind, err)
		return
	}
	if kind, text, ok := chunkText(u); ok {
		s.h.Chunk(kind, text)
		return
	}
	s.followState(u) // modes.go
	s.h.Update(u)
}

// chunkText returns the text of a message, thought or user chunk whose content is text.
func chunkText(u sdk.SessionUpdate) (kind, text string, ok bool) {
	switch {
	case u.AgentMessageChunk != nil && u.AgentMessageChunk.Content.Text != nil:
		return AgentMessageChunk, u.AgentMessageChunk.Content.Text.Text, true
	case u.AgentThoughtChunk != nil && u.AgentThoughtChunk.Content.Text != nil:
		return AgentThoughtChunk, u.AgentThoughtChunk.Content.Text.Text, true
	case u.UserMessageChunk != nil && u.UserMessageChunk.Content.Text != nil:
		return UserMessageChunk, u.UserMessageChunk.Content.Text.Text, true
	}
	return "", "", false
}

// unknownUpdate counts an update that was dropped, remembering its kind and why.
func (c *Conn) unknownUpdate(kind string, err error) {
	n := c.stats.recordUnknown(safetext.Snippet(kind, 100), safetext.Snippet(err.Error(), maxQuoted))
	if isPowerOfTwo(n) {
		c.logf("ignored a session update of kind %q: %s (%d so far)", safetext.Snippet(kind, 100), safetext.Snippet(err.Error(), maxQuoted), n)
	}
}
