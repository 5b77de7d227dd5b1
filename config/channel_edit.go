package config

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"
)

// This file changes the channels a configuration file declares, as the application renames
// or deletes a channel: without it, the channel would come back at the next save of the
// file. As AppendAgent does, it changes only the bytes of that channel (comments, blank
// lines and the order of keys stay), checks the result with Parse before writing, and
// writes the file atomically.

// ErrChannelNotDeclared is returned when the file declares no channel of that name.
var ErrChannelNotDeclared = errors.New("the file declares no channel of that name")

// ErrChannelsInFlowStyle is returned when a channel would have to be removed from a list
// written in flow style (channels: [{…}, {…}]), which is left for the user to change.
var ErrChannelsInFlowStyle = errors.New("the channels are written in flow style ([…]); change them in the file")

// ChangeRefusedError is returned when the file, once changed, would not load (another
// channel already has the new name, say): nothing is written. Diags are the loader's
// errors about the changed file.
type ChangeRefusedError struct {
	Diags Diagnostics
}

func (e *ChangeRefusedError) Error() string {
	return "the file would not load after the change: " + e.Diags.Error()
}

// RenameChannelInFile renames the channel declared as old (case aside, as channels are
// matched) to name in the configuration file at path. A file with errors is not changed:
// its Diagnostics are returned.
func RenameChannelInFile(path, old, name string) error {
	return editChannel(path, old, func(t *yamlText, key, seq *yaml.Node, i int) ([]byte, error) {
		v := valueNode(seq.Content[i], "name")
		start, end, err := t.scalarExtent(v)
		if err != nil {
			return nil, err
		}
		quoted, _ := json.Marshal(name) // a JSON string is a YAML double-quoted scalar
		candidates := []string{string(quoted)}
		if v.Style == 0 {
			candidates = []string{name, string(quoted)} // plain as it was, when YAML reads it back
		}
		var out []byte
		for _, c := range candidates {
			out = t.replace(start, end, c)
			if cfg, _ := Parse("", out); cfg != nil && len(cfg.Channels) > i && cfg.Channels[i].Name == name {
				break // YAML reads it back as the name; the loader's verdict follows
			}
		}
		return out, nil
	}, func(cfg *Config) bool {
		return declares(cfg, name) && (strings.EqualFold(old, name) || !declares(cfg, old))
	})
}

// RemoveChannelFromFile removes the channel declared as name (case aside) from the
// configuration file at path: its lines, and the comments indented inside it. The list it
// leaves empty becomes `channels: []`. A file with errors is not changed: its
// Diagnostics are returned.
func RemoveChannelFromFile(path, name string) error {
	return editChannel(path, name, func(t *yamlText, key, seq *yaml.Node, i int) ([]byte, error) {
		if seq.Style&yaml.FlowStyle != 0 {
			return nil, ErrChannelsInFlowStyle
		}
		return t.removeItem(key, seq, i), nil
	}, func(cfg *Config) bool { return !declares(cfg, name) })
}

// declares reports whether cfg declares a channel named name, case aside.
func declares(cfg *Config, name string) bool {
	for _, c := range cfg.Channels {
		if strings.EqualFold(c.Name, name) {
			return true
		}
	}
	return false
}

// editChannel reads the configuration at path, finds the channel declared as name in its
// channels list, lets change write the new content, checks it with Parse (no error, and
// done holds), and replaces the file.
func editChannel(path, name string, change func(t *yamlText, key, seq *yaml.Node, i int) ([]byte, error), done func(*Config) bool) error {
	target, perm, data, err := readForEdit(path)
	if err != nil {
		return fmt.Errorf("changing the channels of %s: %w", path, err)
	}
	if _, diags := Parse(path, data); diags.HasErrors() {
		return diags
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return ErrChannelNotDeclared
	}
	root := doc.Content[0]
	key, seq := field(root, "channels")
	if seq == nil || seq.Kind != yaml.SequenceNode {
		return ErrChannelNotDeclared
	}
	for i, item := range seq.Content {
		if v := valueNode(item, "name"); v == nil || !strings.EqualFold(v.Value, name) {
			continue
		}
		if root.Style&yaml.FlowStyle != 0 {
			return ErrChannelsInFlowStyle
		}
		out, err := change(newYAMLText(data), key, seq, i)
		if err != nil {
			return err
		}
		cfg, diags := Parse(path, out)
		if diags.HasErrors() {
			return &ChangeRefusedError{Diags: diags}
		}
		if cfg == nil || !done(cfg) {
			return fmt.Errorf("changing the channels of %s: the change did not give the file expected", path)
		}
		if err := writeFileAtomic(target, out, perm); err != nil {
			return fmt.Errorf("changing the channels of %s: %w", path, err)
		}
		return nil
	}
	return ErrChannelNotDeclared
}

// readForEdit reads the configuration at path to change it: the file a symbolic link
// leads to (it is replaced, not the link), its mode, and its content, read bounded.
func readForEdit(path string) (target string, perm fs.FileMode, data []byte, err error) {
	target, err = filepath.EvalSymlinks(path)
	if err != nil {
		return "", 0, nil, err
	}
	st, err := os.Stat(target)
	if err != nil {
		return "", 0, nil, err
	}
	data, err = readBounded(context.Background(), target, maxFileSize)
	if err != nil {
		return "", 0, nil, err
	}
	return target, st.Mode().Perm(), data, nil
}

// valueNode returns the node at key in a mapping node (nil when it has none).
func valueNode(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// scalarExtent returns the offsets of a one-line scalar's text in the file, quotes
// included.
func (t *yamlText) scalarExtent(v *yaml.Node) (start, end int, err error) {
	start = t.offsetAt(v.Line, v.Column)
	if start < 0 || v.Kind != yaml.ScalarNode {
		return 0, 0, errors.New("the channel's name is not a text written in the file")
	}
	lineEnd := t.contentEnd(v.Line)
	l := t.data[start:lineEnd]
	switch v.Style {
	case 0:
		if bytes.HasPrefix(l, []byte(v.Value)) {
			return start, start + len(v.Value), nil
		}
	case yaml.DoubleQuotedStyle:
		for i := 1; i < len(l); i++ {
			switch l[i] {
			case '\\':
				i++
			case '"':
				return start, start + i + 1, nil
			}
		}
	case yaml.SingleQuotedStyle:
		for i := 1; i < len(l); i++ {
			if l[i] == '\'' {
				if i+1 < len(l) && l[i+1] == '\'' {
					i++
					continue
				}
				return start, start + i + 1, nil
			}
		}
	}
	return 0, 0, errors.New("the channel's name is not written on one line")
}

// replace returns the file with the bytes from start to end replaced by text.
func (t *yamlText) replace(start, end int, text string) []byte {
	out := make([]byte, 0, len(t.data)-(end-start)+len(text))
	out = append(out, t.data[:start]...)
	out = append(out, text...)
	return append(out, t.data[end:]...)
}

// removeItem returns the file without item i of the block list seq (under key): from its
// dash's line (and the comments just above it, aligned with the dash) through the last
// line indented more than the dash (its keys, and the comments inside it). One of the blank lines around it goes with it, so that the items
// keep their spacing; the list's only item leaves `key: []`.
func (t *yamlText) removeItem(key, seq *yaml.Node, i int) []byte {
	item := seq.Content[i]
	dashCol := t.dashColumn(item, seq.Column-1)
	first, last := t.dashLine(item, dashCol), t.dashLine(item, dashCol)
	for n := first + 1; n <= t.lines(); n++ {
		l := t.line(n)
		if bytes.HasPrefix(l, []byte("---")) || bytes.HasPrefix(l, []byte("...")) {
			break // the end of the document
		}
		trimmed := bytes.TrimLeft(l, " \t")
		if len(trimmed) == 0 {
			continue // blank: its own only when more of the item follows
		}
		if len(l)-len(trimmed) <= dashCol {
			break
		}
		last = n
	}
	// The comments just above the dash, aligned with it, are the item's heading.
	for first-1 > key.Line && isCommentAt(t.line(first-1), dashCol) {
		first--
	}
	from, to := t.starts[first-1], t.afterLine(last)
	if (i == 0 || t.blankBefore(first)) && last < t.lines() && isBlank(t.line(last+1)) {
		to = t.afterLine(last + 1)
	}
	out := t.replace(from, to, "")
	if len(seq.Content) > 1 {
		return out
	}
	// The list is now empty: `channels:` alone would be a null, which the loader refuses.
	colon := t.offsetAt(key.Line, key.Column) + len(key.Value)
	for colon < len(out) && out[colon] != ':' {
		colon++
	}
	return (&yamlText{data: out}).replace(colon+1, colon+1, " []")
}

// isCommentAt reports whether line is a comment whose '#' is at column col (0-based).
func isCommentAt(line []byte, col int) bool {
	return len(line) > col && line[col] == '#' && isBlank(line[:col])
}
