package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"
)

// AppendAgent adds an agent at the end of the agents list of the configuration file at
// path, and keeps every other byte of the file as it was, comments included. agentYAML
// is one list item such as RenderAgent gives ("- name: …"; a bare mapping is accepted
// too). The item takes the list's indentation; a list written in flow style ([…]) gets
// the item in flow style, except an empty one under a block mapping, which becomes a
// block list.
//
// The result is loaded with Parse before anything is written: when it has an error,
// nothing is written and the loader's Diagnostics are returned as the error. Otherwise
// the file is replaced atomically (a temporary file renamed over it), keeping its mode;
// a symbolic link is followed, not replaced.
func AppendAgent(path string, agentYAML []byte) error {
	target, perm, data, err := readForEdit(path)
	if err != nil {
		return fmt.Errorf("appending an agent to %s: %w", path, err)
	}
	block, item, err := agentItem(agentYAML)
	if err != nil {
		return fmt.Errorf("appending an agent to %s: %w", path, err)
	}
	out, err := insertAgent(data, block, item)
	if err != nil {
		if _, diags := Parse(path, data); diags.HasErrors() {
			return diags
		}
		return fmt.Errorf("appending an agent to %s: %w", path, err)
	}
	cfg, diags := Parse(path, out)
	if diags.HasErrors() {
		return diags
	}
	if name := mappingValue(item, "name"); cfg == nil || len(cfg.Agents) == 0 || cfg.Agents[len(cfg.Agents)-1].Name != name {
		return fmt.Errorf("appending an agent to %s: the agent %q did not end up last in agents", path, name)
	}
	if err := writeFileAtomic(target, out, perm); err != nil {
		return fmt.Errorf("appending an agent to %s: %w", path, err)
	}
	return nil
}

// agentItem checks that agentYAML is one mapping, as a list item or bare, and returns it
// as a block item with its dash in the first column, and parsed.
func agentItem(agentYAML []byte) (string, *yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(agentYAML, &doc); err != nil {
		return "", nil, fmt.Errorf("reading the agent to append: %w", err)
	}
	if len(doc.Content) == 0 {
		return "", nil, errors.New("the agent to append is empty")
	}
	n := doc.Content[0]
	text := dedent(strings.ReplaceAll(string(agentYAML), "\r\n", "\n"))
	switch {
	case n.Kind == yaml.SequenceNode && len(n.Content) == 1 && n.Content[0].Kind == yaml.MappingNode:
		return text, n.Content[0], nil
	case n.Kind == yaml.MappingNode:
		lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
		for i := range lines {
			if i == 0 {
				lines[i] = "- " + lines[i]
			} else if lines[i] != "" {
				lines[i] = "  " + lines[i]
			}
		}
		return strings.Join(lines, "\n") + "\n", n, nil
	}
	return "", nil, errors.New("the agent to append must be one mapping, such as RenderAgent writes")
}

// dedent removes the indentation common to every non-blank line of s.
func dedent(s string) string {
	lines := strings.Split(s, "\n")
	common := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " "))
		if common < 0 || n < common {
			common = n
		}
	}
	for i, l := range lines {
		if len(l) >= common && common > 0 {
			lines[i] = l[common:]
		} else if strings.TrimSpace(l) == "" {
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}

// mappingValue returns the text at key in a mapping node, or "".
func mappingValue(m *yaml.Node, key string) string {
	if v := valueNode(m, key); v != nil {
		return v.Value
	}
	return ""
}

// insertAgent returns data with block (a list item, dash in the first column) added at
// the end of the agents list, every other byte kept.
func insertAgent(data []byte, block string, item *yaml.Node) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("reading the file as YAML: %w", err)
	}
	t := newYAMLText(data)
	if len(doc.Content) == 0 {
		return t.addAgentsKey(0, block), nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, errors.New("the file is not a mapping of keys")
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		key, val := root.Content[i], root.Content[i+1]
		if key.Value != "agents" {
			continue
		}
		var next *yaml.Node
		if i+2 < len(root.Content) {
			next = root.Content[i+2]
		}
		switch {
		case val.Kind == yaml.SequenceNode && val.Style&yaml.FlowStyle != 0:
			return t.intoFlowList(key, val, root.Style&yaml.FlowStyle != 0, block, item)
		case val.Kind == yaml.SequenceNode && len(val.Content) > 0:
			return t.intoBlockList(key, val, next, block), nil
		case val.Kind == yaml.ScalarNode && val.ShortTag() == "!!null":
			return t.intoNull(key, val, block)
		}
		return nil, errors.New("agents is not a list written in the file (an alias, or another kind of value)")
	}
	if root.Style&yaml.FlowStyle != 0 {
		return nil, errors.New("the file is written in flow style and has no agents key")
	}
	return t.addAgentsKey(root.Column-1, block), nil
}

// writeFileAtomic replaces path with data: a temporary file in the same folder, synced,
// then renamed over path, so that a crash or a concurrent reader never sees half a file.
func writeFileAtomic(path string, data []byte, perm fs.FileMode) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Chmod(perm); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// isBlank reports whether a line holds only spaces and tabs.
func isBlank(line []byte) bool {
	return len(bytes.TrimLeft(line, " \t")) == 0
}
