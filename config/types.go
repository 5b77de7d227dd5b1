// Package config loads Sidekicks' YAML configuration: the agents, the channels created at
// start and the preferences, with every default applied, every path resolved and every
// problem reported with its line, its key and a message in the file's language.
package config

import (
	"time"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// Config is a loaded configuration file, with defaults applied and paths resolved.
type Config struct {
	// Path is the absolute path of the file this configuration was read from.
	Path     string
	Version  int
	UI       UI
	Limits   Limits
	Agents   []Agent
	Channels []Channel
}

// UI holds the interface preferences.
type UI struct {
	Theme    string    // "system", "light" or "dark"
	Language i18n.Lang // ui.language, "en" or "fr" in the file
}

// Limits bounds how many agents run and for how long an idle one is kept.
type Limits struct {
	MaxRunningAgents int
	// StopIdleAgentsAfter is 0 when idle agents are never stopped.
	StopIdleAgentsAfter time.Duration
}

// Agent is one agent of the configuration.
type Agent struct {
	Name        string
	Title       string // defaults to Name
	Icon        string
	Description string
	// Command is the program as written in the file; CommandPath is where it was found
	// (looked up in PATH for a bare name, resolved against the file's folder otherwise),
	// empty when it was not found (a warning, not an error).
	Command     string
	CommandPath string
	Args        []string
	Env         map[string]string
	// AfterStop is the command run at every end of the agent's process: the program
	// (resolved like Command) then its arguments. Empty when not set.
	AfterStop []string
	// Workspace is the absolute local folder of the agent.
	Workspace string
	Protect   []string
	Runtime   Runtime
	// Source is the file this agent was read from (the configuration, or a project
	// .sidekicks/acp.toml).
	Source string
	// Line is the line of the agent's entry in Source (0 when unknown).
	Line int
	// Project is true for an agent of a project agents file (set by MergeProject): its
	// process gets a minimal environment, and a window restored at start does not start
	// it.
	Project bool
}

// Runtime says where an agent runs, and so how its files and terminal are reached.
type Runtime struct {
	Type      string // "local", "container" or "sbx"
	Container string // for "container"
	Sandbox   string // for "sbx"
	// WorkspacePath is the workspace as seen inside the container or sandbox; it defaults
	// to the agent's Workspace. For "local" it equals Workspace.
	WorkspacePath string
	Lifecycle     Lifecycle
}

// Lifecycle holds the optional commands that manage an agent's container or sandbox.
type Lifecycle struct {
	// Folder is where the commands run; defaults to the agent's Workspace.
	Folder string
	Create []string
	Stop   []string
	Remove []string
}

// Channel is a channel declared in the configuration.
type Channel struct {
	Name        string
	Description string
	Agents      []string
}

// Agent returns the agent with this name, or nil.
func (c *Config) Agent(name string) *Agent {
	for i := range c.Agents {
		if c.Agents[i].Name == name {
			return &c.Agents[i]
		}
	}
	return nil
}
