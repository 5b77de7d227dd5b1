package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// errSecondDocument reports a file that holds more than one YAML document.
type errSecondDocument struct{ line int }

func (e errSecondDocument) Error() string {
	return fmt.Sprintf("yaml: line %d: a second document starts here", e.line)
}

// parseTree reads the first YAML document of data into a node tree. It returns nil (and
// no error) for a document with no content: an empty file, or only comments.
func parseTree(data []byte) (root *yaml.Node, err error) {
	defer func() {
		// The YAML parser is not ours; a panic on hostile input becomes a syntax error.
		if r := recover(); r != nil {
			root, err = nil, fmt.Errorf("yaml: cannot read the document: %v", r)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, err
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == nil:
		return nil, errSecondDocument{line: max(next.Line, 1)}
	case !errors.Is(err, io.EOF):
		return nil, err
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, nil
	}
	root = doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.ShortTag() == "!!null" {
		return nil, nil
	}
	return root, nil
}

// resolve follows an alias to the node it names.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	return n
}

// field returns the key and value nodes of key in a mapping node (nil when absent or when
// n is not a mapping).
func field(n *yaml.Node, key string) (k, v *yaml.Node) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Kind == yaml.ScalarNode && n.Content[i].Value == key {
			return n.Content[i], resolve(n.Content[i+1])
		}
	}
	return nil, nil
}

// scalarText returns the text of a scalar node, and whether n is one.
func scalarText(n *yaml.Node) (string, bool) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode {
		return "", false
	}
	return n.Value, true
}

// stringValue returns the text of a scalar that YAML reads as text (not a number, a
// boolean or null).
func stringValue(n *yaml.Node) (string, bool) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode {
		return "", false
	}
	switch n.ShortTag() {
	case "!!null", "!!bool", "!!int", "!!float":
		return "", false
	}
	return n.Value, true
}

// stringList returns the texts of a sequence of text scalars; ok is false when n is not a
// sequence or one item is not text.
func stringList(n *yaml.Node) (items []string, ok bool) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil, false
	}
	items = make([]string, 0, len(n.Content))
	for _, item := range n.Content {
		s, ok := stringValue(item)
		if !ok {
			return nil, false
		}
		items = append(items, s)
	}
	return items, true
}

// place is where a key path leads in the tree: the key node (nil for a list item or the
// root), the value node, and the key path written the way messages show it.
type place struct {
	key, value *yaml.Node
	path       string
}

// line returns the line of the place: the key's for a key, the value's for a list item,
// never less than 1.
func (p place) line() int {
	switch {
	case p.key != nil && p.key.Line > 0:
		return p.key.Line
	case p.value != nil && p.value.Line > 0:
		return p.value.Line
	}
	return 1
}

func (p place) column() int {
	switch {
	case p.key != nil:
		return p.key.Column
	case p.value != nil:
		return p.value.Column
	}
	return 0
}

// locate follows a JSON instance location (["agents", "0", "name"]) through the tree. It
// goes as far as the tree allows, so that a location the tree does not hold still gets
// the nearest place.
func locate(root *yaml.Node, location []string) place {
	p := place{value: root}
	for _, seg := range location {
		n := resolve(p.value)
		if n == nil {
			break
		}
		switch n.Kind {
		case yaml.MappingNode:
			k, v := field(n, seg)
			if k == nil {
				return p
			}
			p = place{key: k, value: v, path: joinKey(p.path, seg)}
		case yaml.SequenceNode:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(n.Content) {
				return p
			}
			p = place{value: resolve(n.Content[i]), path: joinIndex(p.path, i)}
		default:
			return p
		}
	}
	return p
}

// joinKey appends a mapping key to a key path: agents[0] + name = agents[0].name.
func joinKey(path, key string) string {
	key = printable(key)
	if key == "" || strings.ContainsAny(key, ".[] \"") {
		key = `"` + key + `"`
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

// joinIndex appends a list index to a key path: agents + 0 = agents[0].
func joinIndex(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}
