package config

import (
	"strings"
	"unicode"

	"gopkg.in/yaml.v3"
)

// The rules JSON Schema cannot express, checked by the loader and reported like the
// schema's violations: agent names are unique, channel names are unique without regard
// to case, a channel's members are agents, and command exists (a warning: the agent may
// be installed later; see commandNotFound).

func (l *loader) checkRules() {
	names := l.uniqueAgentNames()
	l.uniqueChannelNames()
	l.channelMembers(names)
}

// uniqueAgentNames reports an agent name given twice, and returns every name.
func (l *loader) uniqueAgentNames() []string {
	_, agents := field(l.root, "agents")
	if agents == nil || agents.Kind != yaml.SequenceNode {
		return nil
	}
	var names []string
	first := map[string]int{}
	for i, item := range agents.Content {
		k, v := field(item, "name")
		name, ok := stringValue(v)
		if !ok {
			continue
		}
		if j, dup := first[name]; dup {
			l.errorAt(k.Line, k.Column, joinKey(joinIndex("agents", i), "name"), catalogue.Text(l.lang, mSameAgentName,
				q(l.lang, name), j, max(resolve(agents.Content[j]).Line, 1)))
			continue
		}
		first[name] = i
		names = append(names, name)
	}
	return names
}

// uniqueChannelNames reports two channels whose names differ only by case.
func (l *loader) uniqueChannelNames() {
	_, channels := field(l.root, "channels")
	if channels == nil || channels.Kind != yaml.SequenceNode {
		return
	}
	first := map[string]int{}
	for i, item := range channels.Content {
		k, v := field(item, "name")
		name, ok := stringValue(v)
		if !ok || name == "" {
			continue
		}
		key := ChannelKey(name)
		if j, dup := first[key]; dup {
			other, _ := stringValue(valueOf(channels.Content[j], "name"))
			l.errorAt(k.Line, k.Column, joinKey(joinIndex("channels", i), "name"), catalogue.Text(l.lang, mSameChannelName,
				j, max(resolve(channels.Content[j]).Line, 1), q(l.lang, other)))
			continue
		}
		first[key] = i
	}
}

// channelMembers reports a channel member that is not the name of an agent.
func (l *loader) channelMembers(agentNames []string) {
	_, channels := field(l.root, "channels")
	if channels == nil || channels.Kind != yaml.SequenceNode {
		return
	}
	known := make(map[string]bool, len(agentNames))
	for _, name := range agentNames {
		known[name] = true
	}
	for i, item := range channels.Content {
		members := valueOf(item, "agents")
		if members == nil || members.Kind != yaml.SequenceNode {
			continue
		}
		for j, m := range members.Content {
			name, ok := stringValue(m)
			if !ok || known[name] {
				continue
			}
			m = resolve(m)
			path := joinIndex(joinKey(joinIndex("channels", i), "agents"), j)
			l.errorAt(m.Line, m.Column, path, l.noSuchAgentText(name, agentNames))
		}
	}
}

func (l *loader) noSuchAgentText(name string, agentNames []string) string {
	lang := l.lang
	base := catalogue.Text(lang, mNoSuchAgent, q(lang, name))
	// Looking for a near name among thousands of agents would cost more than it helps.
	const maxSuggestFrom = 200
	if len(agentNames) > maxSuggestFrom {
		return base
	}
	if s := nearest(name, agentNames); s != "" {
		return base + catalogue.Text(lang, mDidYouMean, q(lang, s))
	}
	if len(agentNames) == 0 {
		return base + catalogue.Text(lang, mAddItFirst)
	}
	const shown = 10
	names := agentNames
	more := ""
	if len(names) > shown {
		names, more = names[:shown], ", …"
	}
	return base + catalogue.Text(lang, mTheAgentsAre, joinQuoted(lang, names), more)
}

// commandNotFound warns that an agent's command is neither in PATH nor a file.
func (l *loader) commandNotFound(k *yaml.Node, path, command string) {
	lang := l.lang
	line, column := 1, 0
	if k != nil {
		line, column = k.Line, k.Column
	}
	if isPath(command) {
		l.warnAt(line, column, path, catalogue.Text(lang, mPathNotFound, q(lang, command), printable(l.expandPath(command))))
		return
	}
	l.warnAt(line, column, path, catalogue.Text(lang, mNotInPath, q(lang, command)))
}

// ChannelKey returns the form under which two channel names are the same channel: names
// are compared without regard to case (Unicode simple case folding, as strings.EqualFold
// does), so "Général" and "GÉNÉRAL" are one channel. The history store compares names
// the same way.
func ChannelKey(name string) string {
	var b strings.Builder
	b.Grow(len(name))
	for _, r := range name {
		// The smallest rune of r's case-folding orbit stands for all of them.
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		b.WriteRune(least)
	}
	return b.String()
}
