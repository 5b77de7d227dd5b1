package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// Kinds of login methods (AuthMethod.Type).
const (
	// AuthAgent is a login the agent performs itself when asked with authenticate (the
	// default when a method names no type).
	AuthAgent = "agent"
	// AuthTerminal is a login the user performs in the agent's own program, run again with
	// the method's arguments and environment in a terminal; a zero exit means success.
	AuthTerminal = "terminal"
)

// ErrNoLogout means Logout was called on an agent that did not announce the logout method.
var ErrNoLogout = errors.New("the agent does not offer to sign out (logout)")

// Bounds on what an agent may list as login methods: the list and each method's
// arguments and environment are cut, so that a hostile answer stays small.
const (
	maxAuthMethods = 16
	maxAuthArgs    = 32
	maxAuthEnv     = 32
)

// authMethodWire is one login method as the agent sends it.
type authMethodWire struct {
	ID          string            `json:"id"`
	Name        string            `json:"name"`
	Description *string           `json:"description"`
	Type        string            `json:"type"`
	Args        []json.RawMessage `json:"args"`
	Env         map[string]any    `json:"env"`
}

// decodeAuthMethod reads one login method leniently: nil when it has neither id nor
// name, or is of a kind Sidekicks does not know (which it must not pass to authenticate).
func decodeAuthMethod(raw json.RawMessage) *AuthMethod {
	var a authMethodWire
	if json.Unmarshal(raw, &a) != nil || a.ID == "" && a.Name == "" {
		return nil
	}
	m := &AuthMethod{ID: a.ID, Name: a.Name, Type: a.Type}
	if a.Description != nil {
		m.Description = *a.Description
	}
	switch a.Type {
	case "", AuthAgent:
		m.Type = AuthAgent
	case AuthTerminal:
		for _, r := range a.Args[:min(len(a.Args), maxAuthArgs)] {
			var s string
			if json.Unmarshal(r, &s) == nil {
				m.Args = append(m.Args, s)
			}
		}
		for _, k := range slices.Sorted(maps.Keys(a.Env)) {
			if s, ok := a.Env[k].(string); ok && len(m.Env) < maxAuthEnv && k != "" {
				if m.Env == nil {
					m.Env = make(map[string]string)
				}
				m.Env[k] = s
			}
		}
	default:
		return nil
	}
	return m
}

// Authenticate asks the agent to log in with one of the methods of type AuthAgent it
// listed (methodID is the method's ID). It waits until the agent answers, which may take as
// long as the user takes to finish the login the agent started (a browser page): ctx
// bounds the wait. A refusal is an *RPCError.
func (c *Conn) Authenticate(ctx context.Context, methodID string) error {
	if c.Info() == nil {
		return fmt.Errorf("signing in to agent %q: %w", c.agent, ErrNotInitialized)
	}
	req := struct {
		MethodID string `json:"methodId"`
	}{methodID}
	if _, err := c.call(ctx, "authenticate", req, nil); err != nil {
		return fmt.Errorf("signing in to agent %q with %q: %w", c.agent, safetext.Snippet(methodID, 80), err)
	}
	return nil
}

// CanLogout says whether the agent announced the logout method.
func (c *Conn) CanLogout() bool {
	info := c.Info()
	return info != nil && info.Capabilities.Auth.Logout != nil
}

// Logout asks the agent to end its login (the method logout), when it announced it.
func (c *Conn) Logout(ctx context.Context) error {
	if !c.CanLogout() {
		return fmt.Errorf("signing out of agent %q: %w", c.agent, ErrNoLogout)
	}
	if _, err := c.call(ctx, "logout", struct{}{}, nil); err != nil {
		return fmt.Errorf("signing out of agent %q: %w", c.agent, err)
	}
	return nil
}
