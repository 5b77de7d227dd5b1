package config

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// AgentSpec is one agent as the "Add an agent" wizard writes it, before any default or
// path resolution: every value is written as given, and empty fields are left out.
type AgentSpec struct {
	Name        string
	Title       string
	Icon        string
	Description string
	Command     string
	Args        []string
	Workspace   string
	// Runtime is left out when its Type is "" or "local" (the default); otherwise type,
	// container or sandbox, workspacePath and lifecycle are written, each when not empty.
	// Lifecycle is left out when it has no command.
	Runtime Runtime
}

// RenderAgent renders a as one item of the agents list, in block style with the dash in
// the first column ("- name: …\n  command: …\n"), ready for AppendAgent. Lists are
// written in flow style ([a, b]); a value is written plain when YAML reads it back as the
// same text, and double-quoted otherwise (invalid UTF-8 becomes U+FFFD).
func RenderAgent(a AgentSpec) []byte {
	var b strings.Builder
	// line writes "key: value" at depth (0 for the agent's own keys), the first line of
	// the item behind its dash; an empty value opens a nested mapping.
	line := func(depth int, key, value string) {
		if b.Len() == 0 {
			b.WriteString("- ")
		} else {
			b.WriteString(strings.Repeat("  ", depth+1))
		}
		b.WriteString(key + ":")
		if value != "" {
			b.WriteString(" " + value)
		}
		b.WriteByte('\n')
	}
	field := func(depth int, key, value string) {
		if value != "" {
			line(depth, key, value)
		}
	}
	field(0, "name", yamlScalarOrEmpty(a.Name))
	field(0, "title", yamlScalarOrEmpty(a.Title))
	field(0, "icon", yamlScalarOrEmpty(a.Icon))
	field(0, "description", yamlScalarOrEmpty(a.Description))
	field(0, "command", yamlScalarOrEmpty(a.Command))
	field(0, "args", yamlFlowList(a.Args))
	field(0, "workspace", yamlScalarOrEmpty(a.Workspace))
	if r := a.Runtime; r.Type != "" && r.Type != "local" {
		line(0, "runtime", "")
		field(1, "type", yamlScalar(r.Type))
		field(1, "container", yamlScalarOrEmpty(r.Container))
		field(1, "sandbox", yamlScalarOrEmpty(r.Sandbox))
		field(1, "workspacePath", yamlScalarOrEmpty(r.WorkspacePath))
		if l := r.Lifecycle; len(l.Create)+len(l.Stop)+len(l.Remove) > 0 {
			line(1, "lifecycle", "")
			field(2, "folder", yamlScalarOrEmpty(l.Folder))
			field(2, "create", yamlFlowList(l.Create))
			field(2, "stop", yamlFlowList(l.Stop))
			field(2, "remove", yamlFlowList(l.Remove))
		}
	}
	if b.Len() == 0 {
		return []byte("- {}\n")
	}
	return []byte(b.String())
}

func yamlScalarOrEmpty(s string) string {
	if s == "" {
		return ""
	}
	return yamlScalar(s)
}

// yamlFlowList renders a list of texts in flow style, or "" for an empty list.
func yamlFlowList(list []string) string {
	if len(list) == 0 {
		return ""
	}
	parts := make([]string, len(list))
	for i, s := range list {
		parts[i] = yamlScalar(s)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// yamlScalar writes s as a YAML text, plain when that is safe both in block and in flow
// context and reads back as the same text, double-quoted otherwise.
func yamlScalar(s string) string {
	if yamlPlainSafe(s) {
		return s
	}
	return yamlDoubleQuoted(s)
}

// yamlAmbiguousWords are texts that a YAML 1.1 reader would take for something else.
var yamlAmbiguousWords = map[string]bool{
	"y": true, "n": true, "yes": true, "no": true, "on": true, "off": true,
	"true": true, "false": true, "null": true, "~": true,
}

func yamlPlainSafe(s string) bool {
	if s == "" || !utf8.ValidString(s) || yamlAmbiguousWords[strings.ToLower(s)] {
		return false
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' || strings.Contains(s, "  ") {
		return false
	}
	for i, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
		case strings.ContainsRune("_./~", r):
		case r == '-':
			if i == 0 && (len(s) == 1 || s[1] == ' ') {
				return false
			}
		case strings.ContainsRune(" @+=()", r):
			if i == 0 {
				return false
			}
		default:
			return false
		}
	}
	var back any
	if err := yaml.Unmarshal([]byte("["+s+"]"), &back); err != nil {
		return false
	}
	list, ok := back.([]any)
	if !ok || len(list) != 1 {
		return false
	}
	text, ok := list[0].(string)
	return ok && text == s
}

// yamlDoubleQuoted writes s as a double-quoted YAML scalar, escaping what must be.
func yamlDoubleQuoted(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || (r >= 0x7f && r <= 0x9f):
			fmt.Fprintf(&b, `\x%02X`, r)
		case r == 0x2028 || r == 0x2029 || r == 0xfeff:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// yamlFlow renders a parsed YAML value in flow style ({a: b, c: [d]}), for appending to
// a list that is itself written in flow style.
func yamlFlow(n *yaml.Node) (string, error) {
	switch n.Kind {
	case yaml.MappingNode:
		parts := make([]string, 0, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, err := yamlFlow(n.Content[i])
			if err != nil {
				return "", err
			}
			v, err := yamlFlow(n.Content[i+1])
			if err != nil {
				return "", err
			}
			parts = append(parts, k+": "+v)
		}
		return "{" + strings.Join(parts, ", ") + "}", nil
	case yaml.SequenceNode:
		parts := make([]string, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := yamlFlow(c)
			if err != nil {
				return "", err
			}
			parts = append(parts, v)
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	case yaml.ScalarNode:
		if n.ShortTag() == "!!str" {
			return yamlScalar(n.Value), nil
		}
		return n.Value, nil
	}
	return "", fmt.Errorf("line %d: an alias or anchor cannot be appended", n.Line)
}
