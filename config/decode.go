package config

import (
	"math"
	"regexp"
	"time"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"gopkg.in/yaml.v3"
)

// Defaults of the specification.
const (
	DefaultTheme               = "system"
	DefaultLanguage            = i18n.English
	DefaultMaxRunningAgents    = 2
	DefaultStopIdleAgentsAfter = 10 * time.Minute
	DefaultRuntime             = "local"
)

// decode reads the tree into a Config, applying every default and resolving every path.
// It takes what has the right shape and leaves the rest: the schema has reported it.
func (l *loader) decode() *Config {
	cfg := &Config{
		Path:     l.file,
		Version:  1,
		UI:       UI{Theme: DefaultTheme, Language: l.lang}, // ui.language, else the environment's
		Limits:   Limits{MaxRunningAgents: DefaultMaxRunningAgents, StopIdleAgentsAfter: DefaultStopIdleAgentsAfter},
		Agents:   []Agent{},
		Channels: []Channel{},
	}
	root := l.root
	if _, v := field(root, "version"); v != nil {
		if n, ok := wholeNumber(v); ok {
			cfg.Version = n
		}
	}
	_, ui := field(root, "ui")
	if s, ok := stringValue(valueOf(ui, "theme")); ok {
		cfg.UI.Theme = s
	}
	if s, ok := stringValue(valueOf(ui, "language")); ok {
		cfg.UI.Language = i18n.Parse(s)
	}
	_, limits := field(root, "limits")
	if n, ok := wholeNumber(valueOf(limits, "maxRunningAgents")); ok && n >= 1 {
		cfg.Limits.MaxRunningAgents = n
	}
	if k, v := field(limits, "stopIdleAgentsAfter"); v != nil {
		if d, ok := l.duration(k, v); ok {
			cfg.Limits.StopIdleAgentsAfter = d
		}
	}
	if _, agents := field(root, "agents"); agents != nil && agents.Kind == yaml.SequenceNode {
		for i, item := range agents.Content {
			if a, ok := l.decodeAgent(resolve(item), i); ok {
				cfg.Agents = append(cfg.Agents, a)
			}
		}
	}
	if _, channels := field(root, "channels"); channels != nil && channels.Kind == yaml.SequenceNode {
		for _, item := range channels.Content {
			item = resolve(item)
			if item == nil || item.Kind != yaml.MappingNode {
				continue
			}
			var c Channel
			c.Name, _ = stringValue(valueOf(item, "name"))
			c.Description, _ = stringValue(valueOf(item, "description"))
			c.Agents, _ = stringList(valueOf(item, "agents"))
			if c.Agents == nil {
				c.Agents = []string{}
			}
			cfg.Channels = append(cfg.Channels, c)
		}
	}
	return cfg
}

func valueOf(n *yaml.Node, key string) *yaml.Node {
	_, v := field(n, key)
	return v
}

// decodeAgent reads one agent. index is its place in the list, for messages.
func (l *loader) decodeAgent(item *yaml.Node, index int) (Agent, bool) {
	if item == nil || item.Kind != yaml.MappingNode {
		return Agent{}, false
	}
	a := Agent{Source: l.file, Line: max(item.Line, 1), Args: []string{}}
	a.Name, _ = stringValue(valueOf(item, "name"))
	a.Title, _ = stringValue(valueOf(item, "title"))
	if a.Title == "" {
		a.Title = a.Name
	}
	a.Icon, _ = stringValue(valueOf(item, "icon"))
	a.Description, _ = stringValue(valueOf(item, "description"))
	commandKey, commandNode := field(item, "command")
	a.Command, _ = stringValue(commandNode)
	if args, ok := stringList(valueOf(item, "args")); ok {
		a.Args = args
	}
	if env := valueOf(item, "env"); env != nil && env.Kind == yaml.MappingNode {
		a.Env = map[string]string{}
		for i := 0; i+1 < len(env.Content); i += 2 {
			k, kok := scalarText(env.Content[i])
			v, vok := stringValue(env.Content[i+1])
			if kok && vok {
				a.Env[k] = v
			}
		}
	}
	if cmd, ok := stringList(valueOf(item, "afterStop")); ok {
		a.AfterStop = l.resolveProgram(cmd)
	}
	a.Workspace = l.dir
	if ws, ok := stringValue(valueOf(item, "workspace")); ok && ws != "" {
		a.Workspace = l.expandPath(ws)
	}
	a.Protect, _ = stringList(valueOf(item, "protect"))
	a.Runtime = l.decodeRuntime(valueOf(item, "runtime"), a.Workspace)
	if a.Command != "" {
		a.CommandPath = l.findCommand(a.Command)
		if a.CommandPath == "" {
			l.commandNotFound(commandKey, joinKey(joinIndex("agents", index), "command"), a.Command)
		}
	}
	return a, true
}

func (l *loader) decodeRuntime(n *yaml.Node, workspace string) Runtime {
	r := Runtime{Type: DefaultRuntime, WorkspacePath: workspace}
	if n == nil || n.Kind != yaml.MappingNode {
		r.Lifecycle.Folder = workspace
		return r
	}
	if t, ok := stringValue(valueOf(n, "type")); ok {
		r.Type = t
	}
	r.Container, _ = stringValue(valueOf(n, "container"))
	r.Sandbox, _ = stringValue(valueOf(n, "sandbox"))
	if p, ok := stringValue(valueOf(n, "workspacePath")); ok && p != "" && r.Type != DefaultRuntime {
		r.WorkspacePath = p
	}
	r.Lifecycle.Folder = workspace
	lc := valueOf(n, "lifecycle")
	if folder, ok := stringValue(valueOf(lc, "folder")); ok && folder != "" {
		r.Lifecycle.Folder = l.expandPath(folder)
	}
	if cmd, ok := stringList(valueOf(lc, "create")); ok {
		r.Lifecycle.Create = l.resolveProgram(cmd)
	}
	if cmd, ok := stringList(valueOf(lc, "stop")); ok {
		r.Lifecycle.Stop = l.resolveProgram(cmd)
	}
	if cmd, ok := stringList(valueOf(lc, "remove")); ok {
		r.Lifecycle.Remove = l.resolveProgram(cmd)
	}
	return r
}

// wholeNumber reads a YAML number that is a whole number, clamped to the int32 range (a
// limit beyond it means no limit).
func wholeNumber(n *yaml.Node) (int, bool) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode {
		return 0, false
	}
	switch n.ShortTag() {
	case "!!int", "!!float":
	default:
		return 0, false
	}
	var f float64
	if err := n.Decode(&f); err != nil || math.IsNaN(f) || f != math.Trunc(f) {
		return 0, false
	}
	return int(max(min(f, math.MaxInt32), math.MinInt32)), true
}

// durationForm is the form the schema allows for stopIdleAgentsAfter as text.
var durationForm = regexp.MustCompile(`^(0|(([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+)$`)

// duration reads stopIdleAgentsAfter: a Go duration, or 0 as a number or as text. A text
// of the right form that time cannot hold (over 290 years) is reported here; any other
// mistake was reported by the schema.
func (l *loader) duration(k, v *yaml.Node) (time.Duration, bool) {
	if n, ok := wholeNumber(v); ok {
		return 0, n == 0
	}
	s, ok := stringValue(v)
	if !ok || !durationForm.MatchString(s) {
		return 0, false
	}
	if s == "0" {
		return 0, true
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		l.errorAt(k.Line, k.Column, "limits.stopIdleAgentsAfter", catalogue.Text(l.lang, mDurationTooLong, q(l.lang, s)))
		return 0, false
	}
	return d, true
}
