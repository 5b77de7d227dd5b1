package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// maxNodes bounds how many nodes a document may expand to once its aliases are followed,
// so that a few lines of nested aliases cannot take the memory of the machine.
const maxNodes = 200_000

// decodeYAML reads one YAML document into the values JSON Schema validates: maps with
// string keys, slices, strings, json.Number, bool and nil. Timestamps and other scalars that
// YAML would turn into other types stay text, as they are written.
func decodeYAML(document []byte) (value any, err error) {
	defer func() {
		// The YAML parser is not ours; a panic on hostile input must not take the
		// caller down.
		if r := recover(); r != nil {
			value, err = nil, fmt.Errorf("yaml: cannot read the document: %v", r)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(document))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil // an empty document is null
		}
		return nil, err
	}
	var next yaml.Node
	if err := dec.Decode(&next); err == nil {
		return nil, fmt.Errorf("yaml: line %d: a second document starts here; a configuration is one document", max(next.Line, 1))
	} else if !errors.Is(err, io.EOF) {
		return nil, err
	}
	c := converter{budget: maxNodes, active: map[*yaml.Node]bool{}}
	return c.value(&doc)
}

type converter struct {
	budget int
	active map[*yaml.Node]bool // aliases being expanded, to refuse a cycle
}

func (c *converter) value(n *yaml.Node) (any, error) {
	c.budget--
	if c.budget < 0 {
		return nil, fmt.Errorf("yaml: line %d: the document expands to too many values through its aliases", n.Line)
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return c.value(n.Content[0])
	case yaml.AliasNode:
		if n.Alias == nil || c.active[n.Alias] {
			return nil, fmt.Errorf("yaml: line %d: alias *%s refers to itself", n.Line, n.Value)
		}
		c.active[n.Alias] = true
		defer delete(c.active, n.Alias)
		return c.value(n.Alias)
	case yaml.SequenceNode:
		items := make([]any, 0, len(n.Content))
		for _, item := range n.Content {
			v, err := c.value(item)
			if err != nil {
				return nil, err
			}
			items = append(items, v)
		}
		return items, nil
	case yaml.MappingNode:
		return c.mapping(n)
	case yaml.ScalarNode:
		return scalar(n), nil
	}
	return nil, fmt.Errorf("yaml: line %d: unexpected node", n.Line)
}

func (c *converter) mapping(n *yaml.Node) (any, error) {
	m := make(map[string]any, len(n.Content)/2)
	lines := make(map[string]int, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
			return nil, fmt.Errorf("yaml: line %d: merge keys (<<) are not supported", k.Line)
		}
		if k.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("yaml: line %d: a key must be text, not a list or a mapping", k.Line)
		}
		if first, ok := lines[k.Value]; ok {
			return nil, fmt.Errorf("yaml: line %d: mapping key %q already defined at line %d", k.Line, k.Value, first)
		}
		lines[k.Value] = k.Line
		value, err := c.value(v)
		if err != nil {
			return nil, err
		}
		m[k.Value] = value
	}
	return m, nil
}

// scalar converts a scalar by its resolved tag, the way YAML 1.2's core schema reads it.
func scalar(n *yaml.Node) any {
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err == nil {
			return b
		}
	case "!!int":
		if v, ok := integer(n.Value); ok {
			return v
		}
	case "!!float":
		var f float64
		if err := n.Decode(&f); err == nil {
			return floatValue(f, n.Value)
		}
	}
	return n.Value
}

// integer reads a YAML integer of any size (decimal, 0x, 0o, 0b, with _ separators).
func integer(s string) (json.Number, bool) {
	s = strings.ReplaceAll(s, "_", "")
	neg := false
	switch {
	case strings.HasPrefix(s, "-"):
		neg, s = true, s[1:]
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	}
	base := 10
	switch {
	case strings.HasPrefix(s, "0x"), strings.HasPrefix(s, "0X"):
		base, s = 16, s[2:]
	case strings.HasPrefix(s, "0o"), strings.HasPrefix(s, "0O"):
		base, s = 8, s[2:]
	case strings.HasPrefix(s, "0b"), strings.HasPrefix(s, "0B"):
		base, s = 2, s[2:]
	}
	var z big.Int
	if _, ok := z.SetString(s, base); !ok {
		return "", false
	}
	if neg {
		z.Neg(&z)
	}
	return json.Number(z.String()), true
}

// floatValue returns a finite float as a json.Number; infinities and NaN, which JSON has
// not, stay text so that a schema asking for a number refuses them.
func floatValue(f float64, text string) any {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if _, err := strconv.ParseFloat(s, 64); err != nil || s == "NaN" || strings.Contains(s, "Inf") {
		return text
	}
	return json.Number(s)
}
