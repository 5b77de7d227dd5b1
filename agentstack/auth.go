package agentstack

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/runtime"
)

// The session state's types, for the screen, which does not speak ACP itself.
type (
	SessionState = acp.SessionState
	ConfigOption = acp.ConfigOption
	ConfigValue  = acp.ConfigValue
	SessionMode  = acp.Mode
)

// The kinds of session options.
const (
	OptionSelect  = acp.OptionSelect
	OptionBoolean = acp.OptionBoolean
)

// LoginMethod is one of the ways an agent offers to sign in, as it listed it in its
// answer to initialize (names as it sent them: clean them before showing them).
type LoginMethod struct {
	ID, Name, Description string
	// Terminal is true for a login made by running the agent's own program in a terminal
	// (TerminalLogin), false for one the agent makes when asked (SignIn).
	Terminal bool
}

// NeedsSignIn says whether err is an agent's refusal for lack of a login (error -32000).
func NeedsSignIn(err error) bool {
	var auth *acp.AuthRequiredError
	return errors.As(err, &auth)
}

// ErrNotRunning means the agent has no running process to sign in with: start it first.
var ErrNotRunning = errors.New("the agent is not running")

// LoginMethods returns the login methods of the agent's running process and whether it
// offers to sign out; ErrNotRunning when it runs none.
func (a *Stack) LoginMethods(agent string) ([]LoginMethod, bool, error) {
	c := a.conns.Get(agent)
	if c == nil || c.Info() == nil {
		return nil, false, ErrNotRunning
	}
	var out []LoginMethod
	for _, m := range c.Info().AuthMethods {
		out = append(out, LoginMethod{ID: m.ID, Name: m.Name, Description: m.Description, Terminal: m.Type == acp.AuthTerminal})
	}
	return out, c.CanLogout(), nil
}

// SignIn asks the agent's running process to sign in with one of its methods (not a
// terminal one); it waits as long as the agent takes (a browser page), until ctx ends.
func (a *Stack) SignIn(ctx context.Context, agent, methodID string) error {
	c := a.conns.Get(agent)
	if c == nil {
		return ErrNotRunning
	}
	return c.Authenticate(ctx, methodID)
}

// SignOut asks the agent's running process to sign out (when it offers to).
func (a *Stack) SignOut(ctx context.Context, agent string) error {
	c := a.conns.Get(agent)
	if c == nil {
		return ErrNotRunning
	}
	return c.Logout(ctx)
}

// TerminalLogin returns the command of a terminal login: the agent's program as the
// configuration starts it (its arguments, its environment with its secrets, in its
// workspace), the method's arguments added and its environment over the agent's. The
// caller runs it on the terminal (the screen suspended); a zero exit means signed in.
func (a *Stack) TerminalLogin(agent, methodID string) (*exec.Cmd, error) {
	c := a.conns.Get(agent)
	if c == nil || c.Info() == nil {
		return nil, ErrNotRunning
	}
	var method *acp.AuthMethod
	for _, m := range c.Info().AuthMethods {
		if m.ID == methodID && m.Type == acp.AuthTerminal {
			method = &m
			break
		}
	}
	cfg, ok := a.agentConfig(agent)
	switch {
	case method == nil:
		return nil, fmt.Errorf("agent %q offers no terminal login %q", agent, methodID)
	case !ok:
		return nil, fmt.Errorf("agent %q: %w", agent, runtime.ErrUnknownAgent)
	case cfg.CommandPath == "":
		return nil, fmt.Errorf("command %q: %w", cfg.Command, runtime.ErrProgramNotFound)
	}
	cmd := exec.Command(cfg.CommandPath, append(append([]string{}, cfg.Args...), method.Args...)...)
	cmd.Dir = cfg.Workspace
	env := maps.Clone(cfg.Env)
	if env == nil {
		env = map[string]string{}
	}
	maps.Copy(env, method.Env)
	base := os.Environ()
	if cfg.Project {
		base = runtime.MinimalEnviron(base)
	}
	for k, v := range env {
		base = append(base, k+"="+v)
	}
	cmd.Env = base
	return cmd, nil
}

// agentConfig is the configuration the agent starts with (its secrets included).
func (a *Stack) agentConfig(name string) (config.Agent, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, ag := range a.agents {
		if ag.Name == name {
			return ag, true
		}
	}
	return config.Agent{}, false
}
