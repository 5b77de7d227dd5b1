package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// ProtocolVersion is the ACP protocol version Sidekicks speaks.
const ProtocolVersion = 1

// ClientName is the name Sidekicks gives itself in initialize.
const ClientName = "sidekicks"

// AgentInfo is what an agent said about itself in its answer to initialize. Strings are
// as the agent sent them: sanitize them before showing them.
type AgentInfo struct {
	// ProtocolVersion is the version the agent answered (always ProtocolVersion once
	// Initialize succeeded).
	ProtocolVersion int
	// LoadSession is true when the agent supports session/load.
	LoadSession bool
	// EmbeddedContext is true when prompts may carry resource blocks (file contents);
	// otherwise files are sent as resource_link blocks.
	EmbeddedContext bool
	// Capabilities are all of the agent's capabilities (the defaults when it sent none
	// or sent them in a shape that does not decode).
	Capabilities sdk.AgentCapabilities
	// AuthMethods are the logins the agent offers (auth.go).
	AuthMethods []AuthMethod
	// Implementation is the agent's name, title and version, when it sent them.
	Implementation *sdk.Implementation
}

// Initialize negotiates the protocol: it announces version 1, the fs capabilities
// (readTextFile and writeTextFile), terminal when Options.Terminals is set, terminal logins
// (auth.terminal), elicitation when Options.Elicit is set, and Sidekicks' name, and checks
// the agent's answer. It fails with an *InitTimeoutError when the agent does not answer
// within Options.InitTimeout, or within Options.MaxInitWait while it keeps writing on its
// stderr (Options.StartActivity; the caller then stops the process), and with a
// *VersionError when the agent speaks another version.
func (c *Conn) Initialize(ctx context.Context) (*AgentInfo, error) {
	req := sdk.InitializeRequest{
		ProtocolVersion: ProtocolVersion,
		ClientCapabilities: sdk.ClientCapabilities{
			Fs:       sdk.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true},
			Terminal: c.opts.Terminals != nil,
			Auth:     sdk.AuthCapabilities{Terminal: true}, // auth.go
			// Forms and links, when Options.Elicit answers them (elicit.go).
			Elicitation: c.elicitationCapabilities(),
		},
		ClientInfo: &sdk.Implementation{Name: ClientName, Version: c.opts.ClientVersion},
	}
	r, err := c.prepare("initialize", req, nil)
	if err != nil {
		return nil, fmt.Errorf("initializing agent %q: %w", c.agent, err)
	}
	c.queue(r)
	raw, err := c.initWait(ctx, r) // startwait.go
	if err != nil {
		var timeout *InitTimeoutError
		if errors.As(err, &timeout) {
			return nil, timeout
		}
		return nil, fmt.Errorf("initializing agent %q: %w", c.agent, err)
	}
	info, err := decodeInitialize(c.agent, raw)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.info = info
	c.mu.Unlock()
	return info, nil
}

// Info returns what the agent said in its answer to initialize, or nil before it.
func (c *Conn) Info() *AgentInfo {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.info
}

// decodeInitialize reads the answer to initialize leniently: only the protocol version
// must be right; capabilities, agent info or login methods of the wrong shape are
// replaced by their defaults.
func decodeInitialize(agent string, raw json.RawMessage) (*AgentInfo, error) {
	var r struct {
		ProtocolVersion   json.RawMessage   `json:"protocolVersion"`
		AgentCapabilities json.RawMessage   `json:"agentCapabilities"`
		AgentInfo         json.RawMessage   `json:"agentInfo"`
		AuthMethods       []json.RawMessage `json:"authMethods"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("initializing agent %q: its answer is not an initialize result: %s", agent, safetext.Snippet(err.Error(), maxQuoted))
	}
	var version int
	if err := json.Unmarshal(r.ProtocolVersion, &version); err != nil || version != ProtocolVersion {
		return nil, &VersionError{Agent: agent, Theirs: versionText(r.ProtocolVersion), Ours: ProtocolVersion}
	}
	info := &AgentInfo{ProtocolVersion: version}
	// The SDK fills in the defaults when the field is absent or null.
	caps := r.AgentCapabilities
	if caps == nil {
		caps = json.RawMessage("null")
	}
	if err := json.Unmarshal(caps, &info.Capabilities); err != nil {
		_ = json.Unmarshal([]byte("{}"), &info.Capabilities)
	}
	info.LoadSession = info.Capabilities.LoadSession
	info.EmbeddedContext = info.Capabilities.PromptCapabilities.EmbeddedContext
	if r.AgentInfo != nil {
		var impl sdk.Implementation
		if json.Unmarshal(r.AgentInfo, &impl) == nil {
			info.Implementation = &impl
		}
	}
	for _, m := range r.AuthMethods[:min(len(r.AuthMethods), maxAuthMethods)] {
		if a := decodeAuthMethod(m); a != nil {
			info.AuthMethods = append(info.AuthMethods, *a)
		}
	}
	return info, nil
}

// authError turns a JSON-RPC "authentication required" refusal of method into an
// *AuthRequiredError; other errors are returned as they are.
func (c *Conn) authError(method string, err error) error {
	var rpc *RPCError
	if !errors.As(err, &rpc) || rpc.Code != codeAuthRequired {
		return err
	}
	var methods []AuthMethod
	if info := c.Info(); info != nil {
		methods = info.AuthMethods
	}
	return &AuthRequiredError{Agent: c.agent, Method: method, Methods: methods, Message: rpc.Message, Data: rpc.Data}
}

// versionText writes the protocol version an agent answered for a message: a number as
// it is, a string quoted, with control characters removed.
func versionText(raw json.RawMessage) string {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil || v == nil {
		return "(none)"
	}
	if s, ok := v.(string); ok {
		return `"` + safetext.Snippet(s, 40) + `"`
	}
	return safetext.Snippet(strings.TrimSpace(string(raw)), 40)
}
